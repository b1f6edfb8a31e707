"""Client and server: the server computes on encrypted data without ever holding the secret key.

Run as one command, it plays both parties, the server in a process of its own:

    python examples/python/client_server.py [--dir DIR] [--logN 14] [--target auto]

1. The client makes the keys, the rotation keys the shared function needs
   (ctx.keys_for(f)), encrypts its inputs and saves the public, evaluation
   and rotation keys and the ciphertexts to DIR: no secret key leaves it.
2. The server (`client_server.py server DIR`) loads the keys without the
   secret key, runs the compiled function (a product and a rotation) and saves
   the result. It checks that it cannot decrypt, and (a Python audit hook on
   every file it opens) that it never read a secret key file.
3. The client loads the result, decrypts it and compares it with the
   plaintext computation.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import fhec


def params(logN):
    # Three products in sequence (the constant 0.5 is one) at a 30-bit scale;
    # security="128" is checked
    # at compile time (HE Standard estimate for keys mod Q^2).
    p = fhec.Params.for_depth(3, scale_bits=30)
    return fhec.Params(max(p.logN, logN), p.logQ, p.logp)


def function(p, target):
    """The computation both parties agree on (its code is shared, not its keys)."""

    # The rotation comes after a product, below the top level, where HEAAN's
    # key switching adds the least error (README, precision note).
    @fhec.compile(p, target=target)
    def score(x, w):
        y = x * w
        z = y + 0.5 * y.rotate(1)
        return z * z
    return score


def plain(x, w):
    y = x * w
    z = y + 0.5 * np.roll(y, -1)
    return z * z


def client(args):
    p = params(args.logN)
    t0 = time.perf_counter()
    ctx = fhec.Context(p, target=args.target)
    print(f"client: keys made in {time.perf_counter() - t0:.2f} s ({ctx!r})")
    f = function(p, args.target)
    galois = ctx.keys_for(f)
    print(f"client: rotation keys for Galois elements {galois}")
    rng = np.random.default_rng(2026)
    x, w = rng.uniform(-1, 1, (2, p.slots))
    ctx.save(args.dir)  # params, pk, evk, rotation keys: no sk.bin
    t0 = time.perf_counter()
    ctx.encrypt(x).save(os.path.join(args.dir, "x.ct"))
    ctx.encrypt(w).save(os.path.join(args.dir, "w.ct"))
    print(f"client: inputs encrypted in {time.perf_counter() - t0:.3f} s; files: "
          f"{', '.join(sorted(os.listdir(args.dir)))}")
    assert not os.path.exists(os.path.join(args.dir, "sk.bin"))

    server = subprocess.run([sys.executable, os.path.abspath(__file__), "server", args.dir, "--logN",
                             str(args.logN), "--target", args.target], capture_output=True, text=True)
    sys.stdout.write(server.stdout)
    if server.returncode != 0:
        sys.stderr.write(server.stderr)
        raise SystemExit(f"client: the server failed (exit {server.returncode})")

    result = ctx.load_ciphertext(os.path.join(args.dir, "result.ct"))
    got = ctx.decrypt(result)
    err = float(np.abs(got - plain(x, w)).max())
    print(f"client: decrypted the server's result; max error against the plaintext computation {err:.2e}")
    print("client/server: ok" if err < 1e-3 else "client/server: WRONG")
    return 0 if err < 1e-3 else 1


def server(args):
    opened = []
    sys.addaudithook(lambda event, a: opened.append(str(a[0])) if event == "open" else None)
    p = params(args.logN)
    ctx = fhec.Context.load(args.dir, params=p, target=args.target)
    assert not ctx.has_secret_key and ctx.has_evaluation_key, ctx
    f = function(p, args.target)
    x = ctx.load_ciphertext(os.path.join(args.dir, "x.ct"))
    w = ctx.load_ciphertext(os.path.join(args.dir, "w.ct"))
    t0 = time.perf_counter()
    y = f(x, w)
    print(f"server: ran {f.__name__} on {ctx!r} in {time.perf_counter() - t0:.3f} s")
    y.save(os.path.join(args.dir, "result.ct"))
    try:
        ctx.decrypt(y)
        raise SystemExit("server: decrypt did not raise")
    except fhec.MissingKeyError as e:
        print(f"server: decrypt raises MissingKeyError ({str(e)[:60]}...)")
    secret_reads = [o for o in opened if os.path.basename(o) == "sk.bin"]
    assert not secret_reads, secret_reads
    print(f"server: opened {len([o for o in opened if o.startswith(args.dir)])} files of {args.dir}, "
          "no secret key")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("role", nargs="?", default="client", choices=["client", "server"])
    ap.add_argument("dir", nargs="?")
    ap.add_argument("--dir", dest="dir_option")
    ap.add_argument("--logN", type=int, default=13)
    ap.add_argument("--target", default="auto")
    args = ap.parse_args()
    args.dir = args.dir or args.dir_option
    if args.role == "server":
        return server(args)
    if args.dir:
        os.makedirs(args.dir, exist_ok=True)
        return client(args)
    with tempfile.TemporaryDirectory() as d:
        args.dir = d
        return client(args)


if __name__ == "__main__":
    sys.exit(main())
