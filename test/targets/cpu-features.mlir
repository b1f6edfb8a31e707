// RUN: fhec %s --target=cpu-avx512 --emit=fhe | FileCheck %s --check-prefix=BASIS
// RUN: fhec %s --target=cpu-avx512 --emit=llvm | FileCheck %s --check-prefix=MANIFEST
// Without AVX-512 (all four features masked, so this runs alike on any CPU): --target=auto picks
// cpu, and a cpu-avx512 module is refused at load time with a clear message
// instead of dying of SIGILL.
// RUN: env FHEC_MASK_CPU_FEATURES=avx512f,avx512dq,avx512vl,avx512ifma fhec %s --target=auto --emit=fhe | FileCheck %s --check-prefix=AUTO-CPU
// RUN: env FHEC_MASK_CPU_FEATURES=avx512f,avx512dq,avx512vl,avx512ifma not fhec run %s --target=cpu-avx512 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: env FHEC_MASK_CPU_FEATURES=avx512f,avx512dq,avx512vl,avx512ifma fhec run %s --target=auto --threads=1 | FileCheck %s --check-prefix=RUN-CPU

!ct = !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 64>
!ct60 = !ckks.ct<logN = 8, logq = 100, logp = 60, slots = 64>
!out = !ckks.ct<logN = 8, logq = 70, logp = 30, slots = 64>

module attributes {ckks.params = #ckks.params<logN = 8, logQ = 100, logp = 30, security = "none">} {
  func.func @he_mul(%a: !ct, %b: !ct) -> !out {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    %1 = ckks.rescale %0 : !ct60 -> !out
    return %1 : !out
  }
}
// fhe-select-basis picks primes below 2^50 for IFMA (the verifier checks
// that every prime has exactly prime_bits bits).
// BASIS: #fhe.basis<min_bits = {{[0-9]+}}, prime_bits = 50, primes = [
// BASIS-NOT: prime_bits = 60
// MANIFEST: target name=cpu-avx512 kernels=host shoup_bits=52 features=avx512f,avx512dq,avx512vl,avx512ifma\0A
// AUTO-CPU-NOT: prime_bits = 50
// AUTO-CPU: prime_bits = 60
// REFUSED: fhec run: error: {{.*}} was compiled for the cpu-avx512 target and needs avx512f, avx512dq, avx512vl, avx512ifma, which this CPU lacks; compile it with --target=cpu (or --target=auto)
// RUN-CPU: [0] -O2 --target=cpu --threads=1
// RUN-CPU: PASS
