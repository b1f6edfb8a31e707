"""Compiled functions: bit-identical to the GMP reference, decrypting to the
plaintext computation, with rotations and automatic scale management at
several ring sizes."""

import numpy as np
import pytest

import fhec

SIZES = [
    # logN, logQ, logp, slots
    (10, 200, 30, 8),
    (11, 240, 30, 1024),  # full slots: N/2
    (12, 300, 40, 64),
    (13, 240, 30, 4096),
]


def model(x, y, w):
    """The traced program; also run in the clear on NumPy vectors."""
    a = 0.5 + 0.197 * x - 0.004 * x * x * x + fhec.rotate(y, 1)
    b = fhec.dot(x, w, 4) + fhec.rotate(y, -3) * 0.25
    return a, b - fhec.conj(a) * y


@pytest.mark.parametrize("logN,logQ,logp,slots", SIZES, ids=[f"logN{s[0]}_logQ{s[1]}_slots{s[3]}" for s in SIZES])
def test_bit_identical_to_reference_and_accurate(logN, logQ, logp, slots, rng):
    params = fhec.Params(logN=logN, logQ=logQ, logp=logp, slots=slots, security="none")
    w = rng.uniform(-1, 1, slots)
    f = fhec.compile(params, target="cpu")(lambda x, y: model(x, y, w))
    # Rotations by 1, 1 and 2 (dot), N/2 - 3, and conjugation.
    half = 1 << (logN - 1)
    assert set(f.galois_elements) == {pow(5, r, 4 * half) for r in (1, 2, half - 3)} | {4 * half - 1}
    ctx = fhec.Context(params)
    x, y = rng.uniform(-1, 1, slots), rng.uniform(-1, 1, slots) + 0.5j * rng.uniform(-1, 1, slots)
    cx, cy = ctx.encrypt(x), ctx.encrypt(y)
    got = f(cx, cy)
    want = f.reference(cx, cy)
    assert len(got) == 2
    for g, r in zip(got, want):
        assert g == r, "compiled output differs from the GMP reference"
        assert g.shape == r.shape
    expected = model(x, y, w)
    # HEAAN's key switching at the top level leaves about (N/pi) sqrt(N) sigma
    # / 2^logp in the slots per rotation (README, precision note): 7e-4 at
    # logN 13, logp 30, where three rotations and a conjugation add up.
    bound = max(2**-10, 4 * (2**logN / np.pi) * np.sqrt(2**logN) * 3.2 / 2**logp)
    for g, e in zip(got, expected):
        err = np.max(np.abs(ctx.decrypt(g, complex=True) - e))
        assert err < bound, err
    # The C++ plaintext evaluation of the traced program agrees with NumPy.
    for p, e in zip(f.plain(x, y), expected):
        assert np.max(np.abs(p - e)) < 1e-9


def test_scale_management_keeps_the_scale(rng):
    params = fhec.Params(logN=10, logQ=200, logp=30, slots=16, security="none")

    @fhec.compile(params, target="cpu")
    def deep(x):
        return (x * x) * (x * x) * x + x  # depth 3

    assert deep.mlir.count("ckks.rescale") == 4
    ctx = fhec.Context(params)
    v = rng.uniform(-1, 1, 16)
    out = deep(ctx.encrypt(v))
    assert out.logp == 30 and out.logq == 200 - 3 * 30
    assert np.max(np.abs(ctx.decrypt(out) - (v**5 + v))) < 2**-10
    c = ctx.encrypt(v)
    assert deep(c) == deep.reference(c)


def test_inputs_of_other_shapes_retrace(rng):
    params = fhec.Params(logN=10, logQ=200, logp=30, slots=8, security="none")
    f = fhec.compile(params, target="cpu")(lambda x: x * x)
    ctx = fhec.Context(params)
    v = rng.uniform(-1, 1, 8)
    low = ctx.encrypt(v, logq=140)
    out = f(low)
    assert out.logq == 110
    assert out == f.reference(low)
    assert np.max(np.abs(ctx.decrypt(out) - v * v)) < 2**-10


def test_ciphertexts_serialize(small, small_ctx, rng):
    v = rng.uniform(-1, 1, 8)
    c = small_ctx.encrypt(v)
    back = small_ctx.ciphertext_from_bytes(c.to_bytes())
    assert back == c
    assert np.max(np.abs(small_ctx.decrypt(back) - v)) < 1e-6
