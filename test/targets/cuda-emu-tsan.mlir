// REQUIRES: tsan-exec
// RUN: rm -rf %t && fhec run %s --target=cuda-emu --save=%t | FileCheck %s --check-prefix=SAVED
// RUN: fhec %s --target=cuda-emu --sanitize=thread -o %t/clean.so
// RUN: %tsan_exec %t/clean.so %t 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %tsan_exec %t/clean.so %t --on-device --repeat=2 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: fhec %s --target=cuda-emu --sanitize=thread --pass-option='fhe-to-loops{drop-gpu-barrier=true}' -o %t/racy.so
// RUN: not %tsan_exec %t/racy.so %t 2>&1 | FileCheck %s --check-prefix=RACY
// RUN: rm -rf %t12 && fhec run %S/Inputs/mul-logN12.mlir --target=cuda-emu --save=%t12 | FileCheck %s --check-prefix=SAVED
// RUN: fhec %S/Inputs/mul-logN12.mlir --target=cuda-emu --sanitize=thread -o %t12/clean.so
// RUN: %tsan_exec %t12/clean.so %t12 2>&1 | FileCheck %s --check-prefix=CLEAN
// The ThreadSanitizer check of the GPU kernels (scripts/sanitize.sh runs it
// with build-tsan/bin/fhec-exec): HE Mul's kernels, instrumented, run on the
// CPU with real block, thread, shared-memory and barrier semantics, race-free
// and bit-identical to the outputs `fhec run` saved, also on ciphertexts kept
// on the device (--on-device) (N = 2^10: one NTT level;
// N = 2^12: two); without the barrier before each NTT level's last
// sub-level, TSan reports the race.

!ct = !ckks.ct<logN = 10, logq = 120, logp = 30, slots = 512>
!ct60 = !ckks.ct<logN = 10, logq = 120, logp = 60, slots = 512>
!out = !ckks.ct<logN = 10, logq = 90, logp = 30, slots = 512>

module attributes {ckks.params = #ckks.params<logN = 10, logQ = 120, logp = 30, security = "none">} {
  func.func @he_mul(%a: !ct, %b: !ct) -> !out {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    %1 = ckks.rescale %0 : !ct60 -> !out
    return %1 : !out
  }
}
// SAVED: GMP reference [0]: bit-identical

// CLEAN-NOT: ThreadSanitizer
// CLEAN: output 0: bit-identical
// CLEAN-NOT: ThreadSanitizer

// RACY: WARNING: ThreadSanitizer: data race
