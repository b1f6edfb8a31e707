"""Encrypted logistic-regression inference on real data.

Trains scikit-learn's LogisticRegression on the breast-cancer data set bundled
with scikit-learn (569 samples x 30 features, 80/20 split), encrypts the
standardized test features (30 features padded to 32 slots per sample, 512
samples per ciphertext), and evaluates the model under CKKS: w.x + b by a
plaintext product and log-step rotations (fhec.dot over 32-slot windows), then
a least-squares polynomial approximation of the sigmoid on the training
scores' range (the HELR approach, Kim et al. 2018). Prints the accuracy of the
encrypted and the plaintext model, how many predictions differ, the errors of
the scores, the time per sample, and whether the compiled module's output is
bit-identical to fhec's GMP reference.

    .venv/bin/python examples/python/logistic_regression.py [--target cpu|cpu-avx512|auto]

Parameters: N = 2^15, Q = 2^240, p = 2^30: keys mod Q^2 = 2^480, within the HE
Standard's 128-bit bound for N = 2^15 (881 bits); depth 4 of the 8 available.
"""

import argparse
import sys
import time

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import fhec

BLOCK = 32  # slots per sample: 30 features, padded to a power of two


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def fit_sigmoid(R, degree):
    """Odd least-squares polynomial 0.5 + c1 z + c3 z^3 (+ c5 z^5) of the
    sigmoid on [-R, R]: the coefficients of the odd powers."""
    z = np.linspace(-R, R, 4001)
    powers = np.stack([z**k for k in range(1, degree + 1, 2)], axis=1)
    coeffs, *_ = np.linalg.lstsq(powers, sigmoid(z) - 0.5, rcond=None)
    return coeffs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="auto", help="cpu, cpu-avx512 or auto (default)")
    ap.add_argument("--degree", type=int, default=3, choices=(3, 5), help="degree of the sigmoid approximation")
    ap.add_argument("--logN", type=int, default=15, help="log2 of the ring dimension (default 15)")
    args = ap.parse_args(argv)

    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    scaler = StandardScaler().fit(X_train)
    X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    model = LogisticRegression(C=0.1, max_iter=5000).fit(X_train, y_train)
    w, b = model.coef_[0], float(model.intercept_[0])

    # The approximation interval covers the training scores with a margin:
    # inside it the odd fit keeps the sign of z, so predictions agree.
    R = 1.25 * float(np.max(np.abs(model.decision_function(X_train))))
    c = fit_sigmoid(R, args.degree)

    params = fhec.Params(logN=args.logN, logQ=240, logp=30)
    slots = params.slots
    per_ct = slots // BLOCK
    n = len(X_test)
    if n > per_ct:
        sys.exit(f"{n} test samples do not fit one ciphertext of {per_ct} samples")
    W = np.tile(np.pad(w, (0, BLOCK - w.size)), per_ct)

    t0 = time.perf_counter()

    @fhec.compile(params, target=args.target)
    def infer(x):
        z = fhec.dot(x, W, BLOCK) + b  # slot k*32: w.x_k + b
        z2 = z * z
        poly = c[-1]
        for ck in reversed(c[:-1]):
            poly = ck + poly * z2  # Horner in z^2
        return 0.5 + poly * z

    compile_s = time.perf_counter() - t0
    print(f"fhec: {params!r}, target {infer.target}, compiled in {compile_s:.2f} s")
    print(f"  {infer.security}")
    print(f"  {len(infer.galois_elements)} rotation keys; sigmoid ~ 0.5 + "
          + " + ".join(f"{ck:.4g} z^{2 * i + 1}" for i, ck in enumerate(c)) + f" on [-{R:.1f}, {R:.1f}]")

    ctx = fhec.Context(params)
    packed = np.zeros(slots)
    packed[: n * BLOCK] = np.pad(X_test, ((0, 0), (0, BLOCK - X_test.shape[1]))).ravel()
    t0 = time.perf_counter()
    ct = ctx.encrypt(packed)
    encrypt_s = time.perf_counter() - t0
    infer(ct)  # first call: rotation keys and the executor (tables, keys in NTT form)
    t0 = time.perf_counter()
    out = infer(ct)
    run_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    scores = ctx.decrypt(out)[: n * BLOCK : BLOCK]
    decrypt_s = time.perf_counter() - t0
    identical = out == infer.reference(ct)

    z_plain = model.decision_function(X_test)
    p_plain = model.predict_proba(X_test)[:, 1]
    p_poly = 0.5 + sum(ck * z_plain ** (2 * i + 1) for i, ck in enumerate(c))
    pred_enc = (scores > 0.5).astype(int)
    pred_plain = model.predict(X_test)
    differ = int(np.sum(pred_enc != pred_plain))
    print(f"test samples: {n} (one ciphertext of {per_ct} samples x {BLOCK} slots)")
    print(f"accuracy: encrypted {np.mean(pred_enc == y_test):.4f}, plaintext model {np.mean(pred_plain == y_test):.4f}")
    print(f"predictions that differ from the plaintext model: {differ}")
    print(f"max |score - plaintext sigmoid score|: {np.max(np.abs(scores - p_plain)):.3e} (approximation)")
    print(f"max |score - plaintext polynomial score|: {np.max(np.abs(scores - p_poly)):.3e} (encryption)")
    print(f"time: encrypt {encrypt_s * 1e3:.1f} ms, inference {run_s * 1e3:.1f} ms "
          f"({run_s / n * 1e3:.2f} ms per sample), decrypt {decrypt_s * 1e3:.1f} ms")
    print(f"bit-identical to the GMP reference: {'yes' if identical else 'NO'}")
    return 0 if identical and differ <= 1 else 1


if __name__ == "__main__":
    sys.exit(main())
