# lit configuration of fhec's compiler tests: FileCheck tests of every op and
# pass (test/dialect, test/abi, test/targets), pipelines and the driver (test/pipelines, test/tools).
import os
import lit.formats

config.name = "fhec"
config.test_format = lit.formats.ShTest(False)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "runtime", "e2e", "Inputs", "Output"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fhec_obj_root, "test")
config.environment["PATH"] = os.pathsep.join(
    [config.fhec_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.substitutions.append(("%fhec_src", config.fhec_src_root))
config.substitutions.append(("%fhec_build", config.fhec_obj_root))

# The targets whose modules run on this CPU, from fhec's one target table
# (fhec --print-targets): tests that run cpu-avx512 modules REQUIRE avx512ifma;
# the others still compile for every target.
import json
import subprocess

def runnable_targets():
    out = subprocess.run([os.path.join(config.fhec_tools_dir, "fhec"), "--print-targets"], capture_output=True,
                         text=True, check=True).stdout
    return {t["name"] for t in json.loads(out) if not t["missing_here"]}

if "cpu-avx512" in runnable_targets():
    config.available_features.add("avx512ifma")

# ptxas from the nvidia-cuda-nvcc-cu12 wheel (scripts/setup.sh installs it in
# the venv): the PTX of --target=cuda is assembled for sm_80 and sm_90
# (REQUIRES: ptxas). Searched next to the Python running lit and on PATH.
import glob
import shutil
import sys

def find_ptxas():
    for base in {sys.prefix, os.path.join(config.fhec_src_root, ".venv")}:
        hits = glob.glob(os.path.join(base, "lib", "python3*", "site-packages", "nvidia", "cuda_nvcc", "bin", "ptxas"))
        if hits:
            return hits[0]
    return shutil.which("ptxas")

config.substitutions.append(("%python", sys.executable))

ptxas = find_ptxas()
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# A CUDA driver with a GPU (tests of `fhec run --target=cuda` without one are
# UNSUPPORTED there).
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass

# The mock CUDA driver (test/runtime/mock-cuda, built where cuda.h is): tests
# of the cuda target's runtime put its directory on LD_LIBRARY_PATH
# (REQUIRES: mock-cuda).
if getattr(config, "mock_cuda_dir", "") and os.path.exists(os.path.join(config.mock_cuda_dir, "libcuda.so.1")):
    config.available_features.add("mock-cuda")
    config.substitutions.append(("%mock_cuda_dir", config.mock_cuda_dir))

# fhec-exec built with ThreadSanitizer (scripts/sanitize.sh builds
# build-tsan/ and passes --param tsan-exec=...): runs cuda-emu modules
# compiled with --sanitize=thread (REQUIRES: tsan-exec).
tsan_exec = lit_config.params.get("tsan-exec")
if tsan_exec:
    if not os.path.exists(tsan_exec):
        lit_config.fatal("--param tsan-exec=%s: no such file" % tsan_exec)
    config.available_features.add("tsan-exec")
    config.substitutions.append(("%tsan_exec", tsan_exec))
