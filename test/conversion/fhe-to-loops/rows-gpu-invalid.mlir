// RUN: not fhec-opt --fhec-attach-target=name=cuda --fhe-to-loops %s -split-input-file 2>&1 | FileCheck %s
// On GPU targets a rows kernel is a batch of forward NTTs and the residue
// kernel they feed (its epilogue); fhe-fuse forms nothing else there, and the
// lowering refuses other pipelines with a diagnostic instead of a wrong kernel.

#b = #fhe.basis<min_bits = 25, prime_bits = 30, primes = [1073479681]>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>
func.func @with_intt(%x: !c, %k: !e) -> !c {
  // CHECK: rows-gpu-invalid.mlir:[[@LINE+1]]:8: error: 'fhe.fused' op on a GPU target a rows kernel must be a batch of forward NTTs and the residue kernel they feed (as fhe-fuse forms it)
  %0 = fhe.fused rows(%x, %k) : (!c, !e) -> !c {
  ^bb0(%a: !c, %b: !e):
    %n = fhe.ntt %a : !c -> !e
    %h = fhe.hadamard %n, %b : !e
    %i = fhe.intt %h : !e -> !c
    fhe.yield %i : !c
  }
  return %0 : !c
}

// -----

#b = #fhe.basis<min_bits = 25, prime_bits = 30, primes = [1073479681]>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>
func.func @inverse_first(%x: !e, %k: !c) -> !c {
  // CHECK: rows-gpu-invalid.mlir:[[@LINE+1]]:8: error: 'fhe.fused' op on a GPU target a rows kernel must be a batch of forward NTTs
  %0 = fhe.fused rows(%x, %k) : (!e, !c) -> !c {
  ^bb0(%a: !e, %b: !c):
    %i = fhe.intt %a : !e -> !c
    %s = fhe.add %i, %b : !c
    fhe.yield %s : !c
  }
  return %0 : !c
}

// -----

// A residue kernel that gathers (fhe.automorphism) reads other threads'
// elements of the NTT's result: it cannot be the NTT's epilogue.
#b = #fhe.basis<min_bits = 25, prime_bits = 30, primes = [1073479681]>
!c = !fhe.rns<logN = 4, basis = #b, domain = coeff, layout = prime_major>
!e = !fhe.rns<logN = 4, basis = #b, domain = eval, layout = prime_major>
func.func @gather_epilogue(%x: !c, %k: !e) -> !e {
  // CHECK: rows-gpu-invalid.mlir:[[@LINE+1]]:8: error: 'fhe.fused' op on a GPU target a rows kernel's residue kernel cannot gather (fhe.automorphism)
  %0 = fhe.fused rows(%x, %k) : (!c, !e) -> !e {
  ^bb0(%a: !c, %b: !e):
    %n = fhe.ntt %a : !c -> !e
    %h = fhe.fused residue(%n, %b) : (!e, !e) -> !e {
    ^bb1(%u: !e, %v: !e):
      %r = fhe.automorphism %u {galois = 5 : i64} : !e
      %p = fhe.hadamard %r, %v : !e
      fhe.yield %p : !e
    }
    fhe.yield %h : !e
  }
  return %0 : !e
}
