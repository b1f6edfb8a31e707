# lit configuration of fhec's compiler tests: FileCheck tests of every op and
# pass (test/dialect, test/passes), pipelines and the driver (test/pipelines, test/tools).
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

# CPU features, for the tests that run cpu-avx512 modules (REQUIRES: avx512ifma);
# the others still compile for every target.
def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()

if {"avx512f", "avx512dq", "avx512vl", "avx512ifma"} <= cpu_flags():
    config.available_features.add("avx512ifma")
