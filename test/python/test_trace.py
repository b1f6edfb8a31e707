"""Traced IR: each operator builds exactly the expected (managed) ckks ops."""

import numpy as np
import pytest

import fhec

# N = 2^10, Q = 2^150, p = 2^30, 8 slots (conftest.small).
HEADER = 'module attributes {ckks.params = #ckks.params<logN = 10, logQ = 150, logp = 30, security = "none">} {'


def t(logq, logp=30):
    """A ciphertext type in the stripped form ops print."""
    return f"<logN = 10, logq = {logq}, logp = {logp}, slots = 8>"


def full(logq, logp=30):
    return "!ckks.ct" + t(logq, logp)


def body(mlir):
    """The ops of the traced function, one per line, without the return."""
    lines = [l.strip() for l in mlir.strip().splitlines()]
    assert lines[0] == HEADER, lines[0]
    start = next(i for i, l in enumerate(lines) if l.startswith("func.func"))
    end = next(i for i, l in enumerate(lines) if l.startswith("return"))
    return lines[start], lines[start + 1:end], lines[end]


VEC = np.arange(8) / 8
DENSE = "dense<[0.000000e+00, 1.250000e-01, 2.500000e-01, 3.750000e-01, 5.000000e-01, 6.250000e-01, 7.500000e-01, 8.750000e-01]> : tensor<8xf64>"

# (name, function of (x, y), expected body, result logq)
CASES = [
    ("add", lambda x, y: x + y, [f"%0 = ckks.add %arg0, %arg1 : {t(150)}"], 150),
    ("sub", lambda x, y: x - y, [f"%0 = ckks.sub %arg0, %arg1 : {t(150)}"], 150),
    ("neg", lambda x, y: -x, [f"%0 = ckks.negate %arg0 : {t(150)}"], 150),
    ("mul", lambda x, y: x * y,
     [f"%0 = ckks.mul %arg0, %arg1 : ({t(150)}, {t(150)}) -> {t(150, 60)}",
      f"%1 = ckks.rescale %0 {{round}} : {t(150, 60)} -> {t(120)}"], 120),
    ("mul_const", lambda x, y: x * 0.5,
     [f"%0 = ckks.mul_const %arg0 {{value = 5.000000e-01 : f64}} : {t(150)} -> {t(150, 60)}",
      f"%1 = ckks.rescale %0 {{round}} : {t(150, 60)} -> {t(120)}"], 120),
    ("rmul_const", lambda x, y: 2 * x,
     [f"%0 = ckks.mul_const %arg0 {{value = 2.000000e+00 : f64}} : {t(150)} -> {t(150, 60)}",
      f"%1 = ckks.rescale %0 {{round}} : {t(150, 60)} -> {t(120)}"], 120),
    ("div_const", lambda x, y: x / 4,
     [f"%0 = ckks.mul_const %arg0 {{value = 2.500000e-01 : f64}} : {t(150)} -> {t(150, 60)}",
      f"%1 = ckks.rescale %0 {{round}} : {t(150, 60)} -> {t(120)}"], 120),
    ("add_const", lambda x, y: x + 0.5, [f"%0 = ckks.add_const %arg0 {{value = 5.000000e-01 : f64}} : {t(150)}"], 150),
    ("radd_const", lambda x, y: 0.5 + x, [f"%0 = ckks.add_const %arg0 {{value = 5.000000e-01 : f64}} : {t(150)}"], 150),
    ("sub_const", lambda x, y: x - 0.5, [f"%0 = ckks.add_const %arg0 {{value = -5.000000e-01 : f64}} : {t(150)}"], 150),
    ("rsub_const", lambda x, y: 0.5 - x,
     [f"%0 = ckks.negate %arg0 : {t(150)}", f"%1 = ckks.add_const %0 {{value = 5.000000e-01 : f64}} : {t(150)}"], 150),
    ("mul_plain", lambda x, y: x * VEC,
     [f"%0 = ckks.mul_plain %arg0 {{values = {DENSE}}} : {t(150)} -> {t(150, 60)}",
      f"%1 = ckks.rescale %0 {{round}} : {t(150, 60)} -> {t(120)}"], 120),
    ("rmul_plain", lambda x, y: VEC * x,
     [f"%0 = ckks.mul_plain %arg0 {{values = {DENSE}}} : {t(150)} -> {t(150, 60)}",
      f"%1 = ckks.rescale %0 {{round}} : {t(150, 60)} -> {t(120)}"], 120),
    ("add_plain", lambda x, y: x + VEC, [f"%0 = ckks.add_plain %arg0 {{values = {DENSE}}} : {t(150)}"], 150),
    ("add_complex_const", lambda x, y: x + 1j,
     [f"%0 = ckks.add_plain %arg0 {{values = dense<(0.000000e+00,1.000000e+00)> : tensor<8xcomplex<f64>>}} : {t(150)}"], 150),
    ("rotate", lambda x, y: x.rotate(1), [f"%0 = ckks.rotate %arg0 [1] : {t(150)}"], 150),
    # A right rotation is the left rotation by N/2 - r (HEAAN's rightRotateFast).
    ("rotate_right", lambda x, y: fhec.rotate(x, -1), [f"%0 = ckks.rotate %arg0 [511] : {t(150)}"], 150),
    ("rotate_zero", lambda x, y: x.rotate(512) + y, [f"%0 = ckks.add %arg0, %arg1 : {t(150)}"], 150),
    ("conj", lambda x, y: x.conj(), [f"%0 = ckks.conjugate %arg0 : {t(150)}"], 150),
    ("mul_monomial", lambda x, y: x.mul_monomial(512), [f"%0 = ckks.mul_monomial %arg0 {{k = 512 : i64}} : {t(150)}"], 150),
    ("pow", lambda x, y: x ** 3,
     [f"%0 = ckks.mul %arg0, %arg0 : ({t(150)}, {t(150)}) -> {t(150, 60)}",
      f"%1 = ckks.rescale %0 {{round}} : {t(150, 60)} -> {t(120)}",
      f"%2 = ckks.mod_down %arg0 : {t(150)} -> {t(120)}",
      f"%3 = ckks.mul %2, %1 : ({t(120)}, {t(120)}) -> {t(120, 60)}",
      f"%4 = ckks.rescale %3 {{round}} : {t(120, 60)} -> {t(90)}"], 90),
    # Operands at different levels: the higher one is brought down first.
    ("levels", lambda x, y: x * y + x,
     [f"%0 = ckks.mul %arg0, %arg1 : ({t(150)}, {t(150)}) -> {t(150, 60)}",
      f"%1 = ckks.rescale %0 {{round}} : {t(150, 60)} -> {t(120)}",
      f"%2 = ckks.mod_down %arg0 : {t(150)} -> {t(120)}",
      f"%3 = ckks.add %1, %2 : {t(120)}"], 120),
    ("sum", lambda x, y: fhec.sum(x),
     [f"%0 = ckks.rotate %arg0 [1] : {t(150)}", f"%1 = ckks.add %arg0, %0 : {t(150)}",
      f"%2 = ckks.rotate %1 [2] : {t(150)}", f"%3 = ckks.add %1, %2 : {t(150)}",
      f"%4 = ckks.rotate %3 [4] : {t(150)}", f"%5 = ckks.add %3, %4 : {t(150)}"], 150),
    ("dot", lambda x, y: fhec.dot(x, y, 2),
     [f"%0 = ckks.mul %arg0, %arg1 : ({t(150)}, {t(150)}) -> {t(150, 60)}",
      f"%1 = ckks.rescale %0 {{round}} : {t(150, 60)} -> {t(120)}",
      f"%2 = ckks.rotate %1 [1] : {t(120)}", f"%3 = ckks.add %1, %2 : {t(120)}"], 120),
]


@pytest.mark.parametrize("name,fn,expected,logq", CASES, ids=[c[0] for c in CASES])
def test_operator_ir(small, name, fn, expected, logq):
    f = fhec.compile(small, target="cpu", opt_level=0)(lambda x, y: fn(x, y))
    signature, ops, ret = body(f.mlir)
    assert signature == (f"func.func @_lambda_(%arg0: {full(150)}, %arg1: {full(150)}) -> {full(logq)} {{"), signature
    assert ops == expected
    assert ret.startswith(f"return %{len(expected) - 1} : ") if expected else ret


def test_locations_point_at_python_lines(small):
    def f(x, y):
        a = x * y  # the line of the product
        return a + x

    cf = fhec.compile(small, target="cpu", opt_level=0)(f)
    import inspect

    first = inspect.getsourcelines(f)[1]
    text = cf.mlir_with_locations
    # The product, its rescale, the alignment and the sum at their lines; the
    # return at the return statement.
    for line in (first + 1, first + 2):
        assert f'test_trace.py":{line}:' in text, text
    assert "ckks.mul" in text and "ckks.add" in text
    ret = [l for l in text.splitlines() if l.strip().startswith("return")][0]
    alias = ret.split("loc(")[1].rstrip(")")
    assert f'{alias} = loc("' in text and f'test_trace.py":{first + 2}:' in text.split(f"{alias} = loc(")[1].splitlines()[0]


def test_several_results_and_identity(small):
    @fhec.compile(small, target="cpu", opt_level=0)
    def g(x, y):
        return x, x + y

    signature, ops, ret = body(g.mlir)
    assert signature.endswith(f"-> ({full(150)}, {full(150)}) {{")
    assert ops == [f"%0 = ckks.add %arg0, %arg1 : {t(150)}"]
    assert ret == f"return %arg0, %0 : {full(150)}, {full(150)}"


def test_numpy_operations_match_the_trace(small):
    # fhec.rotate/sum/dot run in the clear on NumPy vectors as they are traced.
    v = np.arange(8.0)
    assert np.array_equal(fhec.rotate(v, 1), np.roll(v, -1))
    assert np.array_equal(fhec.sum(v), np.full(8, v.sum()))
    assert np.array_equal(fhec.dot(v, v, 4)[::4], [np.dot(v[:4], v[:4]), np.dot(v[4:], v[4:])])


def test_changed_captured_array_is_not_ignored(small, small_ctx, rng):
    """A traced function compiles in the values of the NumPy arrays it reads;
    changing one afterwards retraces it (with a warning) instead of computing
    with the old values: a global, a closure variable and an operand view."""
    w = rng.uniform(-1, 1, small.slots)
    view_of = {"m": rng.uniform(-1, 1, (2, small.slots))}
    m = view_of["m"]

    @fhec.compile(small, target="cpu")
    def f(x):
        return x * w + m[1]

    x = rng.uniform(-1, 1, small.slots)
    c = small_ctx.encrypt(x)
    assert np.abs(small_ctx.decrypt(f(c)) - (x * w + m[1])).max() < 1e-3
    w[:] = 2 * w  # the closure's array, in place
    with pytest.warns(UserWarning, match="changed after it was traced"):
        out = f(c)
    assert np.abs(small_ctx.decrypt(out) - (x * w + m[1])).max() < 1e-3
    m[1, :3] = 5.0  # through the view the trace used
    with pytest.warns(UserWarning, match="changed after it was traced"):
        out = f(c)
    assert np.abs(small_ctx.decrypt(out) - (x * w + m[1])).max() < 1e-3
    assert np.allclose(f.plain(x), x * w + m[1])


def test_plaintext_arguments(small, small_ctx, rng):
    """fhec.Plain parameters take NumPy vectors at each call: one compilation
    serves any values, the result is the GMP reference's bit for bit."""

    @fhec.compile(small, target="cpu")
    def f(x, w: fhec.Plain, b: fhec.Plain):
        return (x * w + b) - w

    assert "!ckks.pt<logN = 10, slots = 8>" in f.mlir and "ckks.mul_plain %arg0 by %arg1" in f.mlir
    x = rng.uniform(-1, 1, small.slots)
    c = small_ctx.encrypt(x)
    for _ in range(3):
        w, b = rng.uniform(-1, 1, (2, small.slots))
        out = f(c, w, b)
        assert out == f.reference(c, w, b)
        assert np.abs(small_ctx.decrypt(out) - (x * w + b - w)).max() < 1e-3
        assert np.allclose(f.plain(x, w, b), x * w + b - w)
    assert len(f._programs) == 1  # no retrace, no recompilation
    # A scalar repeats; a shorter vector is padded with zeros.
    assert np.abs(small_ctx.decrypt(f(c, 2.0, [1.0])) - (2 * x + np.eye(1, small.slots)[0] - 2)).max() < 1e-3
    with pytest.raises(fhec.ParameterError, match="fhec.Plain.*at most 8 values"):
        f(c, np.zeros(9), 0.0)
    with pytest.raises(fhec.ParameterError, match="pass its values, not a ciphertext"):
        f(c, c, 0.0)
    with pytest.raises(fhec.ParameterError, match="annotate the parameter with fhec.Plain"):
        f(x, x, x)

    with pytest.raises(fhec.TraceError, match="combines with encrypted values only"):
        @fhec.compile(small, target="cpu")
        def g(x, w: fhec.Plain):
            return x + w * w
