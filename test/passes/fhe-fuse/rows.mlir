// RUN: fhec-opt --fhe-fuse %s | FileCheck %s
// RUN: fhec-opt --fhe-fuse %s | fhec-opt | FileCheck %s
// RUN: fhec-opt --fhe-fuse="target=cpu-avx512" %s | FileCheck %s
// RUN: fhec-opt --fhe-fuse="target=cuda" %s | FileCheck %s --check-prefix=GPU
// RUN: fhec-opt --fhe-fuse="rows=false" %s | FileCheck %s --check-prefix=GPU
// RUN: fhec-opt --fhe-select-basis --fhe-fuse --fhe-to-loops %s | FileCheck %s --check-prefix=LOOPS
// (g) Row pipelines: NTTs, the residue chain and iNTTs of one basis, one
// prime row at a time through all of them.

#r1 = #fhe.basis<min_bits = 100>
#r2 = #fhe.basis<min_bits = 200>
!c1 = !fhe.rns<logN = 4, basis = #r1, domain = coeff, layout = prime_major>
!e1 = !fhe.rns<logN = 4, basis = #r1, domain = eval, layout = prime_major>
!e2 = !fhe.rns<logN = 4, basis = #r2, domain = eval, layout = prime_major>
!m1 = !fhe.rns<logN = 4, basis = #r1, domain = eval, layout = coeff_major>

// Region 1 of HE Mul: the batch of four NTTs, the Karatsuba residue chain
// and the batch of three iNTTs form one rows kernel, in that order.
// CHECK-LABEL: func.func @region1(
// CHECK: %[[R:.*]]:3 = fhe.fused {{ *}}rows(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : ({{.*}}) -> ({{.*}}) {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fhe.fused {{ *}}transform
// CHECK-COUNT-4: fhe.ntt
// CHECK: fhe.fused {{ *}}residue
// CHECK-COUNT-3: fhe.hadamard
// CHECK: fhe.fused {{ *}}transform
// CHECK-COUNT-3: fhe.intt
// CHECK: fhe.yield
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
// GPU-LABEL: func.func @region1(
// GPU-NOT: fhe.fused {{ *}}rows
// GPU: return
// LOOPS-LABEL: func.func @region1(
// LOOPS: call @fhec_rt_phase_begin
// LOOPS: scf.parallel
// Each row's stages are lapped for their phases: NTT (1), Hadamard (2), iNTT (3).
// LOOPS: call @fhec_rt_phase_lap(%c-1_i32{{[_0-9]*}})
// LOOPS-NOT: call @fhec_rt_phase_lap
// LOOPS: call @fhec_rt_phase_lap(%c1_i32{{[_0-9]*}})
// LOOPS-NOT: call @fhec_rt_phase_lap
// LOOPS: call @fhec_rt_phase_lap(%c2_i32{{[_0-9]*}})
// LOOPS-NOT: call @fhec_rt_phase_lap
// LOOPS: call @fhec_rt_phase_lap(%c3_i32{{[_0-9]*}})
// LOOPS-NOT: call @fhec_rt_phase_lap
// LOOPS: call @fhec_rt_phase_end
func.func @region1(%a1: !c1, %b1: !c1, %a2: !c1, %b2: !c1) -> (!c1, !c1, !c1) {
  %1 = fhe.ntt %a1 : !c1 -> !e1
  %3 = fhe.ntt %b1 : !c1 -> !e1
  %5 = fhe.ntt %a2 : !c1 -> !e1
  %7 = fhe.ntt %b2 : !c1 -> !e1
  %axax = fhe.hadamard %1, %5 : !e1
  %bxbx = fhe.hadamard %3, %7 : !e1
  %s1 = fhe.add %1, %3 : !e1
  %s2 = fhe.add %5, %7 : !e1
  %t = fhe.hadamard %s1, %s2 : !e1
  %d = fhe.sub %t, %axax : !e1
  %axbx = fhe.sub %d, %bxbx : !e1
  %i1 = fhe.intt %axax : !e1 -> !c1
  %i2 = fhe.intt %bxbx : !e1 -> !c1
  %i3 = fhe.intt %axbx : !e1 -> !c1
  return %i1, %i2, %i3 : !c1, !c1, !c1
}

// A residue op alone with a transform on each side (region 2's shape with
// one key): a rows kernel of bare ops.
// CHECK-LABEL: func.func @single(
// CHECK: fhe.fused {{ *}}rows
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fhe.ntt
// CHECK-NEXT: fhe.hadamard
// CHECK-NEXT: fhe.intt
func.func @single(%x: !c1, %k: !e1) -> !c1 {
  %n = fhe.ntt %x : !c1 -> !e1
  %h = fhe.hadamard %n, %k : !e1
  %i = fhe.intt %h : !e1 -> !c1
  return %i : !c1
}

// An NTT whose result is also used outside the chain stays a kernel of its
// own, and so does an iNTT that reads something besides the chain; the chain
// still takes the iNTT of its own result.
// CHECK-LABEL: func.func @outside_users(
// CHECK: %[[N:.*]] = fhe.ntt
// CHECK: fhe.fused {{ *}}rows(%[[N]], %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fhe.hadamard
// CHECK-NEXT: fhe.intt
// CHECK-NEXT: fhe.yield
// CHECK: return
func.func @outside_users(%x: !c1, %k: !e1) -> (!c1, !e1) {
  %n = fhe.ntt %x : !c1 -> !e1
  %h = fhe.hadamard %n, %k : !e1
  %i = fhe.intt %h : !e1 -> !c1
  return %i, %n : !c1, !e1
}

// Nothing to pipeline: a transform on another basis, a coefficient-major
// product, a transform alone.
// CHECK-LABEL: func.func @no_rows(
// CHECK-NOT: fhe.fused {{ *}}rows
// CHECK: return
func.func @no_rows(%x: !e2, %y: !e2, %u: !m1, %v: !m1, %c: !c1) -> (!e2, !m1, !e1) {
  %h = fhe.hadamard %x, %y : !e2
  %g = fhe.hadamard %u, %v : !m1
  %n = fhe.ntt %c : !c1 -> !e1
  return %h, %g, %n : !e2, !m1, !e1
}
