"""fhec: trace NumPy-style CKKS functions into the fhec compiler, compile them
for a target and run them on encrypted data.

    import numpy as np, fhec
    params = fhec.Params(logN=15, logQ=240, logp=30)

    @fhec.compile(params, target="auto")
    def f(x, y):
        return 0.5 + 0.197 * x - 0.004 * x * x * x + y.rotate(1)

    ctx = fhec.Context(params)                 # keys; rotation keys on first use
    out = f(ctx.encrypt(a), ctx.encrypt(b))    # a, b: NumPy vectors of <= slots values
    ctx.decrypt(out)                           # NumPy vector of the slots
    print(f.mlir)                              # the traced ckks IR

Products are rescaled (rounding, `ckks.rescale {round}`) and operands aligned
automatically (ckks-manage-scale);
the outputs are bit-identical to fhec's GMP reference (f.reference).
"""

from .compiler import CompiledFunction, compile
from .context import Ciphertext, Context
from .errors import (CompileError, DepthError, FhecError, MissingKeyError, ParameterError, SecurityError,
                     TraceError, UnsupportedOperationError)
from .ops import approx, conj, dot, linear_transform, polyval, rotate, sum
from .params import Params
from .tracing import Encrypted, Plain



def targets():
    """Every compile target fhec knows, as fhec --print-targets lists them.

    Returns a list of dicts: name (str), cpu_features (the x86 features its
    modules need), gpu, emulated (bool), word_bits (the width of a residue
    word in the module's memory: 64, or 32 on the GPU targets), missing_here
    (the features of cpu_features this CPU lacks; empty where its modules run
    here).
    """
    import json
    from . import _fhec
    return json.loads(_fhec.targets_json())


def device_transfers():
    """Bytes this process has copied between host memory and its devices
    (the GPU targets' "cuda" and "cuda-emu") so far, as the runtime counts
    them: {"to_device": n, "to_host": n}. A program whose compiled functions
    pass their ciphertexts on the device copies only its inputs in and what it
    decrypts or serializes back."""
    from . import _fhec
    return _fhec.device_transfers()


__all__ = [
    "Ciphertext", "CompileError", "CompiledFunction", "Context", "DepthError", "Encrypted", "FhecError",
    "MissingKeyError", "ParameterError", "Plain", "Params", "SecurityError", "TraceError", "UnsupportedOperationError", "compile", "conj", "device_transfers",
    "approx", "dot", "linear_transform", "polyval", "rotate", "sum", "targets",
]
