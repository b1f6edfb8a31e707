"""Bootstrapping from Python: x.bootstrap() traces a ckks.bootstrap, whose
compiled form is bit-identical to the GMP reference and gives the modulus back."""

import numpy as np
import pytest

import fhec


@pytest.mark.parametrize("secret,h", [("sparse", 64), ("ternary", None)])
def test_bootstrap_refreshes_the_modulus(rng, secret, h):
    # HEAAN's sparse secret raises the modulus under the key's own secret; the
    # ternary one under an ephemeral sparse secret (sparse-secret encapsulation).
    params = fhec.Params(logN=12, logQ=700, logp=30, slots=8, security="none", secret=secret, h=h)
    f = fhec.compile(params, target="cpu")(lambda x: (x * x).bootstrap() * 0.5)
    assert "ckks.bootstrap" in f.mlir and "mod_logq = 42" in f.mlir and "log_scale = 50" in f.mlir
    assert f.encapsulation_moduli == ([] if h else [42])
    ctx = fhec.Context(params)
    v = rng.uniform(-1, 1, 8)
    c = ctx.encrypt(v)
    out = f(c)
    assert out == f.reference(c), "compiled output differs from the GMP reference"
    # The level bootstrapping leaves (142, as in test/dialect/ckks/transforms/ckks-expand-bootstrap;
    # 8 bits less with encapsulation's lift) whatever the input's, then the product by 0.5.
    assert out.logq == (142 if h else 134) - 30
    assert np.max(np.abs(ctx.decrypt(out).real - 0.5 * v * v)) < 2**-14


def test_bootstrap_errors(small):
    with pytest.raises(fhec.TraceError, match="positive integer mod_logq"):
        fhec.compile(small, target="cpu")(lambda x: x.bootstrap(mod_logq=4.5))
    with pytest.raises(fhec.TraceError, match="level_budget as two positive integers"):
        fhec.compile(small, target="cpu")(lambda x: x.bootstrap(level_budget=(2,)))
    big = fhec.Params(logN=12, logQ=700, logp=30, slots=8, security="none", secret="sparse", h=64)
    with pytest.raises(fhec.CompileError, match=r"level_budget needs 1 <= levels <= log2 slots = 3"):
        fhec.compile(big, target="cpu")(lambda x: x.bootstrap(level_budget=(4, 1)))
    with pytest.raises(fhec.DepthError, match="too little depth left"):
        fhec.compile(small, target="cpu")(lambda x: x.bootstrap())


def test_full_slot_bootstrap(rng):
    # 128 complex slots at N = 256: factored transforms (default budget 3, 3),
    # EvalMod on the real and imaginary parts.
    params = fhec.Params(logN=8, logQ=900, logp=30, slots=128, security="none")
    f = fhec.compile(params, target="cpu")(lambda x: x.bootstrap(log_scale=56))
    assert "level_budget" not in f.mlir
    ctx = fhec.Context(params)
    v = rng.uniform(-1, 1, 128) + 1j * rng.uniform(-1, 1, 128)
    c = ctx.encrypt(v, logq=102)
    out = f(c)
    assert out == f.reference(c), "compiled output differs from the GMP reference"
    assert np.max(np.abs(ctx.decrypt(out, complex=True) - v)) < 2**-14


def test_auto_bootstrap_places_bootstraps_where_the_modulus_runs_out(rng):
    # 26 products at logQ 700 (21 fit, 3 more after each bootstrap): DepthError
    # without bootstrap="auto", two placed bootstraps with it.
    params = fhec.Params(logN=12, logQ=700, logp=30, slots=8, security="none")

    def iterate(x):
        for _ in range(13):
            x = x * x * 0.9 + 0.05
        return x

    with pytest.raises(fhec.DepthError):
        fhec.compile(params, target="cpu")(iterate)
    with pytest.raises(fhec.ParameterError, match="bootstrap must be None or 'auto'"):
        fhec.compile(params, target="cpu", bootstrap="always")(iterate)
    f = fhec.compile(params, target="cpu", bootstrap="auto")(iterate)
    assert f.bootstraps == 2 and f.mlir.count("ckks.bootstrap ") == 2
    ctx = fhec.Context(params)
    assert sorted(ctx.keys_for(f)) == sorted(f.galois_elements) and f.galois_elements
    assert f.encapsulation_moduli == [42]
    sizes = ctx.key_sizes()
    assert set(sizes["rotation"]) == set(f.galois_elements) and set(sizes["encapsulation"]) == {42}
    assert sizes["total"] == (sizes["pk"] + sizes["evk"] + sum(sizes["rotation"].values()) +
                              sum(sizes["encapsulation"].values()))
    v = rng.uniform(-0.5, 0.5, 8)
    c = ctx.encrypt(v)
    # A server's context (no secret key) gets the encapsulation keys with the rest.
    server = fhec.Context.from_bytes(ctx.evaluation().to_bytes(), params=params)
    out = f(server.ciphertext_from_bytes(c.to_bytes()))
    out = ctx.ciphertext_from_bytes(out.to_bytes())
    assert out == f.reference(c), "compiled output differs from the GMP reference"
    w = v.copy()
    for _ in range(13):
        w = w * w * 0.9 + 0.05
    assert np.max(np.abs(ctx.decrypt(out).real - w)) < 2**-14
