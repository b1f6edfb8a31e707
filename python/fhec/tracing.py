"""Tracing: a Python function runs once on Encrypted values, and every
operator on them builds the ckks operation in C++ (frontend/ProgramBuilder.h),
where scale management rescales products and aligns operands as they come
(dialect/CKKS/Transforms/ScaleManager.h). Each operation records the Python line that made it,
so compiler diagnostics point at the user's source.
"""

import numbers
import os
import sys

import numpy as np

from . import _fhec
from .errors import FhecError, ParameterError, TraceError, UnsupportedOperationError

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

# Bootstrapping's defaults (x.bootstrap(), bootstrap="auto"): q0 = 2^(logp +
# 12), so the message keeps 12 bits of headroom below q0 (EvalMod's sine
# error about 2^-21 relative), and a working scale of q0 * 2^8.
BOOTSTRAP_HEADROOM = 12
BOOTSTRAP_EXTRA_SCALE = 8


def user_location():
    """(file, line, column) of the innermost caller outside this package."""
    frame = sys._getframe(1)
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
    if frame is None:
        return ("<unknown>", 0, 0)
    column = 0
    if sys.version_info >= (3, 11):
        positions = list(frame.f_code.co_positions())
        index = frame.f_lasti // 2
        if 0 <= index < len(positions) and positions[index][2] is not None:
            column = positions[index][2] + 1
    return (frame.f_code.co_filename, frame.f_lineno, column)


def _unsupported(symbol, hint=""):
    def method(self, *args):
        raise UnsupportedOperationError(
            f"'{symbol}' is not supported on encrypted values: CKKS offers +, -, *, ** by a positive "
            f"integer, / by a constant, W @ x by a plaintext matrix, rotate(), conj(), mul_monomial() and "
            f"bootstrap(){hint}")

    method.__name__ = f"unsupported {symbol}"
    return method


class Encrypted:
    """An encrypted vector inside a traced function (the value of one ckks
    operation). Operators: + - * with other Encrypted values of the same trace,
    with Python or NumPy scalars, and with NumPy vectors of one value per slot
    (plaintexts); unary -; ** by a positive integer; / by a scalar constant;
    W @ x by a NumPy matrix (ckks.linear_transform); rotate(k) (slot j takes
    slot j + k; negative k rotates right), conj(), mul_monomial(k) and
    bootstrap().

    slots, logq and logp give its current shape (levels and scales are
    managed automatically).
    """

    __slots__ = ("_trace", "_handle")
    __array_ufunc__ = None  # NumPy defers to the reflected operators below

    def __init__(self, trace, handle):
        self._trace = trace
        self._handle = handle

    @property
    def shape(self):
        """(logq, logp, slots)."""
        return tuple(self._trace.builder.shape(self._handle))

    logq = property(lambda self: self.shape[0], doc="bits of the modulus left")
    logp = property(lambda self: self.shape[1], doc="bits of the scale")
    slots = property(lambda self: self.shape[2], doc="number of slots")

    def __add__(self, other):
        return self._trace.binary("add", self, other)

    def __radd__(self, other):
        return self._trace.binary("add", self, other)

    def __sub__(self, other):
        return self._trace.binary("sub", self, other)

    def __rsub__(self, other):
        return self._trace.binary("add", -self, other)

    def __mul__(self, other):
        return self._trace.binary("mul", self, other)

    def __rmul__(self, other):
        return self._trace.binary("mul", self, other)

    def __neg__(self):
        return self._trace.emit("negate", self._handle)

    def __pos__(self):
        return self

    def __truediv__(self, other):
        if isinstance(other, numbers.Number) and not isinstance(other, bool) and other != 0:
            return self._trace.binary("mul", self, 1 / other)
        raise UnsupportedOperationError(
            "'/' is supported only by a nonzero constant: CKKS has no division of encrypted values "
            "(approximate 1/x with a polynomial instead)")

    def __pow__(self, exponent):
        if not isinstance(exponent, numbers.Integral) or isinstance(exponent, bool) or exponent < 1:
            raise UnsupportedOperationError(f"'**' needs a positive integer exponent, got {exponent!r}")
        # Square and multiply: depth ceil(log2(exponent)).
        result, base, e = None, self, int(exponent)
        while e:
            if e & 1:
                result = base if result is None else result * base
            e >>= 1
            if e:
                base = base * base
        return result

    def rotate(self, k):
        """Left rotation by k slots (slot j takes slot j + k); negative k rotates right.
        A list of offsets gives the list of rotations, from one ckks.rotate:
        they share one decomposition of the ciphertext (CRT and NTT of ax,
        fhe-hoist-automorphisms), each then costing its key switch's
        products only. Raises TraceError for anything but an integer or a
        non-empty list of integers."""
        offsets = list(k) if isinstance(k, (list, tuple)) else [k]
        if not offsets or any(not isinstance(r, numbers.Integral) or isinstance(r, bool) for r in offsets):
            raise TraceError(f"rotate() takes an integer number of slots or a non-empty list of them, got {k!r}")
        trace = self._trace
        handles = trace.builder.rotate(self._handle, [int(r) for r in offsets], user_location())
        rotated = [Encrypted(trace, h) for h in handles]
        return rotated if isinstance(k, (list, tuple)) else rotated[0]

    def conj(self):
        """Slot-wise complex conjugation."""
        return self._trace.emit("conjugate", self._handle)

    def mul_monomial(self, k):
        """The ciphertext times the monomial X^k (ckks.mul_monomial, HEAAN's
        multByMonomial): slot j times e^(i pi k 5^j / N), no key and no level;
        k = N/2 multiplies every slot by i. Raises TraceError for a k that is
        not an integer, CompileError for one outside [0, 2N) or not a multiple
        of N / (2 slots)."""
        if not isinstance(k, numbers.Integral) or isinstance(k, bool):
            raise TraceError(f"mul_monomial() takes an integer exponent, got {k!r}")
        return self._trace.emit("mul_monomial", self._handle, int(k))

    def bootstrap(self, mod_logq=None, log_scale=None, level_budget=None):
        """A fresh modulus for the ciphertext (ckks.bootstrap; HEAAN's
        bootstrapping with Han-Ki's EvalMod, docs/bootstrapping.md): the
        same slot values at the level bootstrapping leaves below logQ.
        mod_logq: bits of q0, the modulus it is raised from (default logp +
        12: the message's headroom below q0 sets EvalMod's precision);
        log_scale: bits of its working scale (default mod_logq + 8);
        level_budget: (CoeffToSlot levels, SlotToCoeff levels) of the
        factored transforms (Chen-Chillotti-Song; default: one dense level
        each up to 32 slots, (3, 3) beyond). Its rotation keys come
        with the function's (ctx.keys_for). Raises TraceError for
        non-integer arguments, CompileError for a q0 outside (2^logp, 2^logq]
        or a level budget outside [1, log2 slots], DepthError when logQ
        leaves too few levels."""
        for name, v in (("mod_logq", mod_logq), ("log_scale", log_scale)):
            if v is not None and (not isinstance(v, numbers.Integral) or isinstance(v, bool) or v < 1):
                raise TraceError(f"bootstrap() takes a positive integer {name}, got {v!r}")
        budget = ()
        if level_budget is not None:
            budget = tuple(level_budget) if isinstance(level_budget, (tuple, list)) else None
            if budget is None or len(budget) != 2 or not all(
                    isinstance(v, numbers.Integral) and not isinstance(v, bool) and v >= 1 for v in budget):
                raise TraceError(f"bootstrap() takes level_budget as two positive integers, got {level_budget!r}")
        q0 = int(mod_logq) if mod_logq is not None else self.logp + BOOTSTRAP_HEADROOM
        scale = int(log_scale) if log_scale is not None else q0 + BOOTSTRAP_EXTRA_SCALE
        return self._trace.emit("bootstrap", self._handle, q0, scale, [int(v) for v in budget])

    def __bool__(self):
        raise TraceError(
            "an encrypted value has no truth value: Python control flow (if, while, and, or, not) cannot "
            "depend on encrypted data, which the compiled program never sees in the clear; compute both "
            "branches and combine them arithmetically")

    def __iter__(self):
        raise TraceError("an encrypted vector cannot be iterated over: its slots are not visible while tracing; "
                         "use rotate() and plaintext masks to move and select slots")

    def __getitem__(self, index):
        raise UnsupportedOperationError("indexing the slots of an encrypted vector is not supported: multiply "
                                        "by a 0/1 plaintext mask (and rotate) to select slots")

    def __int__(self):
        raise TraceError("an encrypted value cannot become a Python number while tracing")

    __float__ = __complex__ = __index__ = __int__

    __floordiv__ = __rfloordiv__ = _unsupported("//")
    __mod__ = __rmod__ = _unsupported("%")
    __rtruediv__ = _unsupported("/", " (a constant divided by an encrypted value needs a polynomial "
                                     "approximation of 1/x)")
    __rpow__ = _unsupported("**")
    __matmul__ = _unsupported("@", "; put the plaintext matrix on the left: W @ x")

    def __rmatmul__(self, matrix):
        """W @ x for a plaintext matrix W (NumPy, m x n with m, n <= slots),
        on every block of B slots of x, B the smallest power of two >= max(m,
        n): block k's first n slots are a vector v_k (its other slots are
        never read), and the result's block k holds W v_k in its first m
        slots and zeros after. A single vector in x's first n slots (zeros
        elsewhere) is the case of one block; slots / B vectors per ciphertext
        are multiplied at once. ckks.linear_transform of the block-diagonal
        matrix's nonzero diagonals by baby-step giant-step, one level."""
        return self._trace.matmul(matrix, self)
    __and__ = __rand__ = _unsupported("&")
    __or__ = __ror__ = _unsupported("|")
    __xor__ = __rxor__ = _unsupported("^")
    __lshift__ = __rlshift__ = _unsupported("<<")
    __rshift__ = __rrshift__ = _unsupported(">>")
    __invert__ = _unsupported("~")
    __abs__ = _unsupported("abs()")
    __lt__ = _unsupported("<", "; comparisons need a polynomial approximation of the sign function")
    __le__ = _unsupported("<=", "; comparisons need a polynomial approximation of the sign function")
    __gt__ = _unsupported(">", "; comparisons need a polynomial approximation of the sign function")
    __ge__ = _unsupported(">=", "; comparisons need a polynomial approximation of the sign function")
    __eq__ = _unsupported("==", "; comparisons need a polynomial approximation of the sign function")
    __ne__ = _unsupported("!=", "; comparisons need a polynomial approximation of the sign function")
    __hash__ = object.__hash__

    def __repr__(self):
        logq, logp, slots = self.shape
        return f"<fhec.Encrypted logq={logq} logp={logp} slots={slots} (traced)>"


class Plain:
    """Annotation of a parameter that is a plaintext vector given when the
    compiled function is called (not a constant frozen at trace time):

        @fhec.compile(params)
        def f(x, w: fhec.Plain):
            return x * w + 1.0

        f(ctx.encrypt(a), np.array([...]))     # any w, no recompilation

    Inside the function it combines with encrypted values by +, - and *; the
    runtime encodes it at each use's scale and level on every call.
    """


class PlainArgument:
    """A plaintext argument inside a traced function (see fhec.Plain)."""

    __slots__ = ("_trace", "_handle", "slots")
    __array_ufunc__ = None

    def __init__(self, trace, handle, slots):
        self._trace, self._handle, self.slots = trace, handle, slots

    def _only_encrypted(self, other):
        if not isinstance(other, Encrypted):
            raise TraceError("a plaintext argument combines with encrypted values only (+, -, *): compute with "
                             "its values before the call and pass the result")

    def __mul__(self, other):
        self._only_encrypted(other)
        return other * self

    __rmul__ = __mul__

    def __add__(self, other):
        self._only_encrypted(other)
        return other + self

    __radd__ = __add__

    def __sub__(self, other):
        self._only_encrypted(other)
        return (-other) + self

    def __rsub__(self, other):
        self._only_encrypted(other)
        return other - self

    def __repr__(self):
        return f"<fhec.Plain argument, {self.slots} slots (traced)>"


def matrix_diagonals(matrix, slots):
    """(offsets, diagonals) of W @ x for a matrix W (m x n, m, n <= slots):
    x's slots are blocks of B slots, B the smallest power of two >= max(m, n),
    each a vector that W multiplies (the block-diagonal matrix with W, padded
    to B x B, in every block). Diagonal d holds M[j, (j + d) mod slots] at slot
    j; only diagonals with a nonzero entry are kept (Halevi–Shoup).
    ParameterError for a matrix that is not 2-D, finite, at most slots x slots."""
    w = np.asarray(matrix)
    if w.dtype == object or not (np.issubdtype(w.dtype, np.number) or w.dtype == bool):
        raise UnsupportedOperationError(f"cannot multiply an encrypted vector by {type(matrix).__name__}")
    if w.ndim != 2 or w.shape[0] > slots or w.shape[1] > slots or 0 in w.shape:
        raise ParameterError(f"W @ x needs a matrix of at most {slots} x {slots} (the slots), got shape {w.shape}")
    if not np.all(np.isfinite(w)):
        raise ParameterError("the matrix must be finite")
    m, n = w.shape
    block = 1 << (max(m, n) - 1).bit_length()
    pad = np.zeros((block, block), dtype=np.complex128)
    pad[:m, :n] = w
    rows = np.arange(block)
    found = {}
    for d in range(-(block - 1), block):
        cols = rows + d
        keep = (cols >= 0) & (cols < block)
        values = np.zeros(block, dtype=np.complex128)
        values[rows[keep]] = pad[rows[keep], cols[keep]]
        # With one block (block = slots), d and d - slots are one diagonal.
        found[d % slots] = found.get(d % slots, 0) + np.tile(values, slots // block)
    offsets = [d for d in sorted(found) if np.any(found[d] != 0)]
    return offsets, np.array([found[d] for d in offsets]).reshape(len(offsets), slots)


class Trace:
    """One traced function: the builder of its program and its values."""

    def __init__(self, params, name, shapes, location, auto_bootstrap=False):
        """shapes: (logq, logp, slots) of each ciphertext argument, or (0, 0,
        slots) for a plaintext argument. auto_bootstrap: place bootstraps
        (x.bootstrap()'s defaults) where a product would go below q0."""
        self.params = params
        keyswitch = "" if params.keyswitch == "centered" else params.keyswitch  # the default stays implicit
        self.builder = _fhec.ProgramBuilder(params._cpp, params.security, keyswitch, name,
                                            [tuple(s) for s in shapes], location)
        if auto_bootstrap:
            q0 = params.logp + BOOTSTRAP_HEADROOM
            self.builder.auto_bootstrap(q0, q0 + BOOTSTRAP_EXTRA_SCALE)
        self.inputs = [PlainArgument(self, self.builder.input(i), s[2]) if s[0] == 0 else
                       Encrypted(self, self.builder.input(i)) for i, s in enumerate(shapes)]
        # The NumPy arrays whose values the trace compiled in (plaintext
        # operands), with a copy of each: a later change makes it stale.
        self.captured = []

    def emit(self, op, *args):
        return Encrypted(self, getattr(self.builder, op)(*args, user_location()))

    def _plaintext(self, value, slots):
        """A NumPy vector of one value per slot (complex128), or ParameterError."""
        v = np.asarray(value)
        if v.dtype == object or not (np.issubdtype(v.dtype, np.number) or v.dtype == bool):
            raise UnsupportedOperationError(f"cannot combine an encrypted value with {type(value).__name__}")
        if v.ndim != 1 or v.size != slots:
            raise ParameterError(f"a plaintext operand must be a vector of {slots} values (one per slot), "
                                 f"got shape {v.shape}")
        if not np.all(np.isfinite(v)):
            raise ParameterError("a plaintext operand must be finite")
        return v.astype(np.complex128)

    def binary(self, op, x, other):
        """x op other for an Encrypted x and an Encrypted value, a plaintext
        argument, a scalar or a vector."""
        if isinstance(other, PlainArgument):
            if other._trace is not self:
                raise ParameterError("the operands come from different traced functions (or parameter sets)")
            if op == "mul":
                return self.emit("mul_plain_arg", x._handle, other._handle)
            return self.emit("add_plain_arg", x._handle, other._handle, op == "sub")
        if isinstance(other, Encrypted):
            if other._trace is not self:
                raise ParameterError("the operands come from different traced functions (or parameter sets)")
            return self.emit(op, x._handle, other._handle)
        if isinstance(other, numbers.Number) or (isinstance(other, np.ndarray) and other.ndim == 0):
            c = complex(other)
            if not np.isfinite(c):
                raise ParameterError(f"a constant operand must be finite, got {other!r}")
            if c.imag == 0:
                c = c.real
                if op == "mul":
                    return self.emit("mul_const", x._handle, c)
                return self.emit("add_const", x._handle, -c if op == "sub" else c)
            other = np.full(x.slots, c)
        if isinstance(other, (np.ndarray, list, tuple)):
            v = self._plaintext(other, x.slots)
            if isinstance(other, np.ndarray):
                self.captured.append((other, other.copy()))
            if op == "mul":
                return self.emit("mul_plain", x._handle, v)
            return self.emit("add_plain", x._handle, -v if op == "sub" else v)
        from .context import Ciphertext

        if isinstance(other, Ciphertext):
            raise TraceError("a Ciphertext cannot enter a traced function except as one of its arguments")
        raise UnsupportedOperationError(f"cannot combine an encrypted value with {type(other).__name__}")

    def matmul(self, matrix, x):
        offsets, diagonals = matrix_diagonals(matrix, x.slots)
        if not offsets:
            raise ParameterError("the matrix is zero: W @ x would be a zero vector, which needs no encryption")
        return self.emit("linear_transform", x._handle, offsets, diagonals)

    def finish(self, result, location):
        outputs = result if isinstance(result, (tuple, list)) else (result,)
        handles = []
        for r in outputs:
            if not isinstance(r, Encrypted):
                raise TraceError(f"a compiled function must return encrypted values (or a tuple of them), "
                                 f"got {type(r).__name__}")
            if r._trace is not self:
                raise ParameterError("the function returns a value of another traced function")
            handles.append(r._handle)
        return self.builder.finish(handles, location)


__all__ = ["Encrypted", "Plain", "PlainArgument", "Trace", "FhecError", "user_location"]
