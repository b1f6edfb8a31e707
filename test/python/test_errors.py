"""Every error the frontend raises, with its message."""

import inspect

import numpy as np
import pytest

import fhec
from fhec import _fhec


def compile_(params, fn, **kw):
    return fhec.compile(params, target="cpu", opt_level=0, **kw)(fn)


def test_control_flow_on_encrypted_values(small):
    def branch(x):
        if x:
            return x
        return -x

    with pytest.raises(fhec.TraceError, match="an encrypted value has no truth value: Python control flow"):
        compile_(small, branch)

    def logic(x, y):
        return x and y

    with pytest.raises(fhec.TraceError, match="no truth value"):
        compile_(small, logic)

    def compare(x):
        return x if x > 0 else -x

    with pytest.raises(fhec.UnsupportedOperationError, match="'>' is not supported on encrypted values.*sign function"):
        compile_(small, compare)

    def loop(x):
        return [v for v in x]

    with pytest.raises(fhec.TraceError, match="cannot be iterated over"):
        compile_(small, loop)

    with pytest.raises(fhec.TraceError, match="cannot become a Python number"):
        compile_(small, lambda x: x * float(x))


@pytest.mark.parametrize("fn,message", [
    (lambda x, y: x / y, "'/' is supported only by a nonzero constant"),
    (lambda x, y: x / 0, "'/' is supported only by a nonzero constant"),
    (lambda x, y: 1 / x, "'/' is not supported on encrypted values"),
    (lambda x, y: x // 2, "'//' is not supported"),
    (lambda x, y: x % 2, "'%' is not supported"),
    (lambda x, y: abs(x), r"'abs\(\)' is not supported"),
    (lambda x, y: x ** 0.5, r"'\*\*' needs a positive integer exponent, got 0.5"),
    (lambda x, y: x ** 0, r"'\*\*' needs a positive integer exponent, got 0"),
    (lambda x, y: x @ y, "put the plaintext matrix on the left: W @ x"),
    (lambda x, y: x[0], "indexing the slots of an encrypted vector is not supported"),
    (lambda x, y: x == y, "'==' is not supported"),
    (lambda x, y: x & y, "'&' is not supported"),
    (lambda x, y: x + "a", "cannot combine an encrypted value with str"),
    (lambda x, y: x * {1: 2}, "cannot combine an encrypted value with dict"),
], ids=["div", "div0", "rdiv", "floordiv", "mod", "abs", "sqrt", "pow0", "matmul", "index", "eq", "and", "str", "dict"])
def test_unsupported_operations(small, fn, message):
    with pytest.raises(fhec.UnsupportedOperationError, match=message):
        compile_(small, fn)


def test_too_little_depth_left(small):
    # small: logQ = 150, logp = 30: four rescales at most.
    def deep(x):
        y = x * x * x * x
        return y * y  # the fifth product in sequence

    line = inspect.getsourcelines(deep)[1] + 2
    with pytest.raises(fhec.DepthError) as e:
        compile_(small, deep)
    msg = str(e.value)
    # x^4 leaves logq = 150 - 3 * 30 = 60, and y * y has scale 2^60.
    assert "too little depth left: this product has scale 2^60 but only 60 bits of modulus remain" in msg
    assert "use a larger logQ or fewer multiplications in sequence" in msg
    # The diagnostic points at the Python line of the offending product.
    assert f"test_errors.py:{line}:" in msg, msg
    assert isinstance(e.value, fhec.CompileError)


def test_mul_monomial_off_the_subring(small):
    # 8 slots at N = 1024 live in Z[X^64]: X^3 would leave it.
    def shifted(x):
        return x.mul_monomial(3)

    line = inspect.getsourcelines(shifted)[1] + 1
    with pytest.raises(fhec.CompileError, match=r"k must be a multiple of N / \(2 slots\) = 64") as e:
        compile_(small, shifted)
    assert f"test_errors.py:{line}:" in str(e.value)
    with pytest.raises(fhec.TraceError, match="mul_monomial\\(\\) takes an integer exponent"):
        compile_(small, lambda x: x.mul_monomial(0.5))


def test_mixed_parameters_and_contexts(small, small_ctx, rng):
    other = fhec.Params(logN=10, logQ=150, logp=30, slots=16, security="none")
    traced = []

    def keep(x):
        traced.append(x)
        return x

    compile_(small, keep)
    with pytest.raises(fhec.ParameterError, match="the operands come from different traced functions"):
        compile_(small, lambda x: x + traced[0])

    f = compile_(small, lambda x, y: x + y)
    v = rng.uniform(-1, 1, 8)
    with pytest.raises(fhec.ParameterError, match=r"argument 1 was made for fhec.Params\(logN=10, logQ=150, logp=30, slots=16.*but .* was compiled for"):
        f(small_ctx.encrypt(v), fhec.Context(other).encrypt(v))
    with pytest.raises(fhec.ParameterError, match="argument 1 belongs to another Context"):
        f(small_ctx.encrypt(v), fhec.Context(small).encrypt(v))
    with pytest.raises(fhec.ParameterError, match="argument 0 of .* is a ndarray, not an fhec.Ciphertext"):
        f(v, small_ctx.encrypt(v))
    with pytest.raises(fhec.TraceError, match="takes 2 ciphertexts, got 1"):
        f(small_ctx.encrypt(v))
    # A ciphertext of another key set does not decrypt.
    with pytest.raises(fhec.FhecError, match="belongs to key set .* the secret key to key set"):
        fhec.Context(small).decrypt(small_ctx.encrypt(v))


def test_plaintexts_and_results(small):
    with pytest.raises(fhec.ParameterError, match=r"a plaintext operand must be a vector of 8 values \(one per slot\), got shape \(3,\)"):
        compile_(small, lambda x: x * np.ones(3))
    with pytest.raises(fhec.ParameterError, match="a plaintext operand must be finite"):
        compile_(small, lambda x: x + np.full(8, np.nan))
    with pytest.raises(fhec.ParameterError, match="a constant operand must be finite"):
        compile_(small, lambda x: x * float("inf"))
    with pytest.raises(fhec.TraceError, match="must return encrypted values .* got float"):
        compile_(small, lambda x: 1.0)
    with pytest.raises(fhec.TraceError, match="rotate\\(\\) takes an integer number of slots or a non-empty list of them, got 1.5"):
        compile_(small, lambda x: x.rotate(1.5))
    with pytest.raises(fhec.TraceError, match="a fixed number of encrypted arguments"):
        compile_(small, lambda *xs: xs[0])
    with pytest.raises(fhec.ParameterError, match="the window n=3 must be a power of two"):
        compile_(small, lambda x: fhec.sum(x, 3))


def test_parameters_and_contexts(small, small_ctx):
    with pytest.raises(fhec.ParameterError, match="slots=6 must be a power of two <= N/2 = 512"):
        fhec.Params(logN=10, logQ=150, logp=30, slots=6)
    with pytest.raises(fhec.ParameterError, match="logp"):
        fhec.Params(logN=10, logQ=30, logp=30)
    with pytest.raises(fhec.ParameterError, match="security='high' is not a level"):
        fhec.Params(logN=10, logQ=150, logp=30, security="high")
    with pytest.raises(fhec.ParameterError, match="keyswitch='unsigned' is not a key-switching form"):
        fhec.Params(logN=10, logQ=150, logp=30, keyswitch="unsigned")
    with pytest.raises(fhec.ParameterError, match="a vector of 9 values does not fit 8 slots"):
        small_ctx.encrypt(np.ones(9))
    with pytest.raises(fhec.ParameterError, match="encrypt takes a 1-D vector"):
        small_ctx.encrypt(np.ones((2, 2)))
    with pytest.raises(fhec.TraceError, match="operations on ciphertexts run inside compiled functions"):
        small_ctx.encrypt(np.ones(8)) + small_ctx.encrypt(np.ones(8))


def test_insecure_parameters_are_refused_with_the_way_out():
    params = fhec.Params(logN=13, logQ=240, logp=30)  # keys mod 2^480 at N = 2^13
    with pytest.raises(fhec.SecurityError) as e:
        compile_(params, lambda x: x * x)
    msg = str(e.value)
    assert "estimated security about 57 bits (HE Standard v2 tables" in msg and "below the required 128 bits" in msg, msg
    assert "security='none'" in msg and "allow_insecure=True" in msg, msg
    # The explicit opt-outs.
    assert compile_(params, lambda x: x * x, allow_insecure=True).security.startswith("about 57 bits")
    ok = fhec.Params(logN=13, logQ=240, logp=30, security="none")
    assert "bits" in compile_(ok, lambda x: x * x).security
    # Keys are refused where they are made, before any compile.
    with pytest.raises(fhec.SecurityError, match=r"about 23 bits .* below the required 128 bits"):
        fhec.Context(fhec.Params(logN=12, logQ=300, logp=30))
    # The sparse secret's estimate counts the hybrid attacks: HEAAN's h = 64 at
    # N = 2^16 with keys mod 2^1760 is refused, and so is the ternary secret
    # above the HE Standard v2's 1747 bits; 1740 passes.
    sparse = fhec.Params(logN=16, logQ=880, logp=30, secret="sparse", h=64)
    with pytest.raises(fhec.SecurityError, match=r"about 102 bits \(lattice-estimator model, cheapest attack"):
        sparse.require_security()
    with pytest.raises(fhec.SecurityError, match=r"about 127 bits \(HE Standard v2 tables"):
        fhec.Params(logN=16, logQ=880, logp=30).require_security()
    fhec.Params(logN=16, logQ=870, logp=30).require_security()
    assert fhec.Params(logN=16, logQ=870, logp=30).security_estimate[0] >= 128


def test_ir_diagnostics_become_exceptions():
    with pytest.raises(fhec.CompileError, match=r"prog.mlir:1:\d+: error: .*"):
        _fhec.Program.parse("module { func.func @f() { %0 = ckks.bogus } }", "prog.mlir")
    bad = """module attributes {ckks.params = #ckks.params<logN = 4, logQ = 100, logp = 30, security = "none">} {
  func.func @f(%x: !ckks.ct<logN = 4, logq = 100, logp = 30, slots = 2>) -> !ckks.ct<logN = 4, logq = 100, logp = 30, slots = 2> {
    %0 = ckks.rotate %x [8] : !ckks.ct<logN = 4, logq = 100, logp = 30, slots = 2>
    return %0 : !ckks.ct<logN = 4, logq = 100, logp = 30, slots = 2>
  }
}"""
    with pytest.raises(fhec.CompileError, match=r"bad.mlir:3:10: error: 'ckks.rotate' op offset = 8 must be in \[1, N/2 = 8\)"):
        _fhec.Program.parse(bad, "bad.mlir")
