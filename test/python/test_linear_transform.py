"""W @ x (ckks.linear_transform by baby-step giant-step): bit-identical to the
GMP reference, one level, and the matrix-vector product in the first slots."""

import numpy as np
import pytest

import fhec


@pytest.fixture(scope="module")
def params():
    """N = 2^11, 32 slots, depth 5."""
    return fhec.Params(logN=11, logQ=180, logp=30, slots=32, security="none")


@pytest.fixture(scope="module")
def ctx(params):
    return fhec.Context(params)


def test_matrix_times_encrypted_vector(params, ctx, rng):
    w = rng.uniform(-1, 1, (10, 12))

    @fhec.compile(params, target="cpu")
    def f(x):
        return w @ x

    assert "ckks.linear_transform" in f.mlir
    # Two blocks of 16 slots (the power of two >= 12): a vector in the first
    # 12 slots of each; slots 12..15 of a block are never read.
    v = np.full(params.slots, 5.0)
    a, b = rng.uniform(-1, 1, 12), rng.uniform(-1, 1, 12)
    v[:12], v[16:28] = a, b
    c = ctx.encrypt(v)
    out = f(c)
    assert out == f.reference(c), "compiled output differs from the GMP reference"
    assert out.logq == params.logQ - params.logp
    got = ctx.decrypt(out).real
    assert np.max(np.abs(got[:10] - w @ a)) < 1e-3 and np.max(np.abs(got[16:26] - w @ b)) < 1e-3
    assert np.max(np.abs(got[10:16])) < 1e-3 and np.max(np.abs(got[26:])) < 1e-3
    # The plaintext evaluation is the same product.
    assert np.max(np.abs(f.plain(v).real[:10] - w @ a)) < 1e-9


def test_square_matrix_over_all_slots_then_activation(params, ctx, rng):
    w = rng.uniform(-0.2, 0.2, (params.slots, params.slots)) + np.diag(np.full(params.slots, 0.5))

    @fhec.compile(params, target="cpu")
    def layer(x):
        return fhec.polyval(w @ x, [0.0, 1.0, 0.0, -0.1])

    v = rng.uniform(-1, 1, params.slots)
    c = ctx.encrypt(v)
    out = layer(c)
    assert out == layer.reference(c)
    want = np.polynomial.polynomial.polyval(w @ v, [0.0, 1.0, 0.0, -0.1])
    assert np.max(np.abs(ctx.decrypt(out).real - want)) < 1e-3


@pytest.mark.parametrize("matrix, error, message", [
    (np.zeros((3, 3)), fhec.ParameterError, "the matrix is zero"),
    (np.ones((40, 3)), fhec.ParameterError, "at most 32 x 32"),
    (np.ones(3), fhec.ParameterError, "at most 32 x 32"),
    (np.array([[1.0, np.nan]]), fhec.ParameterError, "finite"),
])
def test_bad_matrices(params, matrix, error, message):
    with pytest.raises(error, match=message):
        @fhec.compile(params, target="cpu")
        def f(x):
            return matrix @ x


def test_matrix_on_the_right_is_refused(params):
    with pytest.raises(fhec.UnsupportedOperationError, match="W @ x"):
        @fhec.compile(params, target="cpu")
        def f(x):
            return x @ np.eye(4)
