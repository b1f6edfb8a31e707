// fhec-opt: mlir-opt with fhec's dialects, passes and pipelines (for lit tests).
#include "abi/Passes.h"
#include "codegen/Pipeline.h"
#include "conversion/Passes.h"
#include "dialect/CKKS/Transforms/Passes.h"
#include "dialect/FHE/Transforms/Passes.h"
#include "target/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  fhec::registerDialects(registry);
  fhec::registerCKKSPasses();
  fhec::registerFHEPasses();
  fhec::registerTargetPasses();
  fhec::registerABIPasses();
  fhec::registerFHECConversionPasses();
  fhec::registerPipelines();
  mlir::registerTransformsPasses();
  mlir::registerConversionPasses();
  mlir::registerGPUPasses();
  mlir::registerSCFPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "fhec optimizer driver\n", registry));
}
