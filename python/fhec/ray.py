"""Scale-out on Ray: a compiled function over a batch of ciphertexts across a cluster.

    cluster = fhec.ray.Cluster("10.0.0.1:6379", workers=8, threads_per_worker=1)
    outs = f.map([ctx.encrypt(x) for x in rows], cluster=cluster)   # in input order

One actor per worker (``Cluster.workers`` of them, spread over the nodes)
holds what a call needs across calls: the compiled module (its shared
library, shipped as bytes) and the evaluation and rotation keys, each put in
Ray's object store once per cluster and loaded by an actor on its first item.
Ciphertexts travel as their polynomials' words (read-only NumPy views, which
Ray ships out of band: one copy into its object store, where the worker's
compiled code reads them in place; a result is copied out of it once) and are
checked on arrival like a file; items given as bytes are read (checksum and
all) here first. At most ``max_in_flight`` items are outstanding
(back-pressure); results come back in input order. The workers never see a
secret key: the keys shipped are the context's ``evaluation()`` part.

Faults: an item whose worker process dies is run again on a worker that is
alive (Ray restarts the actor, up to ``max_restarts`` times; a worker gone for
good is replaced at the next map); every item yields exactly one result,
bit-identical to a local call. An item that
cannot run (a corrupted ciphertext, one of another key set or shape) fails
alone, with its index and the runtime's message, while the rest completes.

Ray is an optional dependency (PyPI ``ray``; ``tqdm`` for progress bars):
importing this module without it raises ImportError with the command to
install it.
"""

import collections
import ctypes
import os
import socket
import sys
import time

from .errors import FhecError, ParameterError

try:
    import ray
    from ray.exceptions import ActorDiedError, ActorUnavailableError, GetTimeoutError, RayActorError, RayError
except ImportError as e:  # pragma: no cover - exercised only without ray
    raise ImportError("fhec.ray needs Ray: pip install ray tqdm") from e

__all__ = ["BatchError", "Cluster", "ClusterError", "ItemError"]


class ClusterError(FhecError):
    """The cluster cannot be reached, cannot host the workers asked for, or
    lost all of them."""


class ItemError(FhecError):
    """One item of a batch failed: ``index`` is its position in the batch and
    the message says why (the runtime's own message)."""

    def __init__(self, index, message):
        super().__init__(f"item {index}: {message}")
        self.index = index
        self.reason = message


class BatchError(FhecError):
    """Some items of a batch failed; the others completed. ``errors`` maps
    each failed index to its ItemError, ``results`` holds every result in
    input order (None where the item failed)."""

    def __init__(self, errors, results):
        shown = "; ".join(str(errors[i]) for i in sorted(errors)[:5])
        more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
        super().__init__(f"{len(errors)} of {len(results)} items failed: {shown}{more}")
        self.errors = errors
        self.results = results


# A worker reads and writes tens of MB per item (N = 2^16: 20 MB per
# ciphertext). glibc's malloc hands blocks that large back to the kernel when
# they are freed, so every item paid fresh page faults for its buffers; these
# settings keep them in the worker's heap for the next item (HE Mul at the
# paper's size: 28 ms of reading and writing per item down to 9 ms).
_MALLOC = (("MALLOC_MMAP_THRESHOLD_", -3, 32 << 20),  # (environment variable, mallopt option, value)
           ("MALLOC_TRIM_THRESHOLD_", -1, (2 << 30) - 1),
           ("MALLOC_TOP_PAD_", -2, 256 << 20))
_WORKER_MALLOC = {name: str(value) for name, _, value in _MALLOC}


def _keep_large_blocks():
    """The same for this (the driver's) process, which reads every result
    back (glibc's mallopt; a no-op elsewhere)."""
    try:
        libc = ctypes.CDLL(None)
        for _, option, value in _MALLOC:
            libc.mallopt(ctypes.c_int(option), ctypes.c_int(value))
    except (OSError, AttributeError):
        pass


class _Worker:
    """A worker's actor: the modules it has loaded, by token, with their keys."""

    def __init__(self, threads):
        self._threads = int(threads)
        self._runners = collections.OrderedDict()

    def ping(self):
        return os.getpid()

    def run(self, token, refs, payloads, plaintexts):
        """Runs token's module on one item's ciphertexts (Ciphertext.wire);
        returns ("ok", the outputs' wires, kernel seconds, seconds in this call) or
        ("error", message). `refs` ([library, keys]) are fetched on a token's
        first item only (nested in a list, Ray does not resolve them)."""
        t0 = time.perf_counter()
        try:
            runner = self._runners.get(token)
            if runner is not None:
                self._runners.move_to_end(token)
            else:
                runner = self._load(*ray.get(refs))
                self._runners[token] = runner
                while len(self._runners) > 4:  # keep the modules of the last few functions
                    self._runners.popitem(last=False)
            out = runner.run_wire(payloads, self._threads, plaintexts)
        except FhecError as e:
            return ("error", str(e))
        return ("ok", out, runner.last_run_seconds, time.perf_counter() - t0)

    @staticmethod
    def _load(library, keys):
        from . import _fhec
        from .context import Context
        context = Context.from_bytes(keys, reference=True)
        if context.has_secret_key:
            raise FhecError("a worker was sent a secret key")
        return _fhec.ModuleRunner(library, context._keys)


def _reachable(address, timeout):
    """None if host:port accepts a TCP connection within `timeout` s, else why not."""
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout):
            return None
    except ValueError:
        return f"'{address}' is not host:port"
    except OSError as e:
        return e.strerror or str(e)


class Cluster:
    """A connection to a Ray cluster and the worker actors fhec runs on it.

    `address`: "host:port" of a running cluster's head (``ray start --head``
    prints it), "auto" (a cluster started on this machine), or None (a
    private local Ray started in this process). `workers`: actors (default:
    the cluster's CPUs // threads_per_worker), each reserving
    `threads_per_worker` CPUs and running the compiled loops on as many
    threads. `max_in_flight`: items submitted and not yet returned (default
    2 per worker). `max_restarts`: times Ray restarts a worker whose process
    died. `item_retries`: times an item is run again after losing its worker.
    `timeout`: seconds to reach the cluster and to start the workers.
    After each map, `last_stats` holds each item's seconds in the compiled
    code ("kernel_s") and in the worker's call ("worker_s": the kernel plus
    reading and writing the ciphertexts), and the items run again ("retried").

    Raises ClusterError when the cluster cannot be reached or cannot place the
    workers (too few CPUs), within `timeout`.
    """

    def __init__(self, address=None, workers=None, threads_per_worker=1, max_in_flight=None, max_restarts=3,
                 item_retries=3, timeout=60.0):
        if int(threads_per_worker) < 1:
            raise ParameterError(f"threads_per_worker must be >= 1, got {threads_per_worker}")
        if workers is not None and int(workers) < 1:
            raise ParameterError(f"workers must be >= 1, got {workers}")
        self.address = address
        self.threads_per_worker = int(threads_per_worker)
        self.max_restarts = int(max_restarts)
        self.item_retries = int(item_retries)
        self._timeout = float(timeout)
        self._objects = {}  # token -> (object ref, what it keeps alive)
        self._owns_connection = False
        self.last_stats = None
        self._connect()
        _keep_large_blocks()
        cpus = int(ray.cluster_resources().get("CPU", 0))
        self.workers = int(workers) if workers is not None else max(1, cpus // self.threads_per_worker)
        if self.workers * self.threads_per_worker > cpus:
            self.close()
            raise ClusterError(f"the cluster has {cpus} CPU(s): {self.workers} worker(s) of "
                               f"{self.threads_per_worker} thread(s) do not fit")
        self.max_in_flight = int(max_in_flight) if max_in_flight is not None else 2 * self.workers
        if self.max_in_flight < 1:
            self.close()
            raise ParameterError(f"max_in_flight must be >= 1, got {max_in_flight}")
        self._actors = []
        try:
            self._actors = [self._new_actor() for _ in range(self.workers)]
            self._pids = ray.get([a.ping.remote() for a in self._actors], timeout=self._timeout)
        except GetTimeoutError:
            self.close()
            raise ClusterError(f"the cluster did not start {self.workers} worker(s) within {self._timeout:.0f} s")
        except RayError as e:
            self.close()
            raise ClusterError(f"the workers could not start: {e}") from None
        self._alive = [True] * self.workers

    def _new_actor(self):
        return ray.remote(_Worker).options(num_cpus=self.threads_per_worker, max_restarts=self.max_restarts,
                                           max_task_retries=0, scheduling_strategy="SPREAD",
                                           runtime_env={"env_vars": dict(_WORKER_MALLOC)}).remote(self.threads_per_worker)

    def _connect(self):
        if ray.is_initialized():  # this process's own connection, if it is to the same cluster
            current = ray.get_runtime_context().gcs_address
            if self.address not in (None, "auto") and current.rpartition(":")[2] != str(self.address).rpartition(":")[2]:
                raise ClusterError(f"this process is already connected to the Ray cluster at {current}, not "
                                   f"{self.address} (ray.shutdown() first)")
            return
        if self.address not in (None, "auto"):
            why = _reachable(self.address, min(self._timeout, 10.0))
            if why is not None:
                raise ClusterError(f"cannot reach the Ray cluster at {self.address}: {why} (start one with "
                                   "`ray start --head` and pass the address it prints)")
        try:
            ray.init(address=self.address or "local", logging_level="ERROR", log_to_driver=False,
                     **({"include_dashboard": False} if self.address is None else {}))
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise ClusterError(f"cannot connect to the Ray cluster at {self.address or 'a local Ray'}: {e}") from None
        self._owns_connection = True

    def worker_pids(self):
        """The process id of each worker actor now (asked of each; a restarted
        worker has a new one). Raises ClusterError if one does not answer
        within the timeout."""
        for k, ref in enumerate([a.ping.remote() for a in self._actors]):
            try:
                ray.get(ref, timeout=self._timeout)
            except ActorDiedError:
                self._alive[k] = False
            except (GetTimeoutError, RayActorError):
                pass  # asked again below
        self._replace_dead()
        try:
            self._pids = ray.get([a.ping.remote() for a in self._actors], timeout=self._timeout)
        except (GetTimeoutError, RayActorError) as e:
            raise ClusterError(f"a worker did not answer: {e}") from None
        return list(self._pids)

    def _replace_dead(self):
        """Starts a new actor in the place of each worker that died for good
        (its restarts used up, or it did not come back within the timeout)."""
        for k, alive in enumerate(self._alive):
            if not alive:
                ray.kill(self._actors[k], no_restart=True)
                self._actors[k] = self._new_actor()
                self._alive[k] = True

    def _put(self, token, make):
        """The object ref of token's bytes, put in the object store once."""
        held = self._objects.get(token)
        if held is None:
            held = self._objects[token] = ray.put(make())
        return held

    def close(self):
        """Ends the worker actors and, if this Cluster connected, disconnects
        (the cluster itself keeps running)."""
        for a in getattr(self, "_actors", []):
            ray.kill(a, no_restart=True)
        self._actors = []
        self._objects.clear()
        if self._owns_connection and ray.is_initialized():
            ray.shutdown()
        self._owns_connection = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return (f"<fhec.ray.Cluster {self.address or 'local'}: {len(self._actors)} worker(s) x "
                f"{self.threads_per_worker} thread(s)>")

    # ---- running a batch ------------------------------------------------------

    def map(self, function, batch, context=None, errors="raise", progress=None):
        """`function` (a CompiledFunction) on every item of `batch`, on the
        workers; see CompiledFunction.map."""
        if errors not in ("raise", "return"):
            raise ParameterError(f"errors must be 'raise' or 'return', got {errors!r}")
        if not self._actors:
            raise ClusterError("the cluster was closed")
        items = list(batch)
        if not items:
            return []
        context = context or _first_context(items)
        if context is None:
            raise ParameterError("map: pass context= (the evaluation Context) for a batch of serialized ciphertexts")
        results = [None] * len(items)
        failures = {}
        jobs = {}
        for i, item in enumerate(items):
            try:
                jobs[i] = self._job(function, context, item)
            except FhecError as e:
                failures[i] = ItemError(i, str(e))
        bar = _Progress(progress, len(items))
        bar.update(len(failures))
        self._replace_dead()
        alive = self._alive
        pending = collections.deque(sorted(jobs))
        in_flight = {}   # ref -> (index, worker)
        probing = {}     # ping ref -> (worker, deadline): after a lost item, restarted or dead for good?
        load = [0] * len(self._actors)
        attempts = collections.Counter()
        stats = self.last_stats = {"kernel_s": [], "worker_s": [], "retried": 0}

        def probe(k, deadline=None):
            probing[self._actors[k].ping.remote()] = (k, deadline or time.monotonic() + self._timeout)

        def probed():
            return {k for k, _ in probing.values()}

        while pending or in_flight:
            busy = probed()
            while pending and len(in_flight) < self.max_in_flight:
                ready = [k for k in range(len(self._actors)) if alive[k] and k not in busy]
                if not ready:
                    break
                k = min(ready, key=lambda k: load[k])
                i = pending.popleft()
                token, refs, payloads, plains = jobs[i]
                in_flight[self._actors[k].run.remote(token, refs, payloads(), plains)] = (i, k)
                load[k] += 1
            if not any(alive):
                raise ClusterError(f"all {len(self._actors)} workers died for good; "
                                   f"{len(pending) + len(in_flight)} item(s) not run")
            done, _ = ray.wait(list(in_flight) + list(probing), num_returns=1, timeout=1.0)
            for ref in done:
                if ref in probing:
                    k, deadline = probing.pop(ref)
                    try:
                        ray.get(ref)  # answers once Ray has restarted it
                    except ActorUnavailableError:  # not back yet: ask again until the deadline
                        if time.monotonic() < deadline:
                            probe(k, deadline)
                        else:
                            alive[k] = False
                    except RayActorError:  # died for good (ActorDiedError, or its node is gone)
                        alive[k] = False
                    continue
                i, k = in_flight.pop(ref)
                load[k] -= 1
                try:
                    reply = ray.get(ref)
                except RayActorError as e:
                    attempts[i] += 1
                    stats["retried"] += 1
                    if attempts[i] > self.item_retries:
                        failures[i] = ItemError(i, f"lost its worker {attempts[i]} times (last: {type(e).__name__})")
                        bar.update(1)
                    else:
                        pending.appendleft(i)
                    if k not in probed():
                        probe(k)
                    continue
                except RayError as e:
                    failures[i] = ItemError(i, str(e))
                    bar.update(1)
                    continue
                if reply[0] == "ok":
                    results[i] = _outputs(reply[1], context)
                    stats["kernel_s"].append(reply[2])
                    stats["worker_s"].append(reply[3])
                else:
                    failures[i] = ItemError(i, reply[1])
                bar.update(1)
            for ref, (k, deadline) in list(probing.items()):  # a probe that never answers
                if time.monotonic() > deadline:
                    del probing[ref]
                    alive[k] = False
        bar.close()
        if errors == "return":
            return [failures.get(i, r) for i, r in enumerate(results)]
        if failures:
            raise BatchError(failures, results)
        return results

    def _job(self, function, context, item):
        """(token, refs, serializer of the payloads, plaintext values) of one item."""
        args = item if isinstance(item, (tuple, list)) else (item,)
        if len(args) != function._arity:
            raise ParameterError(f"{function.__name__} takes {function._arity} argument(s), the item has {len(args)}")
        shapes, blobs, plains = [], [], []
        for a, is_plain in zip(args, function._is_plain):
            if is_plain:
                plains.append(function._plaintext_value(len(plains), a))
                shapes.append((0, 0, function.params.slots))
            elif isinstance(a, (bytes, bytearray, memoryview)):
                ct = context.ciphertext_from_bytes(a)  # FhecError if malformed or corrupted
                shapes.append(ct.shape)
                blobs.append(ct)
            elif hasattr(a, "to_bytes") and hasattr(a, "shape"):
                shapes.append(a.shape)
                blobs.append(a)
            else:
                raise ParameterError(f"a batch item holds a {type(a).__name__}, not a Ciphertext or its bytes")
        program = function._program(tuple(shapes))
        context._add_keys_for(program)
        lib_token = f"lib-{id(program):x}"
        lib_ref = self._put(lib_token, program.library_bytes)
        self._objects[lib_token + "-program"] = program  # keeps id(program) from being reused
        galois = sorted(int(g) for g in context.galois_elements)
        moduli = sorted(int(q) for q in context._keys.encapsulation_moduli)
        keys_token = f"keys-{context.key_set}-{'.'.join(map(str, galois))}-{'.'.join(map(str, moduli))}"
        keys_ref = self._put(keys_token, lambda: context.evaluation().to_bytes())
        payloads = lambda: [b._ct.wire() for b in blobs]  # noqa: E731 (made when the item is submitted)
        return f"{lib_token}/{keys_token}", [lib_ref, keys_ref], payloads, plains


def _first_context(items):
    for item in items:
        for a in item if isinstance(item, (tuple, list)) else (item,):
            if hasattr(a, "context") and hasattr(a, "to_bytes"):
                return a.context
    return None


def _outputs(wires, context):
    from . import _fhec
    from .context import Ciphertext
    outs = tuple(Ciphertext(_fhec.Ciphertext.from_wire(w, context.params._cpp), context) for w in wires)
    return outs[0] if len(outs) == 1 else outs


class _Progress:
    """tqdm's bar (progress=True, or None on a terminal), a callable
    progress(done, total), or nothing."""

    def __init__(self, progress, total):
        self._done, self._total, self._bar, self._call = 0, total, None, None
        if callable(progress):
            self._call = progress
        elif progress or (progress is None and total > 1 and sys.stderr.isatty()):
            try:
                from tqdm import tqdm
                self._bar = tqdm(total=total, unit="ct", desc="fhec.ray")
            except ImportError:
                pass

    def update(self, n):
        if n == 0:
            return
        self._done += n
        if self._bar is not None:
            self._bar.update(n)
        if self._call is not None:
            self._call(self._done, self._total)

    def close(self):
        if self._bar is not None:
            self._bar.close()
