// fhec-attach-target (declared in Passes.td beside this file).
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace fhec {

#define GEN_PASS_DECL
#include "target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "target/Passes.h.inc"

} // namespace fhec
