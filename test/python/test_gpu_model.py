"""The GPU cost model's arithmetic (bench/gpu/model.py) on synthetic launches
with known answers: occupancy limits, a coalesced copy at HBM bandwidth, a
stride-32 access, a bank-conflicted tile, issue at the rate its resident warps
allow, a one-block serial kernel, the last wave's tail, the parsing of ptxas -v
and of an ncu report, and the side-by-side comparison with it. (The trace counts themselves are tested on synthetic
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


def tail(blocks, per_sm):
    """The last wave's share beyond a throughput bound: half a wave's time when there are several."""
    waves = blocks / (per_sm * 132)
    return 1 + (model.ASSUMPTIONS["tail_waves"] / -(-waves // 1) if waves > 1 else 0)


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
    assert r["us"] == pytest.approx(2 ** 24 * 16 / DRAM * tail(2 ** 16, 8) * 1e6 + OVERHEAD)


def test_in_place_sectors_cross_dram_twice():
    # x[i] += 1 over 2^24 words: every sector read and written.
    blocks, sectors = 2 ** 16, 2 ** 24 * 8 // 32
    in_place = launch(blocks, traced=8, global_footprint_sectors=sectors, global_read_sectors=sectors,
                      global_written_sectors=sectors)
    r = model.estimate(in_place, {"registers": 16}, H100)
    assert r["bytes"] == 2 * sectors * 32
    assert r["bounds_us"]["dram"] == pytest.approx(2 * sectors * 32 / DRAM * tail(blocks, 8) * 1e6)


def test_issue_bound_at_the_calibrated_rate():
    # 2^16 blocks of 8 warps, 1000 slots each: issue-bound on 132 SMs. At 32 registers an SM
    # holds 64 warps, enough to issue at the schedulers' peak.
    r = model.estimate(launch(2 ** 16, traced=8, issue_slots=8 * 8 * 1000, max_warp_issue_slots=1000),
                       {"registers": 32}, H100)
    assert r["bound"] == "issue"
    rate = model.ASSUMPTIONS["issue_slots_per_clk_per_sm"]
    assert 64 / model.ASSUMPTIONS["issue_latency_clk"] >= rate
    assert r["us"] == pytest.approx(2 ** 16 * 8 * 1000 / (rate * 132 * 1.98e9) * tail(2 ** 16, 8) * 1e6 + OVERHEAD)


def test_issue_rate_follows_resident_warps():
    # The same work at 128 registers a thread: 16 warps an SM, each issuing every
    # issue_latency_clk clocks on average (Little's law), so a quarter of the schedulers' peak.
    work = launch(2 ** 16, traced=8, issue_slots=8 * 8 * 1000, max_warp_issue_slots=1000)
    full = model.estimate(work, {"registers": 32}, H100)
    quarter = model.estimate(work, {"registers": 128}, H100)
    assert quarter["occupancy"] == 0.25
    rate = 16 / model.ASSUMPTIONS["issue_latency_clk"]
    assert quarter["bounds_us"]["issue"] == pytest.approx(
        2 ** 16 * 8 * 1000 / (rate * 132 * 1.98e9) * tail(2 ** 16, 2) * 1e6)
    assert quarter["us"] > 3 * (full["us"] - OVERHEAD)


def test_last_wave_tail():
    # One full wave and a few blocks more: half a wave's time beyond the bound; one wave: none.
    one = model.estimate(copy_launch(8) | {"blocks": 8 * 132, "grid": [8 * 132, 1, 1],
                                           "global_footprint_sectors": 8 * 132 * 16 * 8}, {"registers": 16}, H100)
    assert one["bounds_us"]["dram"] == pytest.approx(8 * 132 * 16 * 8 * 32 / DRAM * 1e6)
    assert one["achieved_occupancy"] == 1.0
    more = model.estimate(copy_launch(8) | {"blocks": 8 * 132 + 8, "grid": [8 * 132 + 8, 1, 1],
                                            "global_footprint_sectors": 8 * 132 * 16 * 8}, {"registers": 16}, H100)
    assert more["bounds_us"]["dram"] == pytest.approx(one["bounds_us"]["dram"] * 1.25)
    assert more["achieved_occupancy"] == pytest.approx((8 * 132 + 8) / (8 * 132) / 2)


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
    assert conflicted["us"] == pytest.approx(waves / (132 * 1.98e9) * tail(2 ** 14, 8) * 1e6 + OVERHEAD)
    assert padded["bank_conflict_factor"] == 1
    assert padded["us"] < conflicted["us"] / 4


def test_one_block_serial_kernel_is_latency_bound():
    # One block whose first warp runs a serial chain of 65,536 x 20 slots in registers while
    # its seven other warps wait: the chain's dependent issue (4 clocks a slot) dominates the
    # issue bound (8 resident warps sharing the schedulers' work at issue_latency_clk).
    chain = 65536 * 20
    r = model.estimate(launch(1, threads=256, traced=1, issue_slots=chain + 7 * 10, max_warp_issue_slots=chain),
                       {"registers": 40}, H100)
    assert r["bound"] == "latency"
    assert r["us"] == pytest.approx(chain * 4 / 1.98e9 * 1e6 + OVERHEAD)
    assert r["bounds_us"]["issue"] == pytest.approx((chain + 70) * model.ASSUMPTIONS["issue_latency_clk"] / 8
                                                    / 1.98e9 * 1e6)


def test_one_warp_streaming_is_bandwidth_starved():
    # One warp reading 16 MB: its requests in flight, not HBM, limit it (the bandwidth bounds
    # scale with the resident warps below the saturating occupancy).
    r = model.estimate(launch(1, threads=32, traced=1, issue_slots=65536 * 20, max_warp_issue_slots=65536 * 20,
                              global_requests=65536, global_sectors=65536 * 8, global_bytes=65536 * 256,
                              global_block_sectors=65536 * 8, global_footprint_sectors=65536 * 8),
                       {"registers": 40}, H100)
    assert r["bound"] == "dram"
    share = (1 / 132) * (1 / 64) / model.ASSUMPTIONS["saturating_occupancy"]
    assert r["bounds_us"]["dram"] == pytest.approx(65536 * 256 / (DRAM * share) * 1e6)


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


def test_summary_sets_the_preparations_apart():
    # A sampled trace (fhec-exec --trace-sampled-only) holds the preparations before the call: the
    # module's constants' (fhe-hoist-constants), the evaluation keys' and the encapsulation keys'.
    preps = [model.estimate(dict(copy_launch(8), kernel=k, phase="NTT"), {"registers": 16}, H100)
             for k in ("__fhec_constants_prepare_kernel", "__fhec_evk_prepare_kernel", "__fhec_ek_prepare_38_kernel")]
    call = model.estimate(dict(copy_launch(8), phase="NTT"), {"registers": 16}, H100)
    total = model.summarize(preps + [call, call])
    assert total["key_prep_launches"] == 3
    assert total["key_prep_us"] == pytest.approx(sum(p["us"] for p in preps))
    assert total["call_us"] == pytest.approx(2 * call["us"])
    assert total["call_phases_us"] == {"NTT": pytest.approx(2 * call["us"])}
    assert "the call: 2 launches" in model.table(preps + [call, call], total, H100)
    assert model.summarize([call])["key_prep_launches"] == 0


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


NCU_CSV = '''"ID","Kernel Name","gpu__time_duration.sum","dram__bytes_read.sum","dram__bytes_write.sum","lts__t_bytes.sum","smsp__inst_executed.sum","sm__warps_active.avg.pct_of_peak_sustained_active"
"","","usecond","Mbyte","Kbyte","Gbyte","inst","%"
"0","__fhec_evk_prepare_kernel","161.4","23.2","16,565.0","0.1657","76,492,800","35.8"
"1","k","20.5","268.4","0","0.5","1,000,000","90.0"
'''


def test_parse_ncu_csv():
    spec = importlib.util.spec_from_file_location("gpu_ncu", os.path.join(ROOT, "bench", "gpu", "ncu.py"))
    ncu = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ncu)
    launches = ncu.parse_csv(NCU_CSV)
    assert [l["kernel"] for l in launches] == ["__fhec_evk_prepare_kernel", "k"]
    assert launches[0]["us"] == pytest.approx(161.4)
    assert launches[0]["dram__bytes_write.sum"] == pytest.approx(16.565e6)
    assert launches[1]["lts__t_bytes.sum"] == pytest.approx(0.5e9)
    assert launches[0]["smsp__inst_executed.sum"] == 76492800


def test_compare_sets_key_preparation_apart():
    spec = importlib.util.spec_from_file_location("gpu_ncu", os.path.join(ROOT, "bench", "gpu", "ncu.py"))
    ncu = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ncu)
    work = copy_launch(8) | {"phase": "NTT"}
    r = model.estimate(work, {"registers": 16}, H100)
    text = model.compare([r], [work], ncu.parse_csv(NCU_CSV), {"NTT": 0.0205, "CRT": 0.0})
    lines = text.splitlines()
    row = next(l for l in lines if l.split()[:3] == ["0", "k", "NTT"])
    assert float(row.split()[4]) == pytest.approx(20.5)                  # measured us
    assert float(row.split()[3]) == pytest.approx(r["us"] - OVERHEAD, abs=0.05)
    assert any(l.startswith("key preparation (not part of the call): 1 measured launches") for l in lines)
    assert any(l.split()[:1] == ["NTT"] for l in lines) and not any(l.split()[:1] == ["CRT"] for l in lines)
