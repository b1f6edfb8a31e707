// fhe-fuse (-O2): Grouping::acyclic()'s DFS iterates `succ[n]` by reference
// while the recursive visit(m) calls `succ[m]`, which inserts into the same
// DenseMap and may reallocate it (dialect/FHE/Transforms/Fuse.cpp:80, heap-use-after-free).
// Two HE Muls in a row (also examples/sigmoid.mlir) are enough.
!top = !ckks.ct<logN = 10, logq = 300, logp = 30, slots = 8>
!top60 = !ckks.ct<logN = 10, logq = 300, logp = 60, slots = 8>
!low = !ckks.ct<logN = 10, logq = 270, logp = 30, slots = 8>
!low60 = !ckks.ct<logN = 10, logq = 270, logp = 60, slots = 8>
module attributes {ckks.params = #ckks.params<logN = 10, logQ = 300, logp = 30, security = "none">} {
  func.func @two_levels(%a: !top) -> !low60 {
    %0 = ckks.mul %a, %a : (!top, !top) -> !top60
    %1 = ckks.rescale %0 : !top60 -> !low
    %2 = ckks.mul %1, %1 : (!low, !low) -> !low60
    return %2 : !low60
  }
}
