// The ckks-level transforms: scale management and the expansion of bootstrapping and polynomial evaluation.
#ifndef FHEC_CKKS_TRANSFORMS_PASSES_TD
#define FHEC_CKKS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CKKSManageScale : Pass<"ckks-manage-scale", "::mlir::ModuleOp"> {
  let summary = "Insert rescales after products and align the levels and scales of operands";
  let description = [{
    Scale management of ckks programs (HEAAN's usage, Cheon et al. 2017,
    Section 3): every product (mul, mul_const, mul_plain) whose scale exceeds
    the module's 2^logp is rescaled back to it, dividing q by the excess
    with rounding (`ckks.rescale {round}`; a program's own rescale keeps its form);
    the operands of mul are brought to one level (mod_down of the higher),
    those of add and sub also to one scale (the larger rescaled down).
    Results and their types propagate to the function's results. A product
    that the program rescales itself (a ckks.rescale among its users) keeps
    its scale; explicit mod_downs are kept when they still lower the level.
    Management divides a value, its modulus and its scale by the same 2^k,
    so a valid unmanaged program (every product's scale below its modulus)
    never runs out of modulus here; the Python tracer, which builds programs
    through the same logic (ScaleManager.h) op by op, reports running
    out as "too little depth left" at the op that needs it.
    ```mlir
    // x^3 + x, unmanaged:                      // managed:
    %0 = ckks.mul %x, %x    -> logp 60          // %0 = mul, rescale -> logq 210, logp 30
    %1 = ckks.mul %0, %x    -> logp 90          // mod_down %x to 210, mul, rescale -> 180
    %2 = ckks.add %1, %x    -> logp 90          // mod_down %x to 180, add
    ```
  }];
  let dependentDialects = ["::fhec::ckks::CKKSDialect"];
}

def CKKSExpandBootstrap : Pass<"ckks-expand-bootstrap", "::mlir::ModuleOp"> {
  let summary = "Expand ckks.bootstrap into ModRaise, SubSum, CoeffToSlot, EvalMod and SlotToCoeff";
  let description = [{
    Each `ckks.bootstrap` becomes the managed sequence of Bootstrap.h
    (Cheon, Han, Kim, Kim, Song 2018 with Han-Ki 2020's EvalMod), whose
    polynomial evaluation is built directly (no ckks.poly_eval left). This
    sequence is the op's semantics: the GMP reference and every target
    evaluate it. The op's declared result type must be the one the sequence
    gives (the diagnostic names it).
  }];
  let dependentDialects = ["::fhec::ckks::CKKSDialect"];
}

def CKKSExpandPolyEval : Pass<"ckks-expand-poly-eval", "::mlir::ModuleOp"> {
  let summary = "Expand ckks.poly_eval into its baby-step giant-step sequence of managed ckks ops";
  let description = [{
    Each `ckks.poly_eval` becomes the Chebyshev baby-step giant-step
    evaluation of PolyEval.h (Bossuat et al. 2021, Algo. 2, with a
    depth budget per part so the depth is ceil(log2(d + 1))), built through
    ScaleManager: every product is rescaled to the module's scale, operands
    are aligned by mod_down. This sequence is the op's semantics: the GMP
    reference and every target evaluate it. The op's declared result type
    must be the one the sequence gives (the diagnostic names it).
    ```mlir
    // x^3 on [-1, 1] (T_3 = 4x^3 - 3x): t2 = x*x, t3 = 2 t2 x - x, then
    // 0.25 t3 + 0.75 x: mul, rescale, add, mul, rescale, sub, mul_const, ...
    %y = ckks.poly_eval %x {basis = "power", coefficients = array<f64: 0.0, 0.0, 0.0, 1.0>} : ...
    ```
  }];
  let dependentDialects = ["::fhec::ckks::CKKSDialect"];
}

#endif // FHEC_CKKS_TRANSFORMS_PASSES_TD
