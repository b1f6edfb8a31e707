// RUN: not fhec-opt --fhe-merge-ntt-levels="radix-log=17" %s 2>&1 | FileCheck %s --check-prefix=RADIX
// RUN: not fhec-opt --fhe-merge-ntt-levels="skip-levels=16" %s 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: not fhec-opt --fhe-merge-ntt-levels="skip-levels=4 radix-log=13" %s 2>&1 | FileCheck %s --check-prefix=SKIPRADIX
// RUN: not fhec-opt --fhe-merge-ntt-levels="levels=4,4" %s 2>&1 | FileCheck %s --check-prefix=SUM
// RUN: not fhec-opt --fhe-merge-ntt-levels="levels=0,16" %s 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not fhec-opt --fhe-merge-ntt-levels="radix-log=x" %s 2>&1 | FileCheck %s --check-prefix=PARSE

!c = !fhe.rns<logN = 16, basis = <min_bits = 50>, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 16, basis = <min_bits = 50>, domain = eval, layout = prime_major>
func.func @f(%x: !c) -> !e {
  %0 = fhe.ntt %x : !c -> !e
  return %0 : !e
}
// RADIX: error: fhe-merge-ntt-levels: radix-log = 17 is above the 16 stages of the NTT (logN = 16, 0 skipped)
// SKIP: error: fhe-merge-ntt-levels: skip-levels = 16 leaves no stage of the 16 of a 2^16-point NTT (it must be below 16)
// SKIPRADIX: error: fhe-merge-ntt-levels: radix-log = 13 is above the 12 stages of the NTT (logN = 16, 4 skipped)
// SUM: error: fhe-merge-ntt-levels: levels cover 8 stages, the NTT has 16
// ZERO: error: fhe-merge-ntt-levels: a level of 0 stages is outside [1, 16]
// PARSE: for the --radix-log option: 'x' value invalid for uint argument
