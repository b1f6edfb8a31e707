"""Keys, encryption and decryption: the client side of fhec."""

import numpy as np

from . import _fhec
from .errors import ParameterError, TraceError
from .params import Params


class Ciphertext:
    """An encrypted vector of `slots` complex numbers at scale 2^logp, mod 2^logq.

    Made by Context.encrypt or returned by a compiled function; decrypted by
    the Context that holds its secret key. Arithmetic on ciphertexts happens
    inside functions compiled with @fhec.compile.
    """

    __slots__ = ("_ct", "_context", "__weakref__")
    __array_ufunc__ = None  # NumPy defers to the operators below (which refuse)

    def __init__(self, ct, context):
        self._ct = ct
        self._context = context

    context = property(lambda self: self._context, doc="the Context whose keys it belongs to")
    logq = property(lambda self: self._ct.logq, doc="bits of its modulus")
    logp = property(lambda self: self._ct.logp, doc="bits of its scale")
    slots = property(lambda self: self._ct.slots, doc="number of complex slots")

    @property
    def shape(self):
        """(logq, logp, slots), what a compiled function is specialized to."""
        return (self.logq, self.logp, self.slots)

    def to_bytes(self):
        """fhec's versioned serialization (runtime/include/fhec/runtime/Serialize.h)."""
        return self._ct.to_bytes(self._context.params._cpp)

    def __eq__(self, other):
        """Bit-for-bit equality of the polynomials and the shape."""
        if not isinstance(other, Ciphertext):
            return NotImplemented
        return self._ct == other._ct

    __hash__ = object.__hash__

    def _eager(self, *args):
        raise TraceError("operations on ciphertexts run inside compiled functions: put them in a function "
                         "decorated with @fhec.compile(params) and call it on the ciphertexts")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __neg__ = __truediv__ = _eager

    def __repr__(self):
        return f"<fhec.Ciphertext logq={self.logq} logp={self.logp} slots={self.slots}>"


class Context:
    """The keys of one key generation for `params`: a secret key (HWT(h)), the
    public and evaluation keys, and rotation keys made when a compiled function
    first needs them. All randomness comes from the kernel CSPRNG.

    encrypt() and decrypt() convert NumPy vectors; compiled functions take the
    context's keys from their ciphertext arguments.
    """

    def __init__(self, params):
        if not isinstance(params, Params):
            raise ParameterError("Context needs an fhec.Params")
        self.params = params
        self._keys = _fhec.KeySet(params._cpp)

    @property
    def key_set(self):
        """The 128-bit id (hex) that every key and ciphertext of this context carries."""
        return self._keys.key_set

    def encrypt(self, values, logq=None, logp=None):
        """Encrypts a vector of at most `slots` real or complex numbers (shorter
        vectors are padded with zeros) at scale 2^logp (default: the params')
        mod 2^logq (default: logQ, a fresh ciphertext). Returns a Ciphertext.

        Raises ParameterError for a vector that is too long, not 1-D or not finite.
        """
        v = np.asarray(values)
        if v.ndim == 0:
            v = np.full(self.params.slots, v)
        if v.ndim != 1:
            raise ParameterError(f"encrypt takes a 1-D vector, got an array of shape {v.shape}")
        if v.size > self.params.slots:
            raise ParameterError(f"a vector of {v.size} values does not fit {self.params.slots} slots")
        z = np.zeros(self.params.slots, dtype=np.complex128)
        z[: v.size] = v
        if not np.all(np.isfinite(z)):
            raise ParameterError("encrypt: the values must be finite")
        logq = self.params.logQ if logq is None else int(logq)
        logp = self.params.logp if logp is None else int(logp)
        return Ciphertext(_fhec.encrypt(self._keys, z, logp, logq), self)

    def decrypt(self, ciphertext, complex=False):
        """The slots of a ciphertext of this context: a float64 vector of their
        real parts, or complex128 with complex=True. Raises FhecError for a
        ciphertext of another key set."""
        if not isinstance(ciphertext, Ciphertext):
            raise ParameterError(f"decrypt takes an fhec.Ciphertext, got {type(ciphertext).__name__}")
        z = _fhec.decrypt(self._keys, ciphertext._ct)
        return z if complex else z.real.copy()

    def from_bytes(self, data):
        """A Ciphertext read back from to_bytes() (checked against these parameters)."""
        return Ciphertext(_fhec.Ciphertext.from_bytes(data, self.params._cpp), self)

    def add_rotation_keys(self, galois_elements):
        """Makes the rotation keys of these Galois elements (those not made yet)."""
        for g in galois_elements:
            self._keys.add_rotation_key(int(g))

    def save(self, directory, secret=True):
        """Writes the keys as `fhec run --save` does (sk.bin mode 0600 unless secret=False)."""
        self._keys.save(str(directory), bool(secret))

    def __repr__(self):
        return f"<fhec.Context {self.params!r} key set {self.key_set}>"
