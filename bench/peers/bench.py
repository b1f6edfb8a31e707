#!/usr/bin/env python3
"""Peers side by side: fhec, DESILO's desilofhe and Microsoft SEAL (the sealapi TenSEAL bundles), one run.

Every number this prints was measured in this run, on this machine: medians
of --runs rounds (ms), per thread count, and the ratio fhec / peer (below 1:
fhec is faster). A peer that is not installed prints "not installed".
Install the peers with `scripts/setup.sh --bench` (PyPI: desilofhe, tenseal).

Sizes, moduli and secrets, every side at 128 bits where it says so (fhec is
HEAAN's power-of-two form: ciphertexts mod 2^logQ, keys mod P*Q with
P = 2^ceil(logQ/dnum); the RNS peers choose their primes):
  N = 2^16: fhec logQ = 1200 (the paper's), dnum 3 (keys mod 2^1600), uniform
            ternary secret, security = "128" by its estimate (HE Standard v2:
            128 bits up to 2^1747); desilofhe Engine(max_level=28).
  N = 2^15: fhec logQ = 440, dnum 2 (keys mod 2^660), uniform ternary, "128"
            (the HE Standard v2 allows 868 bits here); SEAL's 881-bit maximum
            at 128 bits by its own check (sec_level tc128: the 2018 tables; the
            v2 tables give about 126), uniform ternary secret, coeff_mod_bit_sizes [60] + [40] * 19 + [60];
            desilofhe Engine(max_level=17), its largest at N = 2^15.
fhec's estimate is what its driver prints for these modules. desilofhe states
neither its modulus nor a security level; its secret's form is measured in the
run from the serialized secret key (the share of zero coefficients: 1/3 for a
uniform ternary secret, 1 - h/N for a sparse one).
Operations: encryption (encode + encrypt of N/2 slots), decryption (decrypt +
decode), public, relinearization and one rotation key, HE Mul (tensor +
relinearize), HE Mul + rescale, one rotation. fhec's side runs through
runtime-only tools (fhec-bench-client, fhec-exec) on modules compiled for
--target (default auto), so that --bundle runs the same on a machine without
LLVM (bench/peers/prepare: --prepare DIR here, then --bundle DIR there).
SEAL runs each operation on one thread whatever the count.

Usage: bench/peers/bench.py [--sizes 16 15] [--threads 1 2] [--runs 5] [--target auto]
                            [--json bench/peers/results.json] [--prepare DIR | --bundle DIR]
Exit status: non-zero if an fhec tool fails or its bit-exactness check fails.
"""
import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from machine import describe, machine_info  # noqa: E402

SIZES = {
    16: {"logQ": 1200, "dnum": 3, "desilofhe": {"max_level": 28}, "seal": None},
    15: {"logQ": 440, "dnum": 2, "desilofhe": {"max_level": 17}, "seal": [60] + [40] * 19 + [60]},
}
OPS = ["encrypt", "decrypt", "public key", "relinearization key", "rotation key", "HE Mul", "HE Mul + rescale",
       "rotation"]
LABELS = {"encrypt": "encryption (encode + encrypt)", "decrypt": "decryption (decrypt + decode)",
          "rotation key": "one rotation key", "HE Mul": "HE Mul (tensor + relinearize)", "rotation": "one rotation"}

PROGRAMS = {
    "mul": """!ct = !ckks.ct<logN = {logN}, logq = {logQ}, logp = 30, slots = {slots}>
!ct2 = !ckks.ct<logN = {logN}, logq = {logQ}, logp = 60, slots = {slots}>
module attributes {{ckks.params = #ckks.params<logN = {logN}, logQ = {logQ}, logp = 30, dnum = {dnum}>}} {{
  func.func @mul(%a: !ct, %b: !ct) -> !ct2 {{
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct2
    return %0 : !ct2
  }}
}}
""",
    "mul_rescale": """!ct = !ckks.ct<logN = {logN}, logq = {logQ}, logp = 30, slots = {slots}>
!ct2 = !ckks.ct<logN = {logN}, logq = {logQ}, logp = 60, slots = {slots}>
!out = !ckks.ct<logN = {logN}, logq = {logq1}, logp = 30, slots = {slots}>
module attributes {{ckks.params = #ckks.params<logN = {logN}, logQ = {logQ}, logp = 30, dnum = {dnum}>}} {{
  func.func @mul_rescale(%a: !ct, %b: !ct) -> !out {{
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct2
    %1 = ckks.rescale %0 : !ct2 -> !out
    return %1 : !out
  }}
}}
""",
    "rotate": """!ct = !ckks.ct<logN = {logN}, logq = {logQ}, logp = 30, slots = {slots}>
module attributes {{ckks.params = #ckks.params<logN = {logN}, logQ = {logQ}, logp = 30, dnum = {dnum}>}} {{
  func.func @rotate(%a: !ct) -> !ct {{
    %0 = ckks.rotate %a [1] : !ct
    return %0 : !ct
  }}
}}
""",
}


def med(f, runs):
    """Median wall time of f() over `runs` calls (ms), and f's last result."""
    times, out = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = f()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), out


# ---- fhec: modules compiled here, run by runtime-only tools -----------------

def prepare(out, sizes, target, build):
    """Compiles the client kernels and the programs of each size into out/<logN>/, copies the tools and the
    libraries they need beside them (a bundle for a machine without LLVM)."""
    fhec = build / "bin" / "fhec"
    (out / "bin").mkdir(parents=True, exist_ok=True)
    (out / "lib").mkdir(exist_ok=True)
    for tool in ("fhec-bench-client", "fhec-exec"):
        shutil.copy2(build / "bin" / tool, out / "bin")
    for lib in ("libfhec_runtime.so", "libfhec_runtime_core.so"):
        shutil.copy2(build / "lib" / lib, out / "lib")
    for logN in sizes:
        d = out / str(logN)
        d.mkdir(exist_ok=True)
        logQ = SIZES[logN]["logQ"]
        fields = {"logN": logN, "logQ": logQ, "logq1": logQ - 30, "slots": 1 << (logN - 1), "dnum": SIZES[logN]["dnum"]}
        for name, text in PROGRAMS.items():
            (d / f"{name}.mlir").write_text(text.format(**fields))
            subprocess.run([str(fhec), str(d / f"{name}.mlir"), f"--target={target}", "-o", str(d / f"{name}.so")],
                           check=True, capture_output=True, text=True)
        client = subprocess.run([str(fhec), str(d / "mul.mlir"), "--client", f"--target={target}", "-o",
                                 str(d / "client.so")], check=True, capture_output=True, text=True)
        # The driver's estimate of the keys' security ("fhec: security: ...").
        (d / "security.txt").write_text(next((l.split("security: ", 1)[1] for l in client.stderr.splitlines()
                                              if l.startswith("fhec: security: ")), "not printed") + "\n")
    for binary in [out / "bin" / "fhec-exec"] + sorted(out.glob("*/*.so")):
        ldd = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True).stdout
        for line in ldd.splitlines():
            lib = line.split("=>")[1].split()[0] if "=>" in line else ""
            if any(n in lib for n in ("libgmp", "libomp", "libcrypto")) and not (out / "lib" / pathlib.Path(lib).name).exists():
                shutil.copy2(lib, out / "lib")


def fhec_side(bundle, logN, threads, runs):
    env = dict(os.environ, LD_LIBRARY_PATH=str(bundle / "lib") + ":" + os.environ.get("LD_LIBRARY_PATH", ""))
    d = bundle / str(logN)
    client = subprocess.run([str(bundle / "bin" / "fhec-bench-client"), str(d / "client.so"),
                             "--threads=" + ",".join(map(str, threads)), f"--runs={runs}", "--gmp-runs=0", "--check"],
                            capture_output=True, text=True, env=env)
    if client.returncode != 0:
        raise SystemExit(f"fhec-bench-client failed:\n{client.stdout}{client.stderr}")
    c = json.loads(client.stdout)
    res = {"target": c["target"], "client_check": c["check"], "secret": c["secret"], "h": c["h"],
           "security": (d / "security.txt").read_text().strip(), "ms": {}}
    for t in threads:
        k = c["kernels"][str(t)]
        res["ms"][t] = {"encrypt": k["encode"] + k["encrypt"], "decrypt": k["decrypt"] + k["decode"],
                        "public key": k["public key"], "relinearization key": k["relinearization key"],
                        "rotation key": k["rotation key"]}
    with tempfile.TemporaryDirectory() as tmp:
        for op, name in (("HE Mul", "mul"), ("HE Mul + rescale", "mul_rescale"), ("rotation", "rotate")):
            for t in threads:
                js = pathlib.Path(tmp) / f"{name}{t}.json"
                p = subprocess.run([str(bundle / "bin" / "fhec-exec"), str(d / f"{name}.so"), "--random",
                                    f"--repeat={runs}", f"--threads={t}", f"--json={js}"],
                                   capture_output=True, text=True, env=env)
                if p.returncode != 0:
                    raise SystemExit(f"fhec-exec {name} failed:\n{p.stdout}{p.stderr}")
                res["ms"][t][op] = json.loads(js.read_text())["total_ms_median"]
    return res


# ---- peers ------------------------------------------------------------------

def desilofhe_secret_form(serialized, N):
    """The secret's form read from desilofhe's serialized secret key: its first
    limb is N 64-bit words of three values (0, 1, q - 1) after a header; the
    share of zeros is 1/3 for a uniform ternary secret, 1 - h/N for weight h."""
    import numpy as np
    raw = bytes(serialized)
    for off in range(0, 128):
        words = np.frombuffer(raw[off:off + 8 * N], dtype=np.uint64)
        if len(words) == N and len(np.unique(words)) == 3 and 0 in words[:4096]:
            zeros = float(np.mean(words == 0))
            kind = "uniform ternary" if abs(zeros - 1 / 3) < 0.02 else f"Hamming weight {round((1 - zeros) * N)}"
            return f"{kind} ({zeros:.3f} of its coefficients zero, read from its serialized key)"
    return "unknown (its serialized secret key did not read as a coefficient vector)"


def desilofhe_side(settings, logN, threads, runs):
    try:
        import desilofhe
    except ImportError:
        return None
    import numpy as np
    out = {"settings": f"Engine(max_level={settings['max_level']}, mode='cpu')", "ms": {}}
    for t in threads:
        e = desilofhe.Engine(max_level=settings["max_level"], mode="cpu", thread_count=t)
        if e.slot_count != 1 << (logN - 1):
            return {"settings": out["settings"], "error": f"has {e.slot_count} slots, not N/2 = {1 << (logN - 1)}"}
        x = np.random.uniform(-1, 1, e.slot_count)
        sk = e.create_secret_key()
        out["secret"] = desilofhe_secret_form(e.serialize_secret_key(sk), 1 << logN)
        ms = {}
        ms["public key"], pk = med(lambda: e.create_public_key(sk), runs)
        ms["relinearization key"], rlk = med(lambda: e.create_relinearization_key(sk), runs)
        ms["rotation key"], rok = med(lambda: e.create_fixed_rotation_key(sk, 1), runs)
        ms["encrypt"], ct = med(lambda: e.encrypt(x, pk), runs)
        ms["decrypt"], y = med(lambda: e.decrypt(ct, sk), runs)
        if np.abs(y - x).max() > 1e-3:
            return {"settings": out["settings"], "error": "decryption is wrong"}
        ms["HE Mul"], m = med(lambda: e.multiply(ct, ct, rlk), runs)
        ms["HE Mul + rescale"], _ = med(lambda: e.rescale(e.multiply(ct, ct, rlk)), runs)
        ms["rotation"], _ = med(lambda: e.rotate(ct, rok), runs)
        out["ms"][t] = ms
    return out


def seal_side(bits, logN, threads, runs):
    if bits is None:
        return {"error": f"N = 2^{logN} is beyond SEAL's 2^15"}
    try:
        import tenseal.sealapi as s
    except ImportError:
        return None
    import numpy as np
    N = 1 << logN
    parms = s.EncryptionParameters(s.SCHEME_TYPE.CKKS)
    parms.set_poly_modulus_degree(N)
    parms.set_coeff_modulus(s.CoeffModulus.Create(N, bits))
    ctx = s.SEALContext(parms, True, s.SEC_LEVEL_TYPE.TC128)
    kg = s.KeyGenerator(ctx)
    enc, ev = s.CKKSEncoder(ctx), s.Evaluator(ctx)
    x = list(np.random.uniform(-1, 1, N // 2))
    ms = {}

    def key(kind, make, *args):
        k = kind()
        make(*args, k)
        return k
    ms["public key"], pk = med(lambda: key(s.PublicKey, kg.create_public_key), runs)
    ms["relinearization key"], rlk = med(lambda: key(s.RelinKeys, kg.create_relin_keys), runs)
    # SEAL's Galois element of a rotation by 1 is 3 (its generator).
    ms["rotation key"], gk = med(lambda: key(s.GaloisKeys, kg.create_galois_keys, [3]), runs)
    encryptor, decryptor = s.Encryptor(ctx, pk), s.Decryptor(ctx, kg.secret_key())

    def encrypt():
        pt, ct = s.Plaintext(), s.Ciphertext()
        enc.encode(x, 2.0 ** 40, pt)
        encryptor.encrypt(pt, ct)
        return ct

    def decrypt(ct):
        pt = s.Plaintext()
        decryptor.decrypt(ct, pt)
        return enc.decode_double(pt)

    def mul(rescale):
        out = s.Ciphertext()
        ev.multiply(ct, ct, out)
        ev.relinearize_inplace(out, rlk)
        if rescale:
            ev.rescale_to_next_inplace(out)
        return out

    def rotate():
        out = s.Ciphertext()
        ev.rotate_vector(ct, 1, gk, out)
        return out
    ms["encrypt"], ct = med(encrypt, runs)
    ms["decrypt"], y = med(lambda: decrypt(ct), runs)
    if np.abs(np.array(y) - np.array(x)).max() > 1e-3:
        return {"error": "decryption is wrong"}
    ms["HE Mul"], _ = med(lambda: mul(False), runs)
    ms["HE Mul + rescale"], _ = med(lambda: mul(True), runs)
    ms["rotation"], _ = med(rotate, runs)
    bits_total = ctx.key_context_data().total_coeff_modulus_bit_count()
    return {"settings": f"coeff_mod_bit_sizes {bits} ({bits_total} bits), single-threaded",
            "secret": "uniform ternary (SEAL's only form)", "security": "128 bits by SEAL's own check (sec_level tc128, the HE Standard 2018 tables; about 126 by the "
                        "v2 tables fhec uses, whose 128-bit bound at N = 2^15 is 868 bits)",
            "ms": {t: ms for t in threads}}


# ---- report -----------------------------------------------------------------

def table(size, threads):
    fh = size["fhec"]
    secret = "uniform ternary" if fh["secret"] == "ternary" else f"{fh['secret']}, h = {fh['h']}"
    lines = [f"N = 2^{size['logN']}: fhec logQ = {size['logQ']}, dnum {size['dnum']} ({fh['target']}, client kernels "
             f"{fh['client_check']} to the GMP reference)",
             f"  fhec secret: {secret}; security: {fh['security']}"]
    peers = [("desilofhe", size["desilofhe"]), ("SEAL", size["seal"])]
    for name, p in peers:
        lines.append(f"  {name}: " + ("not installed" if p is None else p.get("error") or p["settings"]))
        if p and "secret" in p:
            lines.append(f"  {name} secret: {p['secret']}; security: {p.get('security', 'not stated by it')}")
    head = f"  {'operation (ms, median)':34s}"
    for t in threads:
        head += f" | {t}T fhec" + "".join(f" {n:>10s} {'ratio':>6s}" for n, p in peers if p and "ms" in p)
    lines.append(head)
    for op in OPS:
        row = f"  {LABELS.get(op, op):34s}"
        for t in threads:
            f = size["fhec"]["ms"][t][op]
            row += f" | {f:7.1f}"
            for n, p in peers:
                if p and "ms" in p:
                    v = p["ms"][t][op]
                    row += f" {v:10.1f} {f / v:6.2f}"
        lines.append(row)
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[16, 15], choices=sorted(SIZES))
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--target", default="auto", choices=["auto", "cpu", "cpu-avx512"])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--json", default=str(ROOT / "bench" / "peers" / "results.json"))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--prepare", help="only compile a bundle into this directory (for a machine without LLVM)")
    g.add_argument("--bundle", help="run on a bundle made by --prepare")
    args = ap.parse_args()
    if args.prepare:
        prepare(pathlib.Path(args.prepare), args.sizes, args.target, pathlib.Path(args.build))
        print(f"bundle: {args.prepare}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        bundle = pathlib.Path(args.bundle) if args.bundle else pathlib.Path(tmp)
        if not args.bundle:
            prepare(bundle, args.sizes, args.target, pathlib.Path(args.build))
        report = {"machine": machine_info(), "runs": args.runs, "threads": args.threads, "sizes": []}
        for logN in args.sizes:
            s = SIZES[logN]
            size = {"logN": logN, "logQ": s["logQ"], "dnum": s["dnum"], "fhec": fhec_side(bundle, logN, args.threads, args.runs),
                    "desilofhe": desilofhe_side(s["desilofhe"], logN, args.threads, args.runs),
                    "seal": seal_side(s["seal"], logN, args.threads, args.runs)}
            report["sizes"].append(size)
    pathlib.Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    print(f"machine: {describe(report['machine'])}; medians of {args.runs} rounds; ratio = fhec / peer")
    for size in report["sizes"]:
        print(table(size, args.threads))
    print(f"JSON: {args.json}")
    return 0 if all(s["fhec"]["client_check"] == "bit-identical" for s in report["sizes"]) else 1


if __name__ == "__main__":
    sys.exit(main())
