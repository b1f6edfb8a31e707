// ckks.bootstrap's parameters (dialect/CKKS/Transforms/Bootstrap.h), apart so that
// ScaleManager can hold the ones it places automatically.
#pragma once

#include "llvm/ADT/SmallVector.h"

namespace fhec {

struct BootstrapConfig {
  unsigned modLogq = 0;       ///< log2 q0, the modulus the input is raised from (bits)
  unsigned bound = 16;        ///< |I| <= bound on EvalMod's input integers
  unsigned degree = 31;       ///< the Chebyshev interpolant's degree (2^5 - 1: depth 5)
  unsigned doubleAngles = 4;  ///< double-angle steps after it
  unsigned logScale = 0;      ///< the working scale (bits), from CoeffToSlot on
  /// CoeffToSlot's and SlotToCoeff's levels, factored; empty: dense (one
  /// level each) up to 32 sparse slots, factored into {3, 3} (at most log2
  /// slots) beyond and for full slots.
  llvm::SmallVector<unsigned, 2> levelBudget;
};

} // namespace fhec
