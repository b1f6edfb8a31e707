// The pass that attaches the compilation target to a module.
#ifndef FHEC_TARGET_PASSES_TD
#define FHEC_TARGET_PASSES_TD

include "mlir/Pass/PassBase.td"

def FHECAttachTarget : Pass<"fhec-attach-target", "::mlir::ModuleOp"> {
  let summary = "Attach the compilation target to the module (fhe.target)";
  let description = [{
    Sets the module attribute `fhe.target = "<name>"` that every later pass
    and lowering reads (target/Target.h: the prime width, the arithmetic,
    the cost model). The pipeline runs it first; a module without the
    attribute is compiled for the portable `cpu` target. Fails on an
    unknown name.
  }];
  let options = [
    Option<"name", "name", "std::string", /*default=*/"\"cpu\"",
           "The target: cpu, cpu-avx512, cuda or cuda-emu">,
  ];
}

#endif // FHEC_TARGET_PASSES_TD
