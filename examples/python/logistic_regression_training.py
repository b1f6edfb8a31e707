"""Encrypted logistic-regression training with bootstrapping (HELR, Kim et al. 2018).

Trains a logistic-regression model by gradient ascent on the log-likelihood on
scikit-learn's breast-cancer data (569 samples x 30 features, 80/20 split,
standardized), with the training data and the weights encrypted. Each sample
is a 32-slot block z_i = y_i (1, x_i) (y_i = +-1, the 1 carries the bias),
n_i samples per ciphertext. One iteration, compiled once:

    t_i  = z_i . w                    plaintext-free: ct x ct product, fhec.sum over the block,
                                      a mask and a broadcast back over the block
    s_i  = (lr / n) sigma(-t_i)       HELR's degree-3 sigmoid on [-8, 8], lr / n folded in
    w   += sum_i s_i z_i              ct x ct product, rotations by 32, 64, ... over the blocks
    w    = w.bootstrap()              a fresh modulus for the next iteration

five levels of 2^30 in all, so every iteration bootstraps once. The same iterations run in plaintext with
the same polynomial (and with the exact sigmoid); the example prints the test
accuracy of each, the bootstraps used, the time per iteration and the largest
weight difference from the plaintext training.

    .venv/bin/python examples/python/logistic_regression_training.py
        [--logN 16] [--iterations 5] [--samples N] [--lr 1.0] [--mod-logq 38] [--log-scale 46]
        [--target auto] [--reference]

N = 2^16 (default): logQ 880, dnum 2, dense secret (fhec's estimate: 128 bits
or more), 2^14 slots, 455
training samples in one ciphertext. Smaller rings (the tests use --logN 12,
security "none") take the first samples that fit one ciphertext.
Exit status: non-zero if the encrypted training's test accuracy is more than
1 point from the plaintext polynomial training's.
"""

import argparse
import sys
import time

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MaxAbsScaler, StandardScaler

import fhec

BLOCK = 32  # slots per sample: the bias, 30 features, one zero
# HELR's least-squares sigmoid on [-8, 8] (Kim et al. 2018, degree 3).
SIGMOID3 = (0.5, 0.15012, 0.0, -0.001593)


def poly_sigmoid(t):
    return SIGMOID3[0] + SIGMOID3[1] * t + SIGMOID3[3] * t**3


def sigmoid(t):
    return 1 / (1 + np.exp(-t))


def train_plain(Z, iterations, lr, sig):
    """Gradient ascent w += lr / n sum_i sig(-z_i . w) z_i from w = 0."""
    w = np.zeros(Z.shape[1])
    for _ in range(iterations):
        w = w + lr / len(Z) * (sig(-(Z @ w)) @ Z)
    return w


def accuracy(w, X, y):
    return float(np.mean(((np.c_[np.ones(len(X)), X] @ w[: X.shape[1] + 1]) > 0) == (y == 1)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logN", type=int, default=16)
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--samples", type=int, default=None, help="training samples (default: all that fit)")
    ap.add_argument("--lr", type=float, default=1.0, help="learning rate")
    ap.add_argument("--mod-logq", type=int, default=38,
                    help="bootstrapping's q0 (bits): 8 bits above the scale keep more precision at 2^14 slots")
    ap.add_argument("--log-scale", type=int, default=46,
                    help="bootstrapping's working scale (bits): 46 leaves the 5 levels an iteration uses")
    ap.add_argument("--target", default="auto", help="cpu, cpu-avx512 or auto (default)")
    ap.add_argument("--reference", action="store_true",
                    help="check the last iteration against fhec's GMP reference (minutes at N = 2^16)")
    args = ap.parse_args(argv)

    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    # Standardized, then scaled into [-1, 1] (HELR's normalization): with
    # lr = 1, z . w stays inside the sigmoid polynomial's [-8, 8] (|z . w| <= 5
    # over these iterations), outside which the cubic diverges.
    for scaler in (StandardScaler(), MaxAbsScaler()):
        scaler.fit(X_train)
        X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)

    big = args.logN >= 16
    # Sparse slots for bootstrapping (2 slots <= N/2): 2^14 at N = 2^16.
    slots = 1 << (args.logN - 2)
    # The dense (uniform ternary) secret at 128 bits by fhec's estimate: keys
    # mod P.Q with dnum = 2 (P about Q / 2: 2^1320 at N = 2^16), and
    # bootstrapping's encapsulation key to an ephemeral h = 32 secret mod
    # q0.P' (docs/bootstrapping.md). Smaller rings cannot hold 128 bits at
    # this depth: they opt out.
    params = fhec.Params(logN=args.logN, logQ=880 if big else 900, logp=30, slots=slots, dnum=2,
                         security="128" if big else "none")
    per_ct = slots // BLOCK
    n = min(per_ct, len(X_train), args.samples or len(X_train))
    Z = np.zeros((n, BLOCK))
    Z[:, 0] = 1
    Z[:, 1 : X_train.shape[1] + 1] = X_train[:n]
    Z *= (2 * y_train[:n] - 1)[:, None]
    packed = np.zeros(slots)
    packed[: n * BLOCK] = Z.ravel()
    first = np.zeros(slots)
    first[::BLOCK] = 1  # slot 0 of every block
    c0, c1, c3 = (args.lr / n * c for c in (SIGMOID3[0], SIGMOID3[1], SIGMOID3[3]))

    def iteration(w, z):
        t = fhec.sum(z * w, BLOCK) * first  # slot 32 i: z_i . w, zero elsewhere
        k = 1
        while k < BLOCK:  # broadcast over the block
            t = t + fhec.rotate(t, -k)
            k *= 2
        s = c0 - c1 * t - (c3 * t) * (t * t)  # lr / n sigma(-t), depth 2
        g = s * z
        k = BLOCK
        while k < slots:  # sum over the blocks: every block holds sum_i s_i z_i
            g = g + fhec.rotate(g, k)
            k *= 2
        return (w + g).bootstrap(mod_logq=args.mod_logq, log_scale=args.log_scale)

    t0 = time.perf_counter()
    step = fhec.compile(params, target=args.target)(iteration)
    compile_s = time.perf_counter() - t0
    print(f"fhec: {params!r}, target {step.target}, step compiled in {compile_s:.1f} s")
    print(f"  {step.security}")
    ctx = fhec.Context(params)
    t0 = time.perf_counter()
    ctx.keys_for(step)
    keygen_s = time.perf_counter() - t0
    sizes = ctx.key_sizes()
    print(f"  keys: {len(sizes['rotation'])} rotation keys, {sizes['total'] / 2**20:.0f} MB in all, "
          f"made in {keygen_s:.1f} s")

    # The first call takes a fresh w, the others w at the level bootstrapping
    # leaves: the second call compiles that variant (fhec.compile traces per
    # input level), the median iteration time leaves both out.
    z_ct = ctx.encrypt(packed)
    w_ct = ctx.encrypt(np.zeros(slots))
    times, bootstraps, drift = [], 0, []
    w_plain = np.zeros(BLOCK)
    for _ in range(args.iterations):
        last_in = w_ct
        t0 = time.perf_counter()
        w_ct = step(w_ct, z_ct)
        times.append(time.perf_counter() - t0)
        bootstraps += step.bootstraps
        # The same iteration in plaintext, and the largest distance of any
        # sample block's copy of w (decrypted for this report only).
        w_plain = w_plain + args.lr / n * (poly_sigmoid(-(Z @ w_plain)) @ Z)
        copies = ctx.decrypt(w_ct)[: n * BLOCK].real.reshape(n, BLOCK)
        drift.append(float(np.max(np.abs(copies - w_plain))))
    w_enc = ctx.decrypt(w_ct)[:BLOCK]
    w_poly = train_plain(Z, args.iterations, args.lr, lambda t: poly_sigmoid(t))
    w_exact = train_plain(Z, args.iterations, args.lr, sigmoid)
    acc_enc, acc_poly, acc_exact = (accuracy(w, X_test, y_test) for w in (w_enc, w_poly, w_exact))
    print(f"training samples: {n} (one ciphertext of {per_ct} x {BLOCK} slots), test samples: {len(X_test)}")
    print(f"iterations: {args.iterations}, bootstraps used: {bootstraps}")
    steady = times[2:] or times  # the first two include the executor's set-up and the second variant's compile
    print(f"time per iteration: median {np.median(steady):.2f} s over iterations 3..{len(times)} (first two "
          f"{times[0]:.2f} s, {times[1] if len(times) > 1 else float('nan'):.2f} s: executor set-up, the second "
          "variant's compile)")
    print(f"test accuracy: encrypted {acc_enc:.4f}, plaintext (same polynomial) {acc_poly:.4f}, "
          f"plaintext (exact sigmoid) {acc_exact:.4f}")
    print(f"max |w encrypted - w plaintext|: {np.max(np.abs(w_enc.real - w_poly)):.3e}; over every block's copy, "
          "per iteration: " + ", ".join(f"{d:.1e}" for d in drift))
    identical = True
    if args.reference:
        identical = w_ct == step.reference(last_in, z_ct)
        print(f"last iteration bit-identical to the GMP reference: {'yes' if identical else 'NO'}")
    return 0 if identical and abs(acc_enc - acc_poly) <= 0.01 else 1


if __name__ == "__main__":
    sys.exit(main())
