"""CKKS parameters."""

from . import _fhec
from .errors import ParameterError, SecurityError

_LEVELS = ("128", "192", "256", "none")


class Params:
    """CKKS parameters in HEAAN's power-of-two form.

    logN: ring dimension N = 2^logN (2 <= logN <= 17).
    logQ: bits of the top ciphertext modulus Q; keys live mod P*Q.
    logp: bits of the scale 2^logp that messages and constants are encoded at.
    slots: complex slots per ciphertext, a power of two <= N/2 (default N/2).
    security: the classical security level (bits) compiling requires of
        fhec's estimate for this secret (docs/security.md): "128" (default),
        "192", "256", or "none" to opt out (like OpenFHE's HEStd_NotSet; the
        estimate is still reported).
    keyswitch: the form of key switching compiled functions use for
        relinearization and rotations: "centered" (default; the switched
        polynomial's representatives in [-q/2, q/2), the smaller error) or
        "heaan" (HEAAN 2.1's unsigned ones in [0, q), bit-compatible with it).
        Keys are the same for both.
    dnum: digits of hybrid key switching (Han-Ki 2020): the special modulus
        is P = 2^ceil(logQ / dnum) and each key-switching key has dnum parts.
        1 (default) is HEAAN's P = Q; a larger dnum allows a larger logQ at
        the same security (keys mod P*Q) for more key-switching work.
    secret: the secret key's distribution: "ternary" (default; every
        coefficient uniform in {-1, 0, 1}, as the HE Standard assumes) or
        "sparse" with exactly `h` nonzero coefficients (HEAAN 2.1's h = 64,
        which ckks.bootstrap needs today).
    h: the Hamming weight of a sparse secret (given with secret="sparse" only).

    Raises ParameterError for inconsistent values.
    """

    def __init__(self, logN, logQ, logp, slots=None, security="128", keyswitch="centered", dnum=1,
                 secret="ternary", h=None):
        security = str(security)
        if security not in _LEVELS:
            raise ParameterError(f"security={security!r} is not a level: expected one of {', '.join(_LEVELS)}")
        if keyswitch not in ("centered", "heaan"):
            raise ParameterError(f"keyswitch={keyswitch!r} is not a key-switching form: expected 'centered' or 'heaan'")
        try:
            self._cpp = _fhec.Params(int(logN), int(logQ), int(logp), secret=str(secret),
                                     h=0 if h is None else int(h), dnum=int(dnum))
        except Exception as e:  # the runtime's validation message
            raise ParameterError(str(e)) from None
        half = 1 << (int(logN) - 1)
        slots = half if slots is None else int(slots)
        if slots < 1 or slots > half or slots & (slots - 1):
            raise ParameterError(f"slots={slots} must be a power of two <= N/2 = {half}")
        self.slots = slots
        self.security = security
        self.keyswitch = keyswitch

    @classmethod
    def for_depth(cls, depth, scale_bits=30, security="128", slots=None, headroom_bits=10, keyswitch="centered"):
        """The smallest parameters for `depth` products in sequence, each
        rescaled by 2^scale_bits (the scale messages and constants are encoded
        at): logQ = (depth + 1) * scale_bits + headroom_bits (the last level
        keeps one scale plus room for the values' magnitude), and logN the
        smallest ring dimension (>= 2^10) whose estimate (uniform ternary secret) for keys
        mod Q^2 reaches `security` ("128", "192" or "256" bits).

            p = fhec.Params.for_depth(5, scale_bits=30)   # logN=14, logQ=190

        Raises ParameterError for a depth or scale out of range, or when no
        ring up to 2^17 reaches the level (too deep for one key set).
        """
        depth, scale_bits, headroom_bits = int(depth), int(scale_bits), int(headroom_bits)
        security = str(security)
        if security not in _LEVELS[:-1]:
            raise ParameterError(f"security={security!r}: for_depth needs a level, one of {', '.join(_LEVELS[:-1])}")
        if depth < 0 or not 8 <= scale_bits <= 120 or headroom_bits < 2:
            raise ParameterError(f"for_depth: depth {depth} must be >= 0, scale_bits {scale_bits} in [8, 120], "
                                 f"headroom_bits {headroom_bits} >= 2")
        logQ = (depth + 1) * scale_bits + headroom_bits
        for logN in range(10, 18):
            try:
                est = _fhec.Params(logN, logQ, scale_bits).security_estimate()
            except Exception as e:
                raise ParameterError(str(e)) from None
            if est[2 + _LEVELS.index(security)]:
                return cls(logN, logQ, scale_bits, slots=slots, security=security, keyswitch=keyswitch)
        raise ParameterError(f"no ring up to N = 2^17 gives {security}-bit security for keys mod P*Q = 2^{2 * logQ} "
                             f"(depth {depth} at {scale_bits}-bit scale): reduce the depth or the scale, or "
                             "bootstrap")

    logN = property(lambda self: self._cpp.logN, doc="log2 of the ring dimension N")
    logQ = property(lambda self: self._cpp.logQ, doc="bits of the top modulus Q")
    logp = property(lambda self: self._cpp.logp, doc="bits of the scale")
    dnum = property(lambda self: self._cpp.dnum, doc="digits of hybrid key switching (1: P = Q)")
    secret = property(lambda self: self._cpp.secret, doc="the secret's distribution: 'ternary' or 'sparse'")
    h = property(lambda self: self._cpp.h or None, doc="a sparse secret's Hamming weight (None for ternary)")
    logP = property(lambda self: self._cpp.logP, doc="bits of the special modulus P = 2^ceil(logQ / dnum)")

    @property
    def N(self):
        """The ring dimension 2^logN."""
        return 1 << self.logN

    @property
    def security_estimate(self):
        """(bits, text): fhec's estimate for keys mod P*Q with this secret,
        the text naming its method (docs/security.md)."""
        return self._cpp.security_estimate()[:2]

    def require_security(self):
        """Raises SecurityError unless the estimate grants `security` (nothing
        for "none"): what compiling checks, also where keys are made."""
        if self.security == "none":
            return
        bits, text, *granted = self._cpp.security_estimate()
        if not granted[_LEVELS.index(self.security)]:
            raise SecurityError(f"insecure parameters {self!r}: estimated security {text} is below the required "
                                f"{self.security} bits; use a larger N or a smaller logQ, or opt out with "
                                "fhec.Params(..., security='none')")

    def _key(self):
        return (self.logN, self.logQ, self.logp, self.slots, self.security, self.keyswitch, self.dnum, self.secret,
                self.h)

    def __eq__(self, other):
        return isinstance(other, Params) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return (f"fhec.Params(logN={self.logN}, logQ={self.logQ}, logp={self.logp}, slots={self.slots}, "
                f"security={self.security!r}, keyswitch={self.keyswitch!r}, dnum={self.dnum}, secret={self.secret!r}"
                + (f", h={self.h})" if self.h else ")"))
