"""Bootstrapping from Python: x.bootstrap() traces a ckks.bootstrap, whose
compiled form is bit-identical to the GMP reference and gives the modulus back."""

import numpy as np
import pytest

import fhec


def test_bootstrap_refreshes_the_modulus(rng):
    params = fhec.Params(logN=12, logQ=700, logp=30, slots=8, security="none")
    f = fhec.compile(params, target="cpu")(lambda x: (x * x).bootstrap() * 0.5)
    assert "ckks.bootstrap" in f.mlir and "mod_logq = 42" in f.mlir and "log_scale = 50" in f.mlir
    ctx = fhec.Context(params)
    v = rng.uniform(-1, 1, 8)
    c = ctx.encrypt(v)
    out = f(c)
    assert out == f.reference(c), "compiled output differs from the GMP reference"
    # The level bootstrapping leaves (92, as in test/passes/ckks-expand-bootstrap)
    # whatever the input's, then the product by 0.5.
    assert out.logq == 92 - 30
    assert np.max(np.abs(ctx.decrypt(out).real - 0.5 * v * v)) < 2**-14


def test_bootstrap_errors(small):
    with pytest.raises(fhec.TraceError, match="positive integer mod_logq"):
        fhec.compile(small, target="cpu")(lambda x: x.bootstrap(mod_logq=4.5))
    full = fhec.Params(logN=10, logQ=150, logp=30, slots=512, security="none")
    with pytest.raises(fhec.CompileError, match="sparse ciphertexts only"):
        fhec.compile(full, target="cpu")(lambda x: x.bootstrap())
    with pytest.raises(fhec.DepthError, match="too little depth left"):
        fhec.compile(small, target="cpu")(lambda x: x.bootstrap())
