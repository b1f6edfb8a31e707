"""Slot-vector operations that work on traced encrypted values and on NumPy
vectors alike, so a function can be run in the clear for comparison."""

import builtins
import numbers

import numpy as np

from .errors import ParameterError, TraceError
from .tracing import Encrypted


def rotate(x, k):
    """Slot j takes slot j + k (left rotation; negative k rotates right).
    Encrypted: x.rotate(k); NumPy: np.roll(x, -k). A list of offsets gives
    the list of rotations (hoisted when encrypted)."""
    if isinstance(x, Encrypted):
        return x.rotate(k)
    if isinstance(k, (list, tuple)):
        return [rotate(x, r) for r in k]
    return np.roll(np.asarray(x), -int(k))


def conj(x):
    """Slot-wise complex conjugation."""
    if isinstance(x, Encrypted):
        return x.conj()
    return np.conj(np.asarray(x))


def _window(x, n):
    slots = x.slots if isinstance(x, Encrypted) else np.asarray(x).size
    n = slots if n is None else n
    if not isinstance(n, numbers.Integral) or n < 1 or n > slots or n & (n - 1):
        raise ParameterError(f"the window n={n!r} must be a power of two between 1 and the {slots} slots")
    return int(n)


def sum(x, n=None):
    """Sums windows of n slots (a power of two; default all of them) by
    log2(n) rotations: slot j becomes x[j] + x[j+1] + ... + x[j+n-1] (indices
    mod slots), so slot k n holds the sum of window k and, with n = slots,
    every slot holds the total."""
    if not isinstance(x, (Encrypted, np.ndarray, list, tuple)):
        raise TraceError(f"fhec.sum takes an encrypted value or a vector, got {type(x).__name__}")
    n = _window(x, n)
    s = x if isinstance(x, Encrypted) else np.asarray(x)
    k = 1
    while k < n:
        s = s + rotate(s, k)
        k *= 2
    return s


def dot(x, w, n=None):
    """Inner products of windows of n slots of x and w (plaintext vector of
    one value per slot, or another encrypted value): fhec.sum(x * w, n)."""
    return sum(x * w, n)


builtins_sum = builtins.sum


def _polynomial(coeffs, basis, domain):
    c = np.asarray(coeffs, dtype=float)
    if c.ndim != 1 or c.size < 2:
        raise ParameterError(f"coefficients must be a vector of at least 2 numbers (lowest degree first), got "
                             f"shape {c.shape}")
    if basis not in ("power", "chebyshev"):
        raise ParameterError(f"basis must be 'power' or 'chebyshev', got {basis!r}")
    try:
        a, b = (float(v) for v in domain)
    except (TypeError, ValueError):
        raise ParameterError(f"domain must be a pair (a, b), got {domain!r}") from None
    if not (np.isfinite(a) and np.isfinite(b) and a < b):
        raise ParameterError(f"domain must be finite with a < b, got {domain!r}")
    return c, a, b


def polyval(x, coeffs, basis="power", domain=(-1.0, 1.0)):
    """The polynomial of `coeffs` (lowest degree first, as numpy.polynomial)
    applied slot-wise: sum_i c_i x^i (basis="power") or sum_i c_i T_i(t),
    t = (2x - a - b) / (b - a) (basis="chebyshev", numpy's Chebyshev series
    with domain=(a, b)). The slots are expected in `domain` = (a, b).

    Encrypted x: ckks.poly_eval's baby-step giant-step evaluation (Bossuat et
    al. 2021, Algo. 2; docs/ckks.md): depth ceil(log2(d + 1)), plus one level
    unless domain = (-1, 1), and about 2 sqrt(d) + log2 d products of
    ciphertexts. NumPy x: numpy.polynomial's value.

    Raises ParameterError (bad coefficients, basis or domain) or DepthError.
    """
    c, a, b = _polynomial(coeffs, basis, domain)
    if isinstance(x, Encrypted):
        return x._trace.emit("poly_eval", x._handle, [float(v) for v in c], basis, a, b)
    v = np.asarray(x)
    if basis == "power":
        return np.polynomial.polynomial.polyval(v, c)
    return np.polynomial.chebyshev.chebval((2 * v - a - b) / (b - a), c)


def approx(fn, x, domain, degree):
    """fn approximated on `domain` = (a, b) by its Chebyshev interpolant of
    `degree` (numpy's Chebyshev.interpolate, at the Chebyshev points of the
    first kind), applied to x by polyval(..., basis="chebyshev"). fn takes and
    returns NumPy arrays (np.tanh, lambda v: 1 / (1 + np.exp(-v)), ...).
    For an analytic fn the error falls geometrically with the degree.

    Raises ParameterError (bad domain or degree) or DepthError.
    """
    if not isinstance(degree, numbers.Integral) or isinstance(degree, bool) or degree < 1:
        raise ParameterError(f"degree must be a positive integer, got {degree!r}")
    _, a, b = _polynomial([0.0, 1.0], "chebyshev", domain)
    coeffs = np.polynomial.chebyshev.Chebyshev.interpolate(fn, int(degree), domain=[a, b]).coef
    return polyval(x, coeffs, basis="chebyshev", domain=(a, b))


def linear_transform(x, diagonals):
    """sum_d diagonals[d] * rotate(x, d): the product of x with the matrix whose
    generalized diagonal d (M[j][(j + d) mod slots]) is the vector
    diagonals[d] (Halevi–Shoup packing), for a dict {offset: vector of one
    value per slot}. This is the form for matrices too large to write out
    (W @ x builds it from a NumPy matrix). Encrypted x: ckks.linear_transform
    by baby-step giant-step (about 2 sqrt(#diagonals) rotations, the baby
    steps hoisted), one level. NumPy x: the same sum.

    Raises ParameterError (no diagonals, offsets out of [0, slots), vectors
    of another length).
    """
    if not isinstance(diagonals, dict) or not diagonals:
        raise ParameterError("diagonals must be a non-empty dict {offset: vector of one value per slot}")
    slots = x.slots if isinstance(x, Encrypted) else np.asarray(x).size
    offsets = sorted(diagonals)
    rows = []
    for d in offsets:
        if not isinstance(d, numbers.Integral) or not 0 <= d < slots:
            raise ParameterError(f"offset {d!r} must be an integer in [0, {slots})")
        v = np.asarray(diagonals[d], dtype=np.complex128)
        if v.shape != (slots,):
            raise ParameterError(f"diagonal {d} must have {slots} values, got shape {v.shape}")
        if not np.all(np.isfinite(v)):
            raise ParameterError(f"diagonal {d} must be finite")
        rows.append(v)
    if isinstance(x, Encrypted):
        return x._trace.emit("linear_transform", x._handle, [int(d) for d in offsets], np.array(rows))
    v = np.asarray(x)
    return builtins_sum(r * np.roll(v, -d) for d, r in zip(offsets, rows))
