"""Evaluates a polynomial on encrypted data and shows what fhec made of it:
the traced ckks IR (scale management's rescales and level alignment
included), then runs it, and the same polynomial by fhec.polyval (one level
less), and compares both with NumPy.

    .venv/bin/python examples/python/polynomial.py [--target cpu|cpu-avx512|auto] [--fhe]
"""

import argparse
import time

import numpy as np

import fhec


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="auto")
    ap.add_argument("--fhe", action="store_true", help="also print the annotated fhe dialect (kernel level)")
    args = ap.parse_args(argv)

    params = fhec.Params(logN=14, logQ=200, logp=30)  # keys mod 2^400: 128-bit secure at N = 2^14

    t0 = time.perf_counter()

    @fhec.compile(params, target=args.target)
    def horner(x):
        # 1 - x/2 + x^2/3 - x^3/4 + x^4/5, Horner's rule: depth 4.
        p = 0.2
        for c in (-0.25, 1 / 3, -0.5, 1.0):
            p = p * x + c
        return p

    print(f"traced and compiled in {time.perf_counter() - t0:.2f} s for {horner.target}")
    print(horner.mlir)
    if args.fhe:
        print(horner.lower("fhe"))

    # The same polynomial as one fhec.polyval (ckks.poly_eval's baby-step
    # giant-step sequence on the Chebyshev basis): depth ceil(log2 5) = 3.
    coeffs = [1.0, -0.5, 1 / 3, -0.25, 0.2]

    @fhec.compile(params, target=args.target)
    def bsgs(x):
        return fhec.polyval(x, coeffs)

    ctx = fhec.Context(params)
    x = np.linspace(-1, 1, params.slots)
    want = 1 - x / 2 + x**2 / 3 - x**3 / 4 + x**4 / 5
    ok = True
    for name, f in (("Horner", horner), ("polyval", bsgs)):
        out = f(ctx.encrypt(x))
        err = np.max(np.abs(ctx.decrypt(out) - want))
        print(f"{name}: result at logq = {out.logq} ({(params.logQ - out.logq) // params.logp} levels), "
              f"{f.mlir.count('ckks.mul %')} products of ciphertexts; max error against NumPy: {err:.2e}")
        ok &= err < 2**-10
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
