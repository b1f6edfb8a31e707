"""The exceptions fhec raises.

Every error of the compiler and runtime arrives as one of these, with the
message of the C++ diagnostic (source locations of traced programs point at
the Python lines that built each operation).
"""


class FhecError(Exception):
    """Base class: also what the runtime raises (mismatched keys, corrupted files)."""


class TraceError(FhecError, TypeError):
    """A traced function did something that cannot be compiled: Python control
    flow on an encrypted value, an operation CKKS lacks, a non-ciphertext
    result."""


class UnsupportedOperationError(TraceError):
    """An operator that CKKS does not offer on encrypted values (/, //, %, **
    with a non-integer, comparisons, bitwise operators, abs)."""


class ParameterError(FhecError, ValueError):
    """Inconsistent parameters or inputs: operands of different parameter sets
    or traces, plaintext vectors of the wrong length, ciphertexts of another
    shape than the function was compiled for."""


class CompileError(FhecError):
    """A diagnostic of the IR verifier, a pass or the lowering."""


class DepthError(CompileError):
    """Scale management ran out of modulus: too many multiplications in
    sequence for the parameters' logQ ("too little depth left")."""


class SecurityError(FhecError):
    """Parameters below the security level they require (default 128 bits)."""


class MissingKeyError(FhecError):
    """The operation needs a key this Context does not hold: decryption
    without the secret key, encryption without the public key, a rotation key
    that a Context without the secret key cannot make."""
