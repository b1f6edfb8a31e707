"""Polynomial evaluation (fhec.polyval, fhec.approx; ckks.poly_eval's
baby-step giant-step sequence): bit-identical to the GMP reference, minimal
depth, few products, and accurate."""

import numpy as np
import pytest

import fhec


@pytest.fixture(scope="module")
def precise():
    """N = 2^13 (4096 slots), logp = 40: the CKKS noise (~1e-7) stays below the
    approximation errors tested here; depth 8."""
    return fhec.Params(logN=13, logQ=360, logp=40, security="none")


def test_tanh_degree_63_on_minus_4_4(precise):
    ctx = fhec.Context(precise)

    @fhec.compile(precise, target="cpu")
    def f(x):
        return fhec.approx(np.tanh, x, (-4, 4), 63)

    # tanh is odd: its even Chebyshev coefficients vanish and are dropped.
    assert f.mlir.count("ckks.mul %") <= 20
    v = np.linspace(-4, 4, precise.slots)
    c = ctx.encrypt(v)
    out = f(c)
    assert out == f.reference(c), "compiled output differs from the GMP reference"
    # Depth 6, plus 1 for mapping [-4, 4] to [-1, 1].
    assert out.logq == precise.logQ - 7 * precise.logp
    fresh = np.max(np.abs(ctx.decrypt(c).real - v))
    err = np.max(np.abs(ctx.decrypt(out).real - np.tanh(v)))
    assert err <= 1e-4 + fresh, (err, fresh)


def test_power_basis_and_plaintext_agree(precise, rng):
    ctx = fhec.Context(precise)
    coeffs = [0.25, -1.0, 0.5, 0.0, 0.125, -0.0625]

    @fhec.compile(precise, target="cpu")
    def f(x):
        return fhec.polyval(x, coeffs, domain=(-2, 2))

    v = rng.uniform(-2, 2, precise.slots)
    c = ctx.encrypt(v)
    out = f(c)
    assert out == f.reference(c)
    want = np.polynomial.polynomial.polyval(v, coeffs)
    assert np.max(np.abs(fhec.polyval(v, coeffs, domain=(-2, 2)) - want)) < 1e-12
    assert np.max(np.abs(ctx.decrypt(out).real - want)) < 1e-5
    # Degree 5: depth ceil(log2 6) = 3, plus 1 for the interval.
    assert out.logq == precise.logQ - 4 * precise.logp


def test_chebyshev_on_the_unit_interval_needs_no_scaling(precise):
    @fhec.compile(precise, target="cpu")
    def f(x):
        return fhec.polyval(x, [0.0, 0.0, 0.0, 1.0], basis="chebyshev")

    # T_3 = 2 T_2 T_1 - T_1: two products, depth 2, no mul_const.
    assert f.mlir.count("ckks.mul %") == 2 and "mul_const" not in f.mlir
    assert f.plain(np.array([0.5] * precise.slots))[0].real == pytest.approx(4 * 0.125 - 3 * 0.5)


@pytest.mark.parametrize("args, message", [
    (([1.0],), "at least 2 numbers"),
    (([0.0, 1.0], "legendre"), "basis must be"),
    (([0.0, 1.0], "power", (1, -1)), "a < b"),
    (([3.0, 0.0],), "degree >= 1"),
    (([0.0, np.inf],), "not finite"),
])
def test_bad_polynomials(small, args, message):
    with pytest.raises(fhec.ParameterError, match=message):
        @fhec.compile(small, target="cpu")
        def f(x):
            return fhec.polyval(x, *args)


def test_too_deep_for_the_modulus(small):
    with pytest.raises(fhec.DepthError, match="too little depth left"):
        @fhec.compile(small, target="cpu")
        def f(x):
            return fhec.approx(np.tanh, x, (-4, 4), 63)
