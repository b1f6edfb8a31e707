#ifndef FHEC_MODARITH_DIALECT_TD
#define FHEC_MODARITH_DIALECT_TD

include "mlir/IR/OpBase.td"

def ModArith_Dialect : Dialect {
  let name = "modarith";
  let cppNamespace = "::fhec::modarith";
  let summary = "Modular arithmetic on W-wide words with lazy-reduction ranges";
  let description = [{
    The layer between fhec's kernel loops and a target's integer arithmetic
    (docs/design.md, "Lowering structure"). Values are integers or vectors of
    integers (W = 1 for scalar code, 8 lanes for AVX-512, one per GPU thread);
    the modulus p is an operand of the same type, since it changes with the
    RNS index inside a loop. Each op states the range its inputs may take and
    the range of its result as multiples of p (`in`, `out`: powers of two),
    so a target can keep values lazily reduced in [0, 2p) or [0, 4p) (Harvey).
    Shoup constants are floor(w * 2^beta / p) for the target's multiplier
    width beta (the word width for 64- and 32-bit targets, 52 for IFMA).
    `modarith-to-arith` expands the ops for the portable targets.
  }];
}

#endif
