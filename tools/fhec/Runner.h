// `fhec run`: compile, generate keys, encrypt inputs, run the compiled module,
// decrypt, check against the plaintext computation and the GMP reference,
// and print per-phase times (the rows of Jung et al. 2021, Table 7).
#pragma once

#include "codegen/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace fhec {

/// Another compilation of the same program, timed against the main one.
struct RunConfig {
  std::string flags;  ///< as given to --compare
  CompileOptions compile;
  unsigned threads = 0;
};

struct RunOptions {
  CompileOptions compile;
  unsigned threads = 0;      ///< threads of the parallel loops; 0: all cores
  std::vector<RunConfig> compare;  ///< further configurations, run in turn with the main one
  unsigned repeat = 1;       ///< timed executions; medians are reported
  std::string function;      ///< empty: the module's only ckks function
  std::string saveDir;       ///< write params/keys/inputs/outputs here
  std::string loadDir;       ///< read params/keys/inputs from here
  bool checkReference = true;
  std::string jsonPath;      ///< also write the results as JSON
  std::string keepModule;    ///< keep the compiled module at this path (profilers need it)
  /// Key generation, encryption and decryption with the GMP reference
  /// instead of the client kernels (codegen/ClientKernels.h).
  bool gmpClient = false;
};

/// Returns the process exit code: 0 when every check passed.
int runProgram(mlir::ModuleOp module, const RunOptions &options);

} // namespace fhec
