"""fhec.ray on a local two-node Ray cluster that the tests start (a head node
and a second node process, one CPU each, on 127.0.0.1) and stop: a batch
bit for bit against a local loop, a worker killed by its pid mid-batch, and
corrupted and mismatched items."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest

import fhec

# No token authentication for the test cluster on 127.0.0.1, whatever
# ~/.ray/auth_token holds. Ray reads the mode when it is imported, and the
# nodes and this process (the driver) must agree: set before the import.
_SAVED_AUTH_MODE = os.environ.get("RAY_AUTH_MODE")
os.environ["RAY_AUTH_MODE"] = "disabled"

ray = pytest.importorskip("ray")
fray = pytest.importorskip("fhec.ray")

# The venv's `ray` script, next to its python (else the one on PATH).
RAY = os.path.join(os.path.dirname(sys.executable), "ray")
if not os.path.exists(RAY):
    RAY = shutil.which("ray") or RAY


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(args, log):
    # A session of its own: the teardown stops every process `ray start --block` started.
    # Worker ports chosen by the OS: the two nodes share this machine.
    return subprocess.Popen([RAY, "start", "--block", "--num-cpus=1", "--disable-usage-stats",
                             "--object-store-memory=400000000", "--node-ip-address=127.0.0.1",
                             "--min-worker-port=0", "--max-worker-port=0", *args],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def _stop(p):
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            return
        try:
            p.wait(wait)
        except subprocess.TimeoutExpired:
            continue
        if sig == signal.SIGTERM:
            try:  # children that outlived the `ray start` process
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return


@pytest.fixture(scope="module")
def address():
    port = _free_port()
    tmp = tempfile.mkdtemp(prefix="fray")
    log = open(os.path.join(tmp, "ray.log"), "w")
    procs = [_start(["--head", f"--port={port}", "--include-dashboard=false", f"--temp-dir={tmp}"], log)]
    addr = f"127.0.0.1:{port}"
    try:
        deadline = time.time() + 90
        while fray._reachable(addr, 1.0) is not None:
            assert time.time() < deadline and procs[0].poll() is None, open(log.name).read()[-3000:]
            time.sleep(0.5)
        procs.append(_start([f"--address={addr}"], log))
        ray.init(address=addr, logging_level="ERROR", log_to_driver=False)
        while ray.cluster_resources().get("CPU", 0) < 2:
            assert time.time() < deadline, f"the second node did not join: {open(log.name).read()[-3000:]}"
            time.sleep(0.5)
        yield addr
    finally:
        if ray.is_initialized():
            ray.shutdown()
        for p in reversed(procs):
            _stop(p)
        log.close()
        # `ray start` records the head's address for later ray.init() calls on
        # this machine; `ray stop` would remove it, killing the processes does not.
        current = "/tmp/ray/ray_current_cluster"
        if os.path.exists(current) and open(current).read().strip().endswith(f":{port}"):
            os.remove(current)
        shutil.rmtree(tmp, ignore_errors=True)
        if _SAVED_AUTH_MODE is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = _SAVED_AUTH_MODE


PARAMS = fhec.Params(logN=12, logQ=200, logp=30, slots=64, security="none")


def model(x, w):
    y = x * w
    return y + 0.5 * y.rotate(1)


@pytest.fixture(scope="module")
def setup():
    f = fhec.compile(PARAMS, target="cpu", threads=1)(model)
    ctx = fhec.Context(PARAMS)
    ctx.keys_for(f)
    rng = np.random.default_rng(2026)
    batch = [(ctx.encrypt(rng.uniform(-1, 1, 64)), ctx.encrypt(rng.uniform(-1, 1, 64))) for _ in range(8)]
    return f, ctx, batch, [f(*item) for item in batch]


def test_batch_bit_identical_to_local_loop(address, setup):
    f, ctx, batch, local = setup
    with fray.Cluster(address, workers=2) as cluster:
        nodes = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
        assert len(nodes) == 2 and len(set(cluster.worker_pids())) == 2
        seen = []
        out = f.map(batch, cluster=cluster, context=ctx.evaluation(), progress=lambda d, t: seen.append((d, t)))
        assert seen[-1] == (len(batch), len(batch))
        assert f.map([], cluster=cluster) == []
    assert len(out) == len(batch)
    assert all(a == b for a, b in zip(out, local))  # bit for bit, in input order
    assert all(o.context.key_set == ctx.key_set for o in out)
    got = ctx.decrypt(out[3])
    x, w = (ctx.decrypt(c) for c in batch[3])
    assert np.abs(got - (x * w + 0.5 * np.roll(x * w, -1))).max() < 1e-3


def _killer(pid, after):
    """A progress callback that SIGKILLs `pid` once `after` items are done,
    and the list it appends to when it has."""
    killed = []

    def progress(done, total):
        if done == after and not killed:
            os.kill(pid, signal.SIGKILL)
            killed.append(done)

    return progress, killed


def test_worker_killed_mid_batch(address, setup):
    f, ctx, batch, local = setup
    items = batch * 3  # 24 items, each worker busy when one is killed
    with fray.Cluster(address, workers=2, max_in_flight=4) as cluster:
        victim = cluster.worker_pids()[0]
        progress, killed = _killer(victim, after=3)
        out = f.map(items, cluster=cluster, progress=progress)
        assert killed
        assert victim not in cluster.worker_pids()  # Ray restarted that worker
    assert len(out) == len(items)  # nothing lost, nothing duplicated, in order
    assert all(a == b for a, b in zip(out, local * 3))


def test_worker_dead_for_good_is_replaced(address, setup):
    f, ctx, batch, local = setup
    with fray.Cluster(address, workers=2, max_restarts=0, max_in_flight=4) as cluster:
        victim = cluster.worker_pids()[1]
        progress, killed = _killer(victim, after=2)
        out = f.map(batch, cluster=cluster, progress=progress)  # the other worker runs the rest
        assert killed and out == local
        pids = cluster.worker_pids()  # a new actor in the dead one's place
        assert len(set(pids)) == 2 and victim not in pids
        assert f.map(batch[:4], cluster=cluster) == local[:4]


def test_corrupted_and_mismatched_items(address, setup):
    f, ctx, batch, local = setup
    good = [c.to_bytes() for c, _ in batch[:4]]
    corrupted = bytearray(good[1])
    corrupted[len(corrupted) // 2] ^= 0x40
    other = fhec.Context(PARAMS).encrypt(np.ones(64))  # another key set
    items = [(good[0], batch[0][1]), (bytes(corrupted), batch[1][1]), batch[2], (other, batch[3][1]), batch[4]]
    with fray.Cluster(address, workers=2) as cluster:
        with pytest.raises(fray.BatchError) as e:
            f.map(items, cluster=cluster, context=ctx)
        assert sorted(e.value.errors) == [1, 3]
        assert "item 1" in str(e.value) and "checksum" in str(e.value.errors[1])
        assert "key set" in str(e.value.errors[3])
        res = e.value.results
        assert res[0] == local[0] and res[2] == local[2] and res[4] == local[4]
        assert res[1] is None and res[3] is None
        # errors="return": the ItemError stands in the failed item's place.
        out = f.map(items, cluster=cluster, context=ctx, errors="return")
        assert isinstance(out[1], fray.ItemError) and out[1].index == 1 and out[4] == local[4]


def test_unreachable_cluster_is_a_clear_error():
    # In a process of its own (this one is connected to the test cluster).
    code = ("import time, fhec.ray as r\nt = time.time()\n"
            f"try:\n    r.Cluster('127.0.0.1:{_free_port()}', timeout=5)\n"
            "except r.ClusterError as e:\n    print('ERR', round(time.time() - t), e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert out.startswith("ERR"), out
    assert "cannot reach the Ray cluster" in out and int(out.split()[1]) < 10


def test_wire_form_is_a_checked_view():
    from fhec import _fhec
    ctx = fhec.Context(PARAMS, reference=True)
    c = ctx.encrypt(np.arange(4.0))
    w = c._ct.wire()
    assert not w[5].flags.writeable and w[5].dtype == np.uint64
    assert _fhec.Ciphertext.from_wire(w, PARAMS._cpp) == c._ct
    for bad, why in [((*w[:5], w[5].astype(np.float64), w[6]), "uint64"),
                     ((*w[:5], w[5][:-1], w[6]), "words"),
                     ((w[0] - 64, *w[1:]), "words"),
                     ((PARAMS.logQ + 1, *w[1:]), "out of range"),
                     (("x", *w[1:]), "integers")]:
        with pytest.raises(fhec.FhecError, match=why):
            _fhec.Ciphertext.from_wire(bad, PARAMS._cpp)
    top = w[5].copy()
    top[3] |= np.uint64(1) << np.uint64(63)  # coefficient 0's top word (logq 200: 8 bits of 64) above 2^logq
    w2 = (*w[:5], top, w[6])
    with pytest.raises(fhec.FhecError, match="not reduced"):
        _fhec.Ciphertext.from_wire(w2, PARAMS._cpp)
