// fhec-abi: a function returning the same buffer twice. The first result
// erases the memref.alloc (the out-parameter replaces it); the second calls
// getDefiningOp<memref::AllocOp>() on the erased op's result
// (abi/ABI.cpp outParams: heap-use-after-free).
!p = !fhe.poly<logN = 4, logq = 30>
module attributes {ckks.params = #ckks.params<logN = 4, logQ = 30, logp = 10, security = "none">} {
  func.func @twice(%x: !p {fhe.role = "x"}, %y: !p {fhe.role = "y"}) -> (!p, !p) {
    %0 = fhe.poly_add %x, %y : !p
    return %0, %0 : !p, !p
  }
}
