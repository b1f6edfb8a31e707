// fhe-fuse grouped a chain of ops whose results nothing reads into an
// fhe.fused without results, which does not verify (found by fhec-fuzz-mlir
// on test/dialect/ckks/ops.mlir, whose @scheme computes unused values).
// dialect/FHE/Transforms/Fuse.cpp now erases trivially dead ops first.
!ct = !ckks.ct<logN = 8, logq = 100, logp = 30, slots = 16>
!ct60 = !ckks.ct<logN = 8, logq = 100, logp = 60, slots = 16>
!low = !ckks.ct<logN = 8, logq = 70, logp = 30, slots = 16>
!low60 = !ckks.ct<logN = 8, logq = 70, logp = 60, slots = 16>
module attributes {ckks.params = #ckks.params<logN = 8, logQ = 100, logp = 30, security = "none">} {
  func.func @f(%a: !ct, %b: !low) -> !ct {
    %0 = ckks.mul_plain %a {values = dense<1.0> : tensor<16xf64>} : !ct -> !ct60
    %1 = ckks.add %0, %b : (!ct60, !low) -> !low60
    %2 = ckks.mul %a, %b : (!ct, !low) -> !low60
    %3 = ckks.sub %1, %2 : !low60
    return %a : !ct
  }
}
