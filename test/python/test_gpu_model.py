"""The GPU cost model's arithmetic (bench/gpu/model.py) on synthetic launches
with known answers: occupancy limits, a coalesced copy at HBM bandwidth, a
stride-32 access, a bank-conflicted tile, a one-block serial kernel, and the
parsing of ptxas -v. (The trace counts themselves are tested on synthetic
kernels in test/runtime/GpuTraceTest.cpp, the whole flow in
test/targets/cuda-cost-model.mlir.)"""

import importlib.util
import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
spec = importlib.util.spec_from_file_location("gpu_model", os.path.join(ROOT, "bench", "gpu", "model.py"))
model = importlib.util.module_from_spec(spec)
spec.loader.exec_module(model)

H100 = model.DEVICES["h100-sxm"]
OVERHEAD = model.ASSUMPTIONS["launch_overhead_us"]
DRAM = 3.35e12 * model.ASSUMPTIONS["dram_efficiency"]  # the bandwidth the model expects to sustain


def launch(blocks, threads=256, traced=8, **counts):
    """A traced launch as the runtime reports it (fhec/runtime/GpuTrace.h)."""
    fields = dict(kernel="k", phase="", grid=[blocks, 1, 1], block=[threads, 1, 1], blocks=blocks,
                  traced_blocks=traced, traced_warps=traced * threads // 32, issue_slots=0, max_warp_issue_slots=0,
                  global_requests=0, global_sectors=0, global_bytes=0, global_block_sectors=0,
                  global_footprint_sectors=0, local_requests=0, local_sectors=0, local_bytes=0, shared_requests=0,
                  shared_wavefronts=0, shared_ideal_wavefronts=0)
    fields.update(counts)
    return fields


@pytest.mark.parametrize("threads, registers, shared, expected", [
    (256, 32, 0, (8, 1.0, "warps")),           # 8 blocks of 8 warps fill the SM's 64
    (256, 128, 0, (2, 0.25, "registers")),     # 4096 registers per warp: 16 warps
    (32, 20, 0, (32, 0.5, "blocks")),          # the 32-block limit: 32 warps
    (128, 32, 48 * 1024, (4, 0.25, "shared")), # 48 KiB + 1 KiB reserved: 4 blocks in 228 KiB
    (256, 255, 0, (1, 0.125, "registers")),
])
def test_occupancy(threads, registers, shared, expected):
    assert model.occupancy(threads, registers, shared, H100) == expected


def copy_launch(sectors_per_request):
    # out[i] = in[i] for 2^24 8-byte words: 65,536 blocks of 256 threads, 8 traced.
    blocks, traced = 2 ** 16, 8
    requests = traced * 8 * 2  # warps x (load, store)
    return launch(blocks, traced=traced, issue_slots=traced * 8 * 10, max_warp_issue_slots=10,
                  global_requests=requests, global_sectors=requests * sectors_per_request,
                  global_bytes=requests * 256, global_block_sectors=requests * sectors_per_request,
                  global_footprint_sectors=blocks * 8 * 2 * sectors_per_request)


def test_coalesced_copy_runs_at_hbm_bandwidth():
    r = model.estimate(copy_launch(8), {"registers": 16}, H100)
    assert r["sector_efficiency"] == 1.0
    assert r["bytes"] == 2 ** 24 * 16
    assert r["bound"] == "dram"
    assert r["us"] == pytest.approx(2 ** 24 * 16 / DRAM * 1e6 + OVERHEAD)


def test_in_place_sectors_cross_dram_twice():
    # x[i] += 1 over 2^24 words: every sector read and written.
    blocks, sectors = 2 ** 16, 2 ** 24 * 8 // 32
    in_place = launch(blocks, traced=8, global_footprint_sectors=sectors, global_read_sectors=sectors,
                      global_written_sectors=sectors)
    r = model.estimate(in_place, {"registers": 16}, H100)
    assert r["bytes"] == 2 * sectors * 32
    assert r["bounds_us"]["dram"] == pytest.approx(2 * sectors * 32 / DRAM * 1e6)


def test_issue_bound_at_the_calibrated_rate():
    # 2^16 blocks of 8 warps, 1000 slots each: issue-bound on 132 SMs.
    r = model.estimate(launch(2 ** 16, traced=8, issue_slots=8 * 8 * 1000, max_warp_issue_slots=1000),
                       {"registers": 32}, H100)
    assert r["bound"] == "issue"
    rate = model.ASSUMPTIONS["issue_slots_per_clk_per_sm"]
    assert r["us"] == pytest.approx(2 ** 16 * 8 * 1000 / (rate * 132 * 1.98e9) * 1e6 + OVERHEAD)


def test_stride_32_moves_four_times_the_bytes():
    coalesced = model.estimate(copy_launch(8), {"registers": 16}, H100)
    strided = model.estimate(copy_launch(32), {"registers": 16}, H100)
    assert strided["sector_efficiency"] == 0.25
    assert strided["bytes"] == 4 * coalesced["bytes"]
    assert strided["us"] - OVERHEAD == pytest.approx(4 * (coalesced["us"] - OVERHEAD))


def test_bank_conflicted_tile_is_shared_bound():
    # 2^14 blocks, each warp reads 64 columns of a 32x32 tile: 32 wavefronts per request.
    counts = dict(shared_requests=8 * 8 * 64, issue_slots=8 * 8 * 70, max_warp_issue_slots=70)
    conflicted = model.estimate(launch(2 ** 14, shared_wavefronts=8 * 8 * 64 * 32,
                                       shared_ideal_wavefronts=8 * 8 * 64, **counts), {"registers": 32}, H100)
    padded = model.estimate(launch(2 ** 14, shared_wavefronts=8 * 8 * 64, shared_ideal_wavefronts=8 * 8 * 64,
                                   **counts), {"registers": 32}, H100)
    assert conflicted["bank_conflict_factor"] == 32
    assert conflicted["bound"] == "shared"
    waves = (2 ** 14 / 8) * (8 * 8 * 64 * 32)  # scaled from the 8 traced blocks
    assert conflicted["us"] == pytest.approx(waves / (132 * 1.98e9) * 1e6 + OVERHEAD)
    assert padded["bank_conflict_factor"] == 1
    assert padded["us"] < conflicted["us"] / 4


def test_one_block_serial_kernel_is_latency_bound():
    # One block whose threads loop over 65,536 elements: one SM works, one warp's chain dominates.
    # Each thread reads its own 8-byte words (one 256-byte row per warp request).
    r = model.estimate(launch(1, threads=32, traced=1, issue_slots=65536 * 20, max_warp_issue_slots=65536 * 20,
                              global_requests=65536, global_sectors=65536 * 8, global_bytes=65536 * 256,
                              global_block_sectors=65536 * 8, global_footprint_sectors=65536 * 8),
                       {"registers": 40}, H100)
    assert r["bound"] == "latency"
    assert r["us"] == pytest.approx(65536 * 20 * 4 / 1.98e9 * 1e6 + OVERHEAD)
    assert max(v for k, v in r["bounds_us"].items() if k != "latency") < r["bounds_us"]["latency"] / 2


def test_local_memory_in_registers_moves_nothing():
    # An emulated per-thread array that ptxas keeps in registers (0-byte stack frame).
    counts = dict(local_requests=64, local_sectors=64 * 8, local_bytes=64 * 256)
    assert model.estimate(launch(64, **counts), {"registers": 32, "stack": 0}, H100)["l2_bytes"] == 0
    assert model.estimate(launch(64, **counts), {"registers": 32, "stack": 16}, H100)["l2_bytes"] == 64 * 8 * 32 * 8


def test_footprint_beyond_l2_misses_in_proportion():
    # 64 MiB of distinct data, each block re-reading 4096 sectors through its L1.
    blocks, footprint = 2 ** 16, 64 << 20
    big = launch(blocks, traced=8, global_block_sectors=8 * 4096, global_sectors=8 * 4096,
                 global_footprint_sectors=footprint // 32)
    r = model.estimate(big, {"registers": 32}, H100)
    assert not r["footprint_fits_l2"]
    l2 = blocks * 4096 * 32
    assert r["l2_bytes"] == l2
    assert r["bytes"] == pytest.approx(footprint + (l2 - footprint) * (footprint - (50 << 20)) / footprint)
    # Within the L2, only the footprint reaches DRAM.
    small = launch(blocks, traced=8, global_block_sectors=8 * 4096, global_sectors=8 * 4096,
                   global_footprint_sectors=(32 << 20) // 32)
    assert model.estimate(small, {"registers": 32}, H100)["bytes"] == 32 << 20


def test_summary_flags_heavy_kernels():
    rows = [model.estimate(copy_launch(8), {"registers": 16}, H100),
            model.estimate(copy_launch(32), {"registers": 128, "stack": 64}, H100)]
    total = model.summarize(rows)
    assert total["launches"] == 2
    assert total["heavy_kernels"] == 2
    assert total["heavy_min_sector_efficiency"] == 0.25
    assert total["heavy_min_occupancy"] == 0.25
    assert total["max_stack"] == 64
    lines = model.table(rows, total, H100).splitlines()
    assert lines[2].split()[:6] == ["0", "k", "65536", "x", "256", f"{2 ** 24 * 16 / 1e6:.2f}"]
    assert lines[-3].startswith("total: 2 launches")


def test_parse_ptxas():
    text = """ptxas info    : Compiling entry function 'a' for 'sm_90'
ptxas info    : Function properties for a
    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 8192 bytes smem, 380 bytes cmem[0]
ptxas info    : Compiling entry function 'b' for 'sm_90'
ptxas info    : Function properties for b
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 0 barriers, 368 bytes cmem[0]
"""
    assert model.parse_ptxas(text) == {
        "a": {"registers": 40, "shared": 8192, "stack": 16, "spills": 12},
        "b": {"registers": 12, "shared": 0, "stack": 0, "spills": 0},
    }
