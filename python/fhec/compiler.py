"""@fhec.compile: trace a Python function into a ckks program, compile it with
fhec for a target, and run it on ciphertexts."""

import functools
import inspect
import keyword
import re
import sys
import warnings
import weakref

import numpy as np

from . import _fhec
from .context import Ciphertext
from .errors import ParameterError, SecurityError, TraceError
from .params import Params
from .tracing import Plain, Trace


def _function_name(fn):
    name = re.sub(r"\W", "_", getattr(fn, "__name__", "f"))
    if not name or name[0].isdigit() or keyword.iskeyword(name):
        name = "f_" + name
    return name


def _positional_arity(fn):
    params = inspect.signature(fn).parameters.values()
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.KEYWORD_ONLY) for p in params):
        raise TraceError(f"{fn.__name__}: a compiled function takes a fixed number of encrypted arguments "
                         "(no *args, **kwargs or keyword-only parameters)")
    return len(params)


def _plaintext_parameters(fn):
    """Whether each positional parameter of fn is annotated fhec.Plain (also
    as the string of postponed annotations)."""
    out = []
    for p in inspect.signature(fn).parameters.values():
        a = p.annotation
        out.append(a is Plain or (isinstance(a, str) and a.split(".")[-1] == "Plain"))
    return out


def _referenced_arrays(fn):
    """The NumPy arrays fn reads through its closure and module globals, with a
    copy of each (what a trace may have compiled in)."""
    found = []
    code = getattr(fn, "__code__", None)
    cells = [c.cell_contents for c in (getattr(fn, "__closure__", None) or ()) if _has_contents(c)]
    names = [getattr(fn, "__globals__", {}).get(n) for n in (code.co_names if code else ())]
    for v in cells + names:
        if isinstance(v, np.ndarray):
            found.append((v, v.copy()))
    return found


def _has_contents(cell):
    try:
        cell.cell_contents
        return True
    except ValueError:
        return False


def _changed(captured):
    return any(a.shape != snap.shape or not np.array_equal(a, snap, equal_nan=True) for a, snap in captured)


def _call_recording_return(fn, args, source):
    """fn(*args) and the (file, line, column) of the line it returned from."""
    code = getattr(fn, "__code__", None)
    seen = []

    def profile(frame, event, arg):
        if event == "return" and frame.f_code is code:
            seen.append((source, frame.f_lineno, 1))

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn(*args)
    finally:
        sys.setprofile(previous)
    return result, (seen[-1] if seen else None)


class CompiledFunction:
    """A traced and compiled function. Calling it on Ciphertexts (of one
    Context) runs the compiled module and returns a Ciphertext, or a tuple for
    a function returning several values. Parameters annotated fhec.Plain take
    plaintext vectors (NumPy) at each call instead, which the runtime encodes.

    The function is traced once per input shape (logq, logp, slots), first at
    decoration time for fresh ciphertexts of the parameters.

    Attributes:
        mlir: the traced ckks IR (after scale management), as text.
        mlir_with_locations: the same with each op's Python source location.
        galois_elements: Galois elements of the rotation keys it needs.
        encapsulation_moduli: q0 (bits) of the sparse-secret encapsulation
            keys its bootstrapping needs (with a dense secret).
        security: the parameters' security estimate.
        target: the target the module was compiled for.
        last_call_bytes: what the last call copied between the host and the
            device, {"to_device": bytes, "to_host": bytes}: on the GPU targets
            its inputs that were not on the device yet (its outputs stay
            there); zero on the CPU targets, whose code reads host memory;
            None before the first call.
    """

    def __init__(self, fn, params, target="auto", opt_level=2, threads=None, allow_insecure=False,
                 disabled_passes=(), bootstrap=None):
        if not isinstance(params, Params):
            raise ParameterError("fhec.compile needs an fhec.Params")
        if bootstrap not in (None, "auto"):
            raise ParameterError(f"bootstrap must be None or 'auto', got {bootstrap!r}")
        self._bootstrap = bootstrap
        functools.update_wrapper(self, fn)
        self._fn = fn
        self.params = params
        self._target = target
        self._opt_level = int(opt_level)
        self._threads = 0 if threads is None else int(threads)
        self._allow_insecure = bool(allow_insecure)
        self._disabled = [str(p) for p in disabled_passes]
        self._arity = _positional_arity(fn)
        self._is_plain = _plaintext_parameters(fn)
        self._programs = {}
        self._captured = {}  # shapes -> [(array, its values when traced)]
        self._executors = weakref.WeakKeyDictionary()  # Context -> {shapes: executor}
        self.last_call_bytes = None
        fresh = (params.logQ, params.logp, params.slots)
        self._default = tuple((0, 0, params.slots) if p else fresh for p in self._is_plain)
        self._program(self._default)

    def _program(self, shapes):
        program = self._programs.get(shapes)
        if program is not None and _changed(self._captured[shapes]):
            # The trace compiled in the values of an array that has changed
            # since: trace and compile again rather than compute with stale ones.
            warnings.warn(f"{self.__name__}: a NumPy array it reads changed after it was traced; tracing and "
                          "compiling it again for the current values", stacklevel=3)
            del self._programs[shapes]
            for by_shape in self._executors.values():
                by_shape.pop(shapes, None)
            program = None
        if program is not None:
            return program
        try:
            source = inspect.getsourcefile(self._fn) or "<unknown>"
        except TypeError:
            source = "<unknown>"
        location = (source, self._fn.__code__.co_firstlineno, 1)
        trace = Trace(self.params, _function_name(self._fn), shapes, location, auto_bootstrap=self._bootstrap == "auto")
        referenced = _referenced_arrays(self._fn)
        result, returned_at = _call_recording_return(self._fn, trace.inputs, source)
        program = trace.finish(result, returned_at or location)
        try:
            program.compile(self._target, self._opt_level, self._disabled, self._allow_insecure)
        except SecurityError as e:
            raise SecurityError(f"{e}\nIn Python, opt out with fhec.Params(..., security='none') or "
                                "fhec.compile(..., allow_insecure=True)") from None
        self._programs[shapes] = program
        self._captured[shapes] = referenced + trace.captured
        return program

    @property
    def mlir(self):
        return self._program(self._default).mlir(False)

    @property
    def mlir_with_locations(self):
        return self._program(self._default).mlir(True)

    @property
    def galois_elements(self):
        return list(self._program(self._default).galois_elements)

    @property
    def encapsulation_moduli(self):
        """q0 (bits) of the encapsulation keys its bootstrapping needs (a dense secret)."""
        return list(self._program(self._default).encapsulation_moduli)

    @property
    def bootstraps(self):
        """How many ckks.bootstrap ops the program holds (x.bootstrap() calls
        and, with bootstrap="auto", the ones placed automatically)."""
        return self.mlir.count("ckks.bootstrap ")

    @property
    def security(self):
        return self._program(self._default).security

    @property
    def target(self):
        return self._program(self._default).target

    def lower(self, stage="fhe"):
        """The program lowered for its target: stage 'fhe' (the annotated kernel
        dialect) or 'mlir' (loop-level MLIR), as text."""
        p = self._program(self._default)
        return p.lower(stage, p.target, self._opt_level)

    def _plaintext_value(self, i, a):
        """Argument i (an fhec.Plain parameter) as `slots` complex values (a
        shorter vector padded with zeros, a scalar repeated)."""
        v = np.asarray(a)
        if v.dtype == object or not (np.issubdtype(v.dtype, np.number) or v.dtype == bool):
            raise ParameterError(f"argument {i} of {self.__name__} (fhec.Plain) must be numbers, got "
                                 f"{type(a).__name__}")
        if v.ndim == 0:
            v = np.full(self.params.slots, v)
        if v.ndim != 1 or v.size > self.params.slots:
            raise ParameterError(f"argument {i} of {self.__name__} (fhec.Plain) must be a vector of at most "
                                 f"{self.params.slots} values, got shape {v.shape}")
        if not np.all(np.isfinite(v)):
            raise ParameterError(f"argument {i} of {self.__name__} (fhec.Plain) must be finite")
        z = np.zeros(self.params.slots, dtype=np.complex128)
        z[: v.size] = v
        return z

    def _split(self, args):
        """(ciphertext arguments, plaintext arguments' values) of a call."""
        cts = [a for a, p in zip(args, self._is_plain) if not p]
        plains = [self._plaintext_value(i, a) for i, (a, p) in enumerate(zip(args, self._is_plain)) if p]
        return cts, plains

    def _check(self, args):
        if len(args) != self._arity:
            kind = "arguments" if any(self._is_plain) else "ciphertexts"
            raise TraceError(f"{self.__name__} takes {self._arity} {kind}, got {len(args)}")
        context = None
        for i, a in enumerate(args):
            if self._is_plain[i]:
                if isinstance(a, Ciphertext):
                    raise ParameterError(f"argument {i} of {self.__name__} is an fhec.Plain parameter: pass its "
                                         "values, not a ciphertext")
                continue
            if not isinstance(a, Ciphertext):
                raise ParameterError(f"argument {i} of {self.__name__} is a {type(a).__name__}, not an fhec.Ciphertext"
                                     " (annotate the parameter with fhec.Plain to pass plaintext values)")
            if a.context.params._cpp != self.params._cpp or a.context.params.slots != self.params.slots:
                raise ParameterError(f"argument {i} was made for {a.context.params!r}, but {self.__name__} was "
                                     f"compiled for {self.params!r}")
            if context is None:
                context = a.context
            elif a.context is not context:
                raise ParameterError(f"argument {i} belongs to another Context (key set) than argument 0")
        if context is None:
            raise TraceError(f"{self.__name__} needs at least one ciphertext argument")
        return context, tuple((0, 0, self.params.slots) if p else a.shape for a, p in zip(args, self._is_plain))

    def __call__(self, *args):
        context, shapes = self._check(args)
        program = self._program(shapes)
        by_shape = self._executors.setdefault(context, {})
        executor = by_shape.get(shapes)
        if executor is None:
            context._add_keys_for(program)
            executor = _fhec.Executor(program, context._keys)
            by_shape[shapes] = executor
        cts, plains = self._split(args)
        if executor.device is None:
            outputs = executor.run([a._ct for a in cts], self._threads, plains)
        else:  # on the device: those there already are not copied; one on another
            # device is copied by the executor, which counts the bytes
            def placed(a):
                here = a._device is not None and a._device.device == executor.device
                return a._device if here or a._host is None else a._host
            outputs = executor.run_on_device([placed(a) for a in cts], self._threads, plains)
        self.last_call_bytes = executor.last_run_bytes
        results = tuple(Ciphertext(c, context) for c in outputs)
        return results[0] if len(results) == 1 else results

    def map(self, batch, cluster, context=None, errors="raise", progress=None):
        """This function on every item of `batch` across a Ray cluster
        (fhec.ray.Cluster): one worker actor per worker loads the compiled
        module and the evaluation and rotation keys once; the results come
        back in input order, bit-identical to calling it here.

        An item is a Ciphertext, its bytes (Ciphertext.to_bytes), or a tuple of
        such arguments (and plaintext values for fhec.Plain parameters).
        `context`: the Context whose keys the workers get (its evaluation()
        part: never the secret key); default: the first Ciphertext's.
        `errors`: "raise" (BatchError after the rest completed, when an item
        failed: corrupted, of another key set or shape) or "return" (an
        ItemError in that item's place). `progress`: a tqdm bar (True; None:
        on a terminal) or a callable progress(done, total).

        Raises ClusterError when the workers are lost for good, BatchError.
        """
        return cluster.map(self, batch, context=context, errors=errors, progress=progress)

    def reference(self, *args):
        """The GMP reference on the same ciphertexts: what every compiled
        target must return bit for bit."""
        context, shapes = self._check(args)
        program = self._program(shapes)
        context._add_keys_for(program)
        cts, plains = self._split(args)
        results = tuple(Ciphertext(c, context) for c in program.reference([a._ct for a in cts], context._keys, plains))
        return results[0] if len(results) == 1 else results

    def plain(self, *vectors):
        """The traced computation on plaintext slot vectors (NumPy), without
        encryption: what decryption approximates."""
        if len(vectors) != self._arity:
            raise TraceError(f"{self.__name__} takes {self._arity} vectors, got {len(vectors)}")
        cts, plains = self._split(vectors)
        outs = self._program(self._default).plain(cts, plains)
        return outs[0] if len(outs) == 1 else tuple(outs)

    def __repr__(self):
        return f"<fhec.CompiledFunction {self.__name__} for {self.params!r}, target {self.target}>"


def compile(params, target="auto", opt_level=2, threads=None, allow_insecure=False, disabled_passes=(),
            bootstrap=None):
    """Decorator: trace the function for `params`, compile it for `target`
    ("cpu", "cpu-avx512" or "auto": the best this CPU runs) at -O`opt_level`,
    and return a CompiledFunction. `threads`: threads of the compiled loops
    (default: all cores). Parameters below their security level raise
    SecurityError unless `allow_insecure` (or params' security="none").
    `disabled_passes`: optimization passes to leave out (names as in
    `fhec --disable-pass`, e.g. "fhe-hoist-automorphisms"), for comparisons.
    `bootstrap`: None, or "auto": a product that would take a ciphertext below
    the bootstrapping modulus q0 = 2^(logp + 12) bootstraps it first
    (x.bootstrap()'s defaults) instead of raising DepthError; the placed
    ckks.bootstrap ops are in `mlir` and counted by `bootstraps`, and their
    rotation keys come with `galois_elements` (Context.keys_for,
    Context.key_sizes).

    Raises TraceError, ParameterError, DepthError, CompileError or SecurityError.
    """

    def decorate(fn):
        return CompiledFunction(fn, params, target, opt_level, threads, allow_insecure, disabled_passes, bootstrap)

    return decorate
