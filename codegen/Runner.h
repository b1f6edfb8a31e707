// `fhec run`: compile, generate keys, encrypt inputs, run the compiled module,
// decrypt, check against the plaintext computation and the GMP reference,
// and print per-phase times (the rows of Jung et al. 2021, Table 7).
#pragma once

#include "codegen/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace fhec {

struct RunOptions {
  CompileOptions compile;
  unsigned repeat = 1;       ///< timed executions; medians are reported
  std::string function;      ///< empty: the module's only ckks function
  std::string saveDir;       ///< write params/keys/inputs/outputs here
  std::string loadDir;       ///< read params/keys/inputs from here
  bool checkReference = true;
  std::string jsonPath;      ///< also write the results as JSON
  std::string keepModule;    ///< keep the compiled module at this path (profilers need it)
};

/// Returns the process exit code: 0 when every check passed.
int runProgram(mlir::ModuleOp module, const RunOptions &options);

} // namespace fhec
