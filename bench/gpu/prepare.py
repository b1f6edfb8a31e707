#!/usr/bin/env python3
"""Builds the bundle the GPU benchmark runs on a lent GPU machine (bench/gpu/run.py).

The GPU machines have CUDA, cmake and ninja but no LLVM/MLIR: everything is
compiled here. For each case (HE Mul + rescale at logN 12, 14 and the paper's
logN 16; bootstrapping at logN 16 with 8 and 2^15 slots; the repository's
programs of PROGRAMS below) the bundle holds the
program compiled for --target=cuda (PTX for --gpu-arch) and for --target=cpu
(the oracle: results do not depend on the target, and the cpu build is
checked against the GMP reference by the e2e tests), plus fhec-exec and the
runtime with the shared libraries they need.
Keys and inputs are made on the GPU machine (fhec-exec --random): at the
paper's size they would not fit the 64 MiB a run may carry.

With --avx512 the bundle also holds cases for the lent machine's CPU (its
hosts have had AVX-512 IFMA, which the machines fhec is built on may lack):
programs compiled for --target=cpu-avx512 (avx512*.so) beside the cpu oracle,
run one thread: one and eight rotations at the paper's size (hoisted, and
with fhe-hoist-automorphisms disabled) and test/tools' linear_transform +
poly_eval program. run.py checks them bit for bit like the GPU cases.

Usage: bench/gpu/prepare.py [--out bench/gpu/bundle] [--gpu-arch sm_90] [--build build]
                            [--target cuda] [--cases he_mul_logN12 ...] [--avx512]
(--target cuda-emu: a bundle that runs the same check on this machine's CPU, small cases only.)
Then, on the lent machine (the `run` tool of /work/.library/device):
  run(command="python3 bench/gpu/run.py bench/gpu/bundle $OUT", carry=["bench/gpu/bundle"])
Exit status: non-zero if a compilation fails.
"""
import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

PROGRAM = """\
!ct = !ckks.ct<logN = {logN}, logq = {logQ}, logp = 30, slots = {slots}>
!ct60 = !ckks.ct<logN = {logN}, logq = {logQ}, logp = 60, slots = {slots}>
!out = !ckks.ct<logN = {logN}, logq = {logq_out}, logp = 30, slots = {slots}>
module attributes {{ckks.params = #ckks.params<logN = {logN}, logQ = {logQ}, logp = 30, security = "none">}} {{
  func.func @he_mul(%a: !ct, %b: !ct) -> !out {{
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    %1 = ckks.rescale %0 : !ct60 -> !out
    return %1 : !out
  }}
}}
"""

# (name, logN, logQ): the paper's parameters last (Jung et al. 2021, Table 6).
CASES = [("he_mul_logN12", 12, 300), ("he_mul_logN14", 14, 600), ("he_mul_paper", 16, 1200)]

# Bootstrapping at logN 16 (docs/bootstrapping.md) with parameters fhec estimates 128-bit secure for
# its default uniform ternary secret (sparse-secret encapsulation): (name, slots, logQ, dnum,
# x.bootstrap's arguments). The 2026-12-04 H200 measurements ran the same bootstraps with h = 64.
BOOTSTRAPS = [("bootstrap_8_slots", 8, 880, 2, {"mod_logq": 42, "log_scale": 46}),
              ("bootstrap_full_slots", 1 << 15, 1060, 2, {"mod_logq": 38, "log_scale": 55, "level_budget": [3, 3]})]


def bootstrap_program(slots, logQ, dnum, arguments, logN=16):
    """The ckks program of x.bootstrap(**arguments), traced by the Python frontend (not compiled)."""
    sys.path.insert(0, str(ROOT / "python"))
    import fhec  # noqa: E402
    from fhec.tracing import Trace  # noqa: E402
    params = fhec.Params(logN=logN, logQ=logQ, logp=30, slots=slots, dnum=dnum)
    where = ("bench/gpu/prepare.py", 1, 1)
    trace = Trace(params, "bootstrap", [(logQ, 30, slots)], where)
    return trace.finish(trace.inputs[0].bootstrap(**arguments), where).mlir(False)


# The repository's programs that exercise the other GPU kernels (key switching
# for rotations and conjugation, plaintext operands, linear transforms,
# polynomial evaluation, a 1030-bit scale), checked bit for bit on the GPU the
# same way: (name, path from the repository's root).
PROGRAMS = [("rotations_paper", "examples/rotations.mlir"), ("sigmoid", "examples/sigmoid.mlir"),
            ("scheme_ops", "test/tools/fhec-scheme-ops.mlir"),
            ("matrices_polynomials", "test/tools/fhec-matrices-polynomials.mlir"),
            ("large_scale", "test/tools/fhec-large-scale.mlir")]


def transform_counts(fhe_text, word_bits):
    """Prime-row transforms and level passes of the NTTs and iNTTs of an --emit=fhe module,
    and the bytes of one residue word in the module's memory (the target's word_bits).

    Each fhe.ntt / fhe.intt transforms one row per prime of its basis; each of
    its levels is one launch that reads and writes every residue once. The
    preparations the runtime runs when the module or the keys load (__fhec_*)
    are not part of a call and are not counted.
    """
    primes = {m.group(1): len(m.group(2).split(","))
              for m in re.finditer(r"^(#rns_basis\d*) = #fhe.basis<.*primes = \[([^\]]*)\]", fhe_text, re.M)}
    fhe_text = "".join(f for f in re.split(r"(?m)^(?=  func\.func @)", fhe_text) if not f.startswith("  func.func @__fhec_"))
    counts = {"NTT": {"rows": 0, "row_passes": 0}, "iNTT": {"rows": 0, "row_passes": 0}, "word_bytes": word_bits // 8}
    for m in re.finditer(r"fhe\.(ntt|intt) .*\{levels = array<i64: ([0-9, ]+)>\}.*-> <.*basis = (#rns_basis\d*)",
                         fhe_text):
        c = counts["NTT" if m.group(1) == "ntt" else "iNTT"]
        rows = primes[m.group(3)]
        c["rows"] += rows
        c["row_passes"] += rows * len(m.group(2).split(","))
    return counts


def rotations_program(offsets, logN=16, logQ=1200):
    """k rotations of one ciphertext (bench/rotations' program) at the paper's size."""
    sys.path.insert(0, str(ROOT / "bench"))
    from rotations.bench import PROGRAM as ROTATIONS  # noqa: E402
    return ROTATIONS.render(logN=logN, logQ=logQ, slots=1 << (logN - 1), offsets=offsets)


# (name, program, {module: extra fhec flags}): cpu-avx512 builds checked against the cpu build.
def avx512_cases():
    nohoist = ["--disable-pass=fhe-hoist-automorphisms"]
    return [("avx512_rotate1_paper", rotations_program([1]), {"avx512": []}),
            ("avx512_rotate8_paper", rotations_program(list(range(1, 9))), {"avx512": [], "avx512-nohoist": nohoist}),
            ("avx512_matrices_polynomials", (ROOT / "test" / "tools" / "fhec-matrices-polynomials.mlir").read_text(),
             {"avx512": []})]


def compile_module(fhec, program, target, so, extra):
    cmd = [str(fhec), str(program), "--target=" + target, "-O2", "-o", str(so)] + extra
    print("prepare:", " ".join(cmd[1:]), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"prepare: compiling {program} for {target} failed:\n{p.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "bench" / "gpu" / "bundle"))
    ap.add_argument("--gpu-arch", default="sm_90", choices=["sm_80", "sm_90"])
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--target", default="cuda", choices=["cuda", "cuda-emu"])
    names = [c[0] for c in CASES + BOOTSTRAPS + PROGRAMS]
    ap.add_argument("--cases", nargs="+", choices=names, default=names)
    ap.add_argument("--avx512", action="store_true", help="also the cpu-avx512 cases for the machine's CPU")
    args = ap.parse_args()
    build = pathlib.Path(args.build)
    fhec, fhec_exec = build / "bin" / "fhec", build / "bin" / "fhec-exec"
    runtime = [build / "lib" / "libfhec_runtime.so", build / "lib" / "libfhec_runtime_core.so"]
    for f in [fhec, fhec_exec] + runtime:
        if not f.exists():
            sys.exit(f"prepare: {f} is missing: build fhec first (scripts/setup.sh)")
    out = pathlib.Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    (out / "bin").mkdir(parents=True)
    (out / "lib").mkdir()
    shutil.copy2(fhec_exec, out / "bin")
    for lib in runtime:
        shutil.copy2(lib, out / "lib")
    targets = {t["name"]: t for t in json.loads(subprocess.run([str(fhec), "--print-targets"], capture_output=True,
                                                                text=True, check=True).stdout)}
    for name, logN, logQ in (c for c in CASES if c[0] in args.cases):
        case = out / "cases" / name
        case.mkdir(parents=True)
        program = case / "program.mlir"
        program.write_text(PROGRAM.format(logN=logN, logQ=logQ, logq_out=logQ - 30, slots=1 << (logN - 1)))
        fhe = subprocess.run([str(fhec), str(program), "--target=cuda", "--emit=fhe"], capture_output=True, text=True,
                             check=True).stdout
        (case / "transforms.json").write_text(json.dumps(transform_counts(fhe, targets["cuda"]["word_bits"])))
        for target, so, extra in ((args.target, "gpu.so", ["--gpu-arch=" + args.gpu_arch]), ("cpu", "cpu.so", [])):
            compile_module(fhec, program, target, case / so, extra)
    programs = [(name, (ROOT / path).read_text()) for name, path in PROGRAMS if name in args.cases]
    programs += [(name, bootstrap_program(*rest)) for name, *rest in BOOTSTRAPS if name in args.cases]
    for name, text in programs:
        case = out / "cases" / name
        case.mkdir(parents=True)
        program = case / "program.mlir"
        program.write_text(text)
        for target, so, extra in ((args.target, "gpu.so", ["--gpu-arch=" + args.gpu_arch]), ("cpu", "cpu.so", [])):
            compile_module(fhec, program, target, case / so, extra)
    for name, text, modules in avx512_cases() if args.avx512 else []:
        case = out / "cases" / name
        case.mkdir(parents=True)
        program = case / "program.mlir"
        program.write_text(text)
        compile_module(fhec, program, "cpu", case / "cpu.so", [])
        for module, extra in modules.items():
            compile_module(fhec, program, "cpu-avx512", case / (module + ".so"), extra)
    # The libraries fhec-exec and the modules need beyond glibc and libstdc++
    # (GMP; libomp, which every module links; OpenSSL's libcrypto, the CSPRNG), in case the GPU machine lacks them.
    for binary in [fhec_exec] + sorted(out.rglob("*.so")):
        ldd = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True).stdout
        for line in ldd.splitlines():
            lib = line.split("=>")[1].split()[0] if "=>" in line else ""
            if any(n in lib for n in ("libgmp", "libomp", "libcrypto")) and not (out / "lib" / pathlib.Path(lib).name).exists():
                shutil.copy2(lib, out / "lib")
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"prepare: {out} holds {size / 2**20:.1f} MiB (a device run carries at most 64 MiB)")


if __name__ == "__main__":
    main()
