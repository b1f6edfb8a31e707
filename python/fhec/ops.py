"""Slot-vector operations that work on traced encrypted values and on NumPy
vectors alike, so a function can be run in the clear for comparison."""

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
