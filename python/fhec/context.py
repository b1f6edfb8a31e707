"""Keys, encryption and decryption: the client side of fhec."""

import os
import struct

import numpy as np

from . import _fhec
from .errors import MissingKeyError, ParameterError, TraceError
from .params import Params


class Ciphertext:
    """An encrypted vector of `slots` complex numbers at scale 2^logp, mod 2^logq.

    Made by Context.encrypt or returned by a compiled function; decrypted by
    the Context that holds its secret key. to_bytes()/save() serialize it;
    Context.ciphertext_from_bytes/load_ciphertext read it back. Arithmetic on ciphertexts happens
    inside functions compiled with @fhec.compile.

    A function compiled for a GPU target ("cuda", "cuda-emu") returns its
    ciphertexts in the device's memory (`device` names it), where the next
    such call reads them without a copy; it is copied to the host once, when
    first needed there: to decrypt, serialize or compare it, or to run a
    function of another target on it. to_device() copies a ciphertext there
    ahead of the calls.
    """

    __slots__ = ("_host", "_device", "_context", "__weakref__")
    __array_ufunc__ = None  # NumPy defers to the operators below (which refuse)

    def __init__(self, ct, context):
        on_device = isinstance(ct, _fhec.DeviceCiphertext)
        self._host = None if on_device else ct
        self._device = ct if on_device else None
        self._context = context

    @property
    def _ct(self):
        """Its words in host memory (copied from the device the first time)."""
        if self._host is None:
            self._host = self._device.download()
        return self._host

    def _any(self):
        return self._host if self._host is not None else self._device

    context = property(lambda self: self._context, doc="the Context whose keys it belongs to")
    logq = property(lambda self: self._any().logq, doc="bits of its modulus")
    logp = property(lambda self: self._any().logp, doc="bits of its scale")
    slots = property(lambda self: self._any().slots, doc="number of complex slots")
    device = property(lambda self: None if self._device is None else self._device.device,
                      doc="the device whose memory holds it ('cuda', 'cuda-emu'), or None: host memory only")

    def to_device(self, device):
        """This ciphertext in the memory of `device` ('cuda' or 'cuda-emu'),
        copied there now (itself, if it is there already)."""
        if self._device is not None and self._device.device == device:
            return self
        return Ciphertext(_fhec.DeviceCiphertext.upload(self._ct, device), self._context)

    @property
    def shape(self):
        """(logq, logp, slots), what a compiled function is specialized to."""
        return (self.logq, self.logp, self.slots)

    def to_bytes(self):
        """fhec's versioned serialization (runtime/include/fhec/runtime/Serialize.h)."""
        return self._ct.to_bytes(self._context.params._cpp)

    def save(self, path):
        """Writes to_bytes() to a file (Context.load_ciphertext reads it)."""
        _fhec.write_file(os.fspath(path), self.to_bytes())

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
    """The keys of one key generation that this party holds, for `params`.

    A full context (made by Context(params), or loaded with its secret key)
    holds the secret key (HWT(h)), the public key, the evaluation
    (relinearization) key and rotation keys; it encrypts, decrypts and makes
    rotation keys. The client/server split:

        client = fhec.Context(params)            # all keys (CSPRNG)
        client.keys_for(f)                       # f's rotation keys, ahead of time
        client.save("keys/")                     # params, pk, evk, rotation keys; no sk
        server = fhec.Context.load("keys/")      # runs f, cannot decrypt
        client.public()                          # encrypts only (public key)

    Key generation, encryption and decryption run through the client kernels
    (CRT, NTT, Hadamard, iNTT, iCRT compiled for `target`, a CPU target:
    fhec/runtime/Client.h), bit-identical to the GMP reference, which
    reference=True uses instead. `threads`: threads of those kernels
    (default: all cores).

    Raises ParameterError for bad arguments, MissingKeyError when an
    operation needs a key this context lacks, FhecError for files or
    objects of another parameter set or key set.
    """

    def __init__(self, params, target="auto", threads=None, reference=False, _keys=None):
        if not isinstance(params, Params):
            raise ParameterError("Context needs an fhec.Params")
        params.require_security()
        self.params = params
        self._kernels = None if reference else _fhec.client_kernels(params._cpp, target)
        if self._kernels is not None and threads is not None:
            self._kernels.set_threads(int(threads))
        self._keys = _keys if _keys is not None else _fhec.KeySet(params._cpp, self._kernels)

    def _derived(self, keys):
        c = Context.__new__(Context)
        c.params, c._kernels, c._keys = self.params, self._kernels, keys
        return c

    @property
    def key_set(self):
        """The 128-bit id (hex) that every key and ciphertext of this context carries."""
        return self._keys.key_set

    has_secret_key = property(lambda self: self._keys.has_secret_key, doc="whether it can decrypt")
    has_public_key = property(lambda self: self._keys.has_public_key, doc="whether it can encrypt")
    has_evaluation_key = property(lambda self: self._keys.has_evaluation_key,
                                  doc="whether it can run products (relinearization)")
    galois_elements = property(lambda self: list(self._keys.galois_elements),
                               doc="Galois elements of the rotation keys it holds")

    def _need(self, what, has, hint):
        if not has:
            raise MissingKeyError(f"this Context has no {what} (key set {self.key_set}): {hint}")

    def encrypt(self, values, logq=None, logp=None):
        """Encrypts a vector of at most `slots` real or complex numbers (shorter
        vectors are padded with zeros) at scale 2^logp (default: the params')
        mod 2^logq (default: logQ, a fresh ciphertext). Returns a Ciphertext.

        Raises ParameterError for a vector that is too long, not 1-D or not
        finite; MissingKeyError without a public key.
        """
        self._need("public key", self.has_public_key, "encryption needs the key owner's public key "
                   "(Context.public() or Context.load of its pk.bin)")
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
        return Ciphertext(_fhec.encrypt(self._keys, z, logp, logq, self._kernels), self)

    def decrypt(self, ciphertext, complex=False):
        """The slots of a ciphertext of this context: a float64 vector of their
        real parts, or complex128 with complex=True. Raises MissingKeyError
        without the secret key, FhecError for a ciphertext of another key set."""
        if not isinstance(ciphertext, Ciphertext):
            raise ParameterError(f"decrypt takes an fhec.Ciphertext, got {type(ciphertext).__name__}")
        self._need("secret key", self.has_secret_key, "only the key owner decrypts; send the ciphertext "
                   "(Ciphertext.to_bytes / save) to the Context that generated the keys")
        z = _fhec.decrypt(self._keys, ciphertext._ct, self._kernels)
        return z if complex else z.real.copy()

    def ciphertext_from_bytes(self, data):
        """A Ciphertext read back from to_bytes() (bytes, or any contiguous
        buffer such as a NumPy uint8 array, read without a copy), checked
        against these parameters (its key set is checked when it is used)."""
        if not isinstance(data, (bytes, bytearray, memoryview, np.ndarray)):
            data = bytes(data)
        return Ciphertext(_fhec.Ciphertext.from_bytes(data, self.params._cpp), self)

    def load_ciphertext(self, path):
        """A Ciphertext read from a file Ciphertext.save wrote."""
        with open(path, "rb") as f:
            return self.ciphertext_from_bytes(f.read())

    def add_rotation_keys(self, galois_elements):
        """Makes the rotation keys of these Galois elements (those not made yet);
        MissingKeyError if one is missing and there is no secret key."""
        self._add_missing_keys(galois_elements, self._keys.galois_elements, self._keys.add_rotation_key,
                               "the rotation keys of Galois elements {}")

    def add_encapsulation_keys(self, moduli):
        """Makes the sparse-secret encapsulation keys of bootstrapping (a dense
        secret) for ciphertexts at q0 = 2^q for each q in `moduli` (those not
        made yet); MissingKeyError if one is missing and there is no secret key."""
        self._add_missing_keys(moduli, self._keys.encapsulation_moduli, self._keys.add_encapsulation_key,
                               "the encapsulation keys of bootstrapping at q0 = 2^{}")

    def _add_missing_keys(self, wanted, have, make, what):
        """Makes the keys of `wanted` not in `have` with make(id, kernels); `what`
        names them in the MissingKeyError raised when there is no secret key."""
        missing = [int(x) for x in wanted if int(x) not in have]
        if missing and not self.has_secret_key:
            raise MissingKeyError(f"this Context (key set {self.key_set}) lacks {what.format(missing)} and has no "
                                  "secret key to make them: the key owner makes them ahead of time with "
                                  "Context.keys_for(f) and sends them")
        for x in missing:
            make(x, self._kernels)

    def _add_keys_for(self, program):
        """The rotation and encapsulation keys a compiled program needs."""
        self.add_rotation_keys(program.galois_elements)
        self.add_encapsulation_keys(program.encapsulation_moduli)

    def keys_for(self, *functions):
        """Makes the rotation keys and the encapsulation keys of bootstrapping
        that these compiled functions need (ahead of time, so that a Context
        without the secret key can run them); returns their Galois elements.
        MissingKeyError without the secret key."""
        needed = sorted({int(g) for f in functions for g in f.galois_elements})
        moduli = sorted({int(q) for f in functions for q in f.encapsulation_moduli})
        missing = [g for g in needed if g not in self.galois_elements]
        missing_ek = [q for q in moduli if q not in self._keys.encapsulation_moduli]
        if missing or missing_ek:
            what = " and ".join(n for n, m in (("rotation", missing), ("encapsulation", missing_ek)) if m)
            self._need("secret key", self.has_secret_key, f"{what} keys are made by the key owner")
        self.add_rotation_keys(missing)
        self.add_encapsulation_keys(missing_ek)
        return needed

    def key_sizes(self):
        """Bytes of each public key this context holds, as serialized (what a
        server receives, Context.evaluation().save()): {"pk": n, "evk": n,
        "rotation": {galois element: n}, "encapsulation": {q0 bits: n},
        "total": n}; the secret key is left out. Absent keys are left out too."""
        sizes = {"rotation": {}, "encapsulation": {}}
        for name, data, secret in self._parts(secret=False):
            if name == "params.bin":
                continue
            if name.startswith("rk"):
                sizes["rotation"][int(name[2:-4])] = len(data)
            elif name.startswith("ek"):
                sizes["encapsulation"][int(name[2:-4])] = len(data)
            else:
                sizes[name[:-4]] = len(data)
        groups = ("rotation", "encapsulation")
        sizes["total"] = (sum(v for k, v in sizes.items() if k not in groups) +
                          sum(sum(sizes[g].values()) for g in groups))
        return sizes

    def public(self):
        """A Context with the public key only: it encrypts, nothing more."""
        return self._derived(self._keys.without(secret=True, evaluation=True))

    def evaluation(self):
        """A Context without the secret key (public, evaluation and rotation
        keys): a server's, which runs compiled functions but cannot decrypt."""
        return self._derived(self._keys.without(secret=True, evaluation=False))

    # ---- serialization ------------------------------------------------------

    def _parts(self, secret):
        """(file name, bytes, is secret) of each key this context holds."""
        k = self._keys
        parts = [("params.bin", k.to_bytes("params"), False)]
        if secret and k.has_secret_key:
            parts.append(("sk.bin", k.to_bytes("sk"), True))
        if k.has_public_key:
            parts.append(("pk.bin", k.to_bytes("pk"), False))
        if k.has_evaluation_key:
            parts.append(("evk.bin", k.to_bytes("evk"), False))
        parts += [(f"rk{g}.bin", k.to_bytes("rk", g), False) for g in k.galois_elements]
        parts += [(f"ek{q}.bin", k.to_bytes("ek", q), False) for q in k.encapsulation_moduli]
        return parts

    def save(self, directory, secret=False):
        """Writes the keys to `directory` (created if needed): params.bin,
        pk.bin, evk.bin, rk<g>.bin, ek<q0>.bin, and sk.bin (mode 0600) only with
        secret=True. fhec run --load reads the same files."""
        os.makedirs(directory, exist_ok=True)
        for name, data, is_secret in self._parts(secret):
            _fhec.write_file(os.path.join(directory, name), data, is_secret)

    @classmethod
    def load(cls, directory, params=None, secret=True, target="auto", threads=None, reference=False):
        """The Context of the keys in `directory` (as save() writes them):
        whichever of sk.bin (read only with secret=True), pk.bin, evk.bin and
        rk<g>.bin are there, all checked to be of one key set and of the
        parameters in params.bin. `params`: the fhec.Params to attach (slots,
        security level), checked against params.bin; default: those of
        params.bin with N/2 slots."""
        def read(name):
            path = os.path.join(directory, name)
            if not os.path.exists(path):
                return None
            with open(path, "rb") as f:
                return f.read()
        params_bytes = read("params.bin")
        if params_bytes is None:
            raise ParameterError(f"{directory} has no params.bin: not a directory Context.save wrote")
        rk_names = sorted(n for n in os.listdir(directory) if n.startswith("rk") and n.endswith(".bin"))
        ek_names = sorted(n for n in os.listdir(directory) if n.startswith("ek") and n.endswith(".bin"))
        names = [os.path.join(directory, n) for n in ["sk.bin", "pk.bin", "evk.bin"] + rk_names + ek_names]
        keys = _fhec.KeySet.from_parts(params_bytes, read("sk.bin") if secret else None, read("pk.bin"),
                                       read("evk.bin"), [read(n) for n in rk_names], names,
                                       [read(n) for n in ek_names])
        return cls._from_keys(keys, params, target, threads, reference)

    def to_bytes(self, secret=False):
        """All keys in one bytes object (the secret key only with secret=True);
        Context.from_bytes reads it back."""
        out = [_CONTAINER]
        for name, data, _ in self._parts(secret):
            out += [struct.pack("<H", len(name)), name.encode(), struct.pack("<Q", len(data)), data]
        return b"".join(out)

    @classmethod
    def from_bytes(cls, data, params=None, target="auto", threads=None, reference=False):
        """The Context of to_bytes()'s output (checked as load() checks files;
        `params` as for load)."""
        data = bytes(data)
        if not data.startswith(_CONTAINER):
            raise ParameterError("not a key container written by Context.to_bytes")
        parts, pos = {}, len(_CONTAINER)
        try:
            while pos < len(data):
                (n,) = struct.unpack_from("<H", data, pos)
                name = data[pos + 2:pos + 2 + n].decode()
                (size,) = struct.unpack_from("<Q", data, pos + 2 + n)
                start = pos + 10 + n
                if start + size > len(data):
                    raise ValueError
                parts[name] = data[start:start + size]
                pos = start + size
        except (struct.error, ValueError, UnicodeDecodeError):
            raise ParameterError("the key container is truncated or corrupted") from None
        if "params.bin" not in parts:
            raise ParameterError("the key container has no parameters")
        rk_names = sorted(n for n in parts if n.startswith("rk"))
        ek_names = sorted(n for n in parts if n.startswith("ek"))
        keys = _fhec.KeySet.from_parts(parts["params.bin"], parts.get("sk.bin"), parts.get("pk.bin"),
                                       parts.get("evk.bin"), [parts[n] for n in rk_names],
                                       ["sk", "pk", "evk"] + rk_names + ek_names, [parts[n] for n in ek_names])
        return cls._from_keys(keys, params, target, threads, reference)

    @classmethod
    def _from_keys(cls, keys, params, target, threads, reference):
        cpp = keys.params
        if params is None:
            params = Params(cpp.logN, cpp.logQ, cpp.logp, security="none", dnum=cpp.dnum, secret=cpp.secret,
                            h=cpp.h or None)
        elif not isinstance(params, Params) or params._cpp != cpp:
            raise ParameterError(f"the keys were made for {cpp!r}, not {params!r}")
        return cls(params, target, threads, reference, _keys=keys)

    def __repr__(self):
        held = [n for n, h in (("secret", self.has_secret_key), ("public", self.has_public_key),
                               ("evaluation", self.has_evaluation_key)) if h]
        rot = f", {len(self.galois_elements)} rotation key(s)" if self.galois_elements else ""
        return f"<fhec.Context {self.params!r} key set {self.key_set}: {', '.join(held) or 'no'} key(s){rot}>"


_CONTAINER = b"FHECKEYS\x01"
