"""Compiled functions: bit-identical to the GMP reference, decrypting to the
plaintext computation, with rotations and automatic scale management at
several ring sizes."""

import numpy as np
import pytest

import fhec

SIZES = [
    # logN, logQ, logp, slots
    (10, 200, 30, 8),
    (11, 240, 30, 1024),  # full slots: N/2
    (12, 300, 40, 64),
    (13, 240, 30, 4096),
]


def model(x, y, w):
    """The traced program; also run in the clear on NumPy vectors."""
    a = 0.5 + 0.197 * x - 0.004 * x * x * x + fhec.rotate(y, 1)
    b = fhec.dot(x, w, 4) + fhec.rotate(y, -3) * 0.25
    return a, b - fhec.conj(a) * y


@pytest.mark.parametrize("logN,logQ,logp,slots", SIZES, ids=[f"logN{s[0]}_logQ{s[1]}_slots{s[3]}" for s in SIZES])
def test_bit_identical_to_reference_and_accurate(logN, logQ, logp, slots, rng):
    params = fhec.Params(logN=logN, logQ=logQ, logp=logp, slots=slots, security="none")
    w = rng.uniform(-1, 1, slots)
    f = fhec.compile(params, target="cpu")(lambda x, y: model(x, y, w))
    # Rotations by 1, 1 and 2 (dot), N/2 - 3, and conjugation.
    half = 1 << (logN - 1)
    assert set(f.galois_elements) == {pow(5, r, 4 * half) for r in (1, 2, half - 3)} | {4 * half - 1}
    ctx = fhec.Context(params)
    x, y = rng.uniform(-1, 1, slots), rng.uniform(-1, 1, slots) + 0.5j * rng.uniform(-1, 1, slots)
    cx, cy = ctx.encrypt(x), ctx.encrypt(y)
    got = f(cx, cy)
    want = f.reference(cx, cy)
    assert len(got) == 2
    for g, r in zip(got, want):
        assert g == r, "compiled output differs from the GMP reference"
        assert g.shape == r.shape
    expected = model(x, y, w)
    # The centered key switching keeps three rotations and a conjugation at
    # the top level within 2^-10 (HEAAN's form would leave about (N/pi)
    # sqrt(N) sigma / 2^logp each: README, precision note).
    bound = 2**-10
    for g, e in zip(got, expected):
        err = np.max(np.abs(ctx.decrypt(g, complex=True) - e))
        assert err < bound, err
    # The C++ plaintext evaluation of the traced program agrees with NumPy.
    for p, e in zip(f.plain(x, y), expected):
        assert np.max(np.abs(p - e)) < 1e-9


def test_key_switching_forms(rng):
    """Both forms of key switching compile to their own reference bit for bit;
    they differ, and the centered one is the more precise at the top level."""
    v = rng.uniform(-1, 1, 1024)
    out, errors = {}, {}
    base = fhec.Params(logN=11, logQ=120, logp=30, security="none")
    ctx = fhec.Context(base)
    c = ctx.encrypt(v)
    for form in ("centered", "heaan"):
        params = fhec.Params(logN=11, logQ=120, logp=30, security="none", keyswitch=form)
        assert (params == base) == (form == "centered")
        f = fhec.compile(params, target="cpu")(lambda x: (fhec.rotate(x, 1), x * x))
        assert ('keyswitch = "heaan"' in f.mlir) == (form == "heaan") and 'keyswitch = "centered"' not in f.mlir
        got = f(c)
        assert all(g == r for g, r in zip(got, f.reference(c))), form
        out[form] = got
        errors[form] = np.max(np.abs(ctx.decrypt(got[0]) - np.roll(v, -1)))
    assert out["centered"][0] != out["heaan"][0] and out["centered"][1] != out["heaan"][1]
    assert errors["centered"] < errors["heaan"], errors


def test_hybrid_key_switching(rng, tmp_path):
    """dnum > 1 (hybrid key switching): keys of dnum parts mod P*Q from the
    client kernels, a compiled product and rotations bit-identical to the
    reference and decrypting to the plaintext results, the keys saved and
    loaded with their parts; a context of another dnum is refused."""
    params = fhec.Params(logN=11, logQ=200, logp=30, security="none", dnum=3)
    assert (params.dnum, params.logP) == (3, 67)
    assert "dnum=3" in repr(params) and params != fhec.Params(logN=11, logQ=200, logp=30, security="none")
    f = fhec.compile(params, target="cpu")(lambda x, y: (x * y, *x.rotate([1, 3])))
    assert "dnum = 3" in f.mlir
    ctx = fhec.Context(params)
    v, w = rng.uniform(-1, 1, 1024), rng.uniform(-1, 1, 1024)
    cx, cy = ctx.encrypt(v), ctx.encrypt(w)
    prod, r1, r3 = f(cx, cy)
    ref_prod, ref_r1, ref_r3 = f.reference(cx, cy)
    assert prod == ref_prod and r1 == ref_r1 and r3 == ref_r3
    assert np.max(np.abs(ctx.decrypt(prod) - v * w)) < 1e-3
    assert np.max(np.abs(ctx.decrypt(r3) - np.roll(v, -3))) < 1e-3
    ctx.save(tmp_path / "keys")
    server = fhec.Context.load(tmp_path / "keys", params, secret=False)
    again, _, _ = f(server.ciphertext_from_bytes(cx.to_bytes()), server.ciphertext_from_bytes(cy.to_bytes()))
    assert again == prod
    with pytest.raises(fhec.FhecError):
        f(fhec.Context(fhec.Params(logN=11, logQ=200, logp=30, security="none")).encrypt(v), cy)


def test_rotation_lists_are_hoisted_and_exact(rng):
    """x.rotate([..]) traces one ckks.rotate with one result per offset (a
    right rotation as its left one, an offset 0 as x itself, a repeated
    offset once); compiled (with one shared NTT, fhe-hoist-automorphisms)
    they equal the reference bit for bit and decrypt to the rolled vectors;
    fhec.rotate does the same on NumPy."""
    params = fhec.Params(logN=10, logQ=120, logp=30, slots=64, security="none")
    offsets = [1, 2, 5, -3, 0, 2]
    f = fhec.compile(params, target="cpu")(lambda x: tuple(x.rotate(offsets)))
    assert f.mlir.count("ckks.rotate") == 1
    assert "ckks.rotate %arg0 [1, 2, 5, 509]" in f.mlir
    ctx = fhec.Context(params)
    v = rng.uniform(-1, 1, 64)
    c = ctx.encrypt(v)
    got = f(c)
    assert all(g == r for g, r in zip(got, f.reference(c)))
    for g, k, p in zip(got, offsets, fhec.rotate(v, offsets)):
        assert np.array_equal(p, np.roll(v, -k))
        assert np.max(np.abs(ctx.decrypt(g) - p)) < 2**-10
    with pytest.raises(fhec.TraceError, match="a non-empty list of them"):
        fhec.compile(params, target="cpu")(lambda x: x.rotate([1, 0.5]))
    with pytest.raises(fhec.TraceError, match="a non-empty list of them"):
        fhec.compile(params, target="cpu")(lambda x: x.rotate([]))


def test_scale_management_keeps_the_scale(rng):
    params = fhec.Params(logN=10, logQ=200, logp=30, slots=16, security="none")

    @fhec.compile(params, target="cpu")
    def deep(x):
        return (x * x) * (x * x) * x + x  # depth 3

    assert deep.mlir.count("ckks.rescale") == 4
    ctx = fhec.Context(params)
    v = rng.uniform(-1, 1, 16)
    out = deep(ctx.encrypt(v))
    assert out.logp == 30 and out.logq == 200 - 3 * 30
    assert np.max(np.abs(ctx.decrypt(out) - (v**5 + v))) < 2**-10
    c = ctx.encrypt(v)
    assert deep(c) == deep.reference(c)


def test_inputs_of_other_shapes_retrace(rng):
    params = fhec.Params(logN=10, logQ=200, logp=30, slots=8, security="none")
    f = fhec.compile(params, target="cpu")(lambda x: x * x)
    ctx = fhec.Context(params)
    v = rng.uniform(-1, 1, 8)
    low = ctx.encrypt(v, logq=140)
    out = f(low)
    assert out.logq == 110
    assert out == f.reference(low)
    assert np.max(np.abs(ctx.decrypt(out) - v * v)) < 2**-10


def test_ciphertexts_serialize(small, small_ctx, rng):
    v = rng.uniform(-1, 1, 8)
    c = small_ctx.encrypt(v)
    back = small_ctx.ciphertext_from_bytes(c.to_bytes())
    assert back == c
    assert np.max(np.abs(small_ctx.decrypt(back) - v)) < 1e-6


def test_targets_is_the_compilers_target_table(monkeypatch):
    table = {t["name"]: t for t in fhec.targets()}
    assert list(table) == ["cpu", "cpu-avx512", "cuda", "cuda-emu"]
    assert table["cpu-avx512"]["cpu_features"] == ["avx512f", "avx512dq", "avx512vl", "avx512ifma"]
    assert table["cpu"]["missing_here"] == [] and not table["cpu"]["gpu"]
    assert table["cuda-emu"]["gpu"] and table["cuda-emu"]["emulated"]
    assert [table[t]["word_bits"] for t in table] == [64, 64, 32, 32]
    missing = table["cpu-avx512"]["missing_here"]  # what this CPU lacks, if anything
    monkeypatch.setenv("FHEC_MASK_CPU_FEATURES", "avx512ifma")
    masked = {t["name"]: t for t in fhec.targets()}["cpu-avx512"]["missing_here"]
    assert masked == [f for f in table["cpu-avx512"]["cpu_features"] if f in missing or f == "avx512ifma"]


def test_calls_count_the_bytes_copied_to_and_from_the_device(small, small_ctx, rng):
    """A cuda-emu call copies its ciphertexts from the host to the (emulated)
    device, and its result stays there until it is needed on the host; the
    runtime counts the bytes. A cpu call copies nothing."""
    def square_plus(x, y):
        return x * x + y

    x, y = small_ctx.encrypt(rng.uniform(-1, 1, 8)), small_ctx.encrypt(rng.uniform(-1, 1, 8))
    words = lambda logq: (1 << small.logN) * ((logq + 63) // 64)  # noqa: E731 (a BigInt polynomial's words)
    for target in ("cuda-emu", "cpu"):
        f = fhec.compile(small, target=target)(square_plus)
        assert f.last_call_bytes is None
        out = f(x, y)
        if target == "cpu":
            assert f.last_call_bytes == {"to_device": 0, "to_host": 0}
            assert out.device is None
        else:
            # (ax, bx) of both inputs in, 8-byte words; nothing back.
            assert f.last_call_bytes == {"to_device": 2 * 2 * words(small.logQ) * 8, "to_host": 0}
            assert out.device == "cuda-emu"
            before = fhec.device_transfers()
            assert out == f.reference(x, y)  # compared on the host: copied back once
            after = fhec.device_transfers()
            assert after["to_host"] - before["to_host"] == 2 * words(out.shape[0]) * 8
            assert out == f.reference(x, y) and fhec.device_transfers() == after


def test_a_chain_of_calls_on_the_device_copies_nothing(small, small_ctx, rng):
    """Three cuda-emu calls, each on the last one's result, move no byte
    between the host and the device; decrypting the result copies it back
    once, bit-identical to the same chain on the cpu target."""
    def step(x):
        return x * x + 0.25

    def chain(functions, x):
        for f in functions:
            x = f(x)
        return x

    v = rng.uniform(-1, 1, 8)
    x = small_ctx.encrypt(v)
    shapes = [x.shape]
    for _ in range(2):
        shapes.append((shapes[-1][0] - small.logp, small.logp, small.slots))
    gpu = [fhec.compile(small, target="cuda-emu")(step) for _ in shapes]
    cpu = [fhec.compile(small, target="cpu")(step) for _ in shapes]
    x_dev = x.to_device("cuda-emu")
    assert x_dev.device == "cuda-emu" and x.device is None and x_dev.to_device("cuda-emu") is x_dev
    chain(gpu, x_dev)  # the first calls trace and compile each function for its shape
    before = fhec.device_transfers()
    out = chain(gpu, x_dev)
    assert fhec.device_transfers() == before
    assert [f.last_call_bytes for f in gpu] == [{"to_device": 0, "to_host": 0}] * 3
    assert out.device == "cuda-emu" and out.shape == (shapes[-1][0] - small.logp, small.logp, small.slots)
    got = small_ctx.decrypt(out)
    moved = fhec.device_transfers()
    words = (1 << small.logN) * ((out.logq + 63) // 64)
    assert moved == {"to_device": before["to_device"], "to_host": before["to_host"] + 2 * words * 8}
    assert out == chain(cpu, x)
    want = v
    for _ in range(3):
        want = want * want + 0.25
    assert np.max(np.abs(got[:8] - want)) < 2**-8
    # A ciphertext on the host is copied in by the call; one on the device
    # runs on the cpu target after a copy back.
    assert gpu[0](x) == gpu[0](x_dev)
    assert cpu[1](gpu[0](x_dev)) == cpu[1](cpu[0](x))
    # A call the executor refuses copies nothing: the inputs' types are
    # checked before any of them goes to the device.
    executor = gpu[1]._executors[small_ctx][(shapes[1],)]
    before = fhec.device_transfers()
    with pytest.raises(fhec.FhecError, match="expected logN="):
        executor.run_on_device([x._ct], 1, [])
    assert fhec.device_transfers() == before
