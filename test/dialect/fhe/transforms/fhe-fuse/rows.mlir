// RUN: fhec-opt --fhe-fuse %s | FileCheck %s
// RUN: fhec-opt --fhe-fuse %s | fhec-opt | FileCheck %s
// RUN: fhec-opt --fhec-attach-target=name=cpu-avx512 --fhe-fuse %s | FileCheck %s
// RUN: fhec-opt --fhec-attach-target=name=cuda --fhe-fuse %s | FileCheck %s --check-prefix=GPU
// RUN: fhec-opt --fhe-fuse="rows=false" %s | FileCheck %s --check-prefix=NOROWS
// RUN: fhec-opt --fhec-attach-target=name=cuda --fhe-fuse="gathers=false" %s | FileCheck %s --check-prefix=NOGATHERS
// RUN: fhec-opt --fhec-attach-target=name=cuda --fhe-select-basis --fhe-fuse --fhe-to-loops %s | FileCheck %s --check-prefix=GPULOOPS
// RUN: fhec-opt --fhe-select-basis --fhe-fuse --fhe-to-loops %s | FileCheck %s --check-prefix=LOOPS
// (g) Row pipelines: NTTs, automorphisms, the residue chain and iNTTs of one
// basis, one prime row at a time through all of them.

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
// On a GPU only the NTTs join the residue kernel: the products become the
// epilogue of the NTTs' last level.
// GPU-LABEL: func.func @region1(
// GPU: %[[G:.*]]:3 = fhe.fused {{ *}}rows(
// GPU-NEXT: ^bb0
// GPU-NEXT: fhe.fused {{ *}}transform
// GPU-COUNT-4: fhe.ntt
// GPU: fhe.fused {{ *}}residue
// GPU-COUNT-3: fhe.hadamard
// GPU-NOT: fhe.intt
// GPU: fhe.yield
// GPU: fhe.fused {{ *}}transform(%[[G]]#
// GPU-COUNT-3: fhe.intt
// NOROWS-LABEL: func.func @region1(
// NOROWS-NOT: fhe.fused {{ *}}rows
// NOROWS: return
// One launch per NTT level (logN 4 without fhe-merge-ntt-levels: four),
// each block running the four transforms of a prime together; the last
// level keeps them in four shared-memory tiles and computes their products
// from those tiles; the iNTTs are launches of their own, and no launch is
// left for the products.
// GPULOOPS-LABEL: func.func @region1(
// GPULOOPS: call @fhec_rt_phase_begin(%c1_i32{{[_0-9]*}})
// GPULOOPS-COUNT-3: gpu.launch blocks({{.*}}) in ({{.*}}, %{{.*}} = %c1{{[_0-9]*}}) threads
// GPULOOPS: gpu.launch blocks({{.*}}) in ({{.*}}, %{{.*}} = %c1{{[_0-9]*}}) threads({{.*}}) workgroup(%{{[a-z0-9]+}} : memref<{{[0-9]+}}xi32, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<{{[0-9]+}}xi32, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<{{[0-9]+}}xi32, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<{{[0-9]+}}xi32, #gpu.address_space<workgroup>>) {
// GPULOOPS: gpu.barrier
// GPULOOPS-COUNT-3: modarith.mul_barrett
// GPULOOPS-NOT: gpu.barrier
// GPULOOPS: gpu.terminator
// GPULOOPS: call @fhec_rt_phase_end(%c1_i32{{[_0-9]*}})
// GPULOOPS-NEXT: arith.constant 3
// GPULOOPS-NEXT: call @fhec_rt_phase_begin(%c3_i32{{[_0-9]*}})
// GPULOOPS: return
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

// A rotation's key switching: the NTT of ax, the slot permutation, the
// products with the key's two polynomials and their iNTTs take each row
// through all four stages; the automorphism's phase is "other" (5).
// CHECK-LABEL: func.func @rotation(
// CHECK: fhe.fused {{ *}}rows
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fhe.ntt
// CHECK-NEXT: fhe.automorphism {{.*}}galois = 5
// CHECK-NEXT: fhe.fused {{ *}}residue
// CHECK-COUNT-2: fhe.hadamard
// CHECK: fhe.fused {{ *}}transform
// CHECK-COUNT-2: fhe.intt
// CHECK: fhe.yield
// CHECK-NOT: fhe.automorphism
// CHECK: return
// On a GPU (j) the automorphism joins the residue kernel as a gather of the
// NTT's result, which then stays in memory: no NTT epilogue, no rows kernel.
// GPU-LABEL: func.func @rotation(
// GPU-NOT: fhe.fused {{ *}}rows
// GPU: %[[N:.*]] = fhe.ntt
// GPU: fhe.fused {{ *}}residue(%[[N]], %{{.*}}, %{{.*}})
// GPU-NEXT: ^bb0(%[[A:[a-z0-9]+]]:
// GPU-NEXT: %[[R:.*]] = fhe.automorphism %[[A]] {galois = 5
// GPU-NEXT: fhe.hadamard %[[R]]
// GPU-NEXT: fhe.hadamard %[[R]]
// GPU: return
// GPULOOPS-LABEL: func.func @rotation(
// GPULOOPS: call @fhec_rt_phase_begin(%c2_i32{{[_0-9]*}})
// GPULOOPS: gpu.launch
// GPULOOPS: arith.muli {{.*}} : i64
// GPULOOPS: memref.load
// GPULOOPS: modarith.mul_barrett
// GPULOOPS: modarith.mul_barrett
// GPULOOPS: gpu.terminator
// GPULOOPS: call @fhec_rt_phase_end(%c2_i32{{[_0-9]*}})
// GPULOOPS: return
// NOGATHERS-LABEL: func.func @rotation(
// NOGATHERS: fhe.automorphism
// NOGATHERS: fhe.fused {{ *}}residue
// NOGATHERS-NOT: fhe.automorphism
// NOGATHERS: return
// NOROWS-LABEL: func.func @rotation(
// NOROWS-NOT: fhe.fused {{ *}}rows
// NOROWS: fhe.automorphism
// NOROWS: return
// LOOPS-LABEL: func.func @rotation(
// LOOPS: scf.parallel
// LOOPS: call @fhec_rt_phase_lap(%c-1_i32{{[_0-9]*}})
// LOOPS: call @fhec_rt_phase_lap(%c1_i32{{[_0-9]*}})
// LOOPS-NOT: call @fhec_rt_phase_lap
// LOOPS: call @fhec_rt_phase_lap(%c5_i32{{[_0-9]*}})
// LOOPS-NOT: call @fhec_rt_phase_lap
// LOOPS: call @fhec_rt_phase_lap(%c2_i32{{[_0-9]*}})
// LOOPS-NOT: call @fhec_rt_phase_lap
// LOOPS: call @fhec_rt_phase_lap(%c3_i32{{[_0-9]*}})
// LOOPS: call @fhec_rt_phase_end
func.func @rotation(%x: !c1, %k0: !e1, %k1: !e1) -> (!c1, !c1) {
  %n = fhe.ntt %x : !c1 -> !e1
  %r = fhe.automorphism %n {galois = 5 : i64} : !e1
  %h0 = fhe.hadamard %r, %k0 : !e1
  %h1 = fhe.hadamard %r, %k1 : !e1
  %i0 = fhe.intt %h0 : !e1 -> !c1
  %i1 = fhe.intt %h1 : !e1 -> !c1
  return %i0, %i1 : !c1, !c1
}

// Hoisted rotations: the NTT both automorphisms read stays a kernel of its
// own; both automorphisms join the rows kernel of their products (one
// residue kernel: the products share a basis).
// GPU-LABEL: func.func @hoisted(
// GPU: %[[N:.*]] = fhe.ntt
// GPU: fhe.fused {{ *}}residue(%[[N]], %{{.*}}, %{{.*}})
// GPU-NEXT: ^bb0(%[[A:[a-z0-9]+]]:
// GPU-NEXT: fhe.automorphism %[[A]] {galois = 5
// GPU-NEXT: fhe.automorphism %[[A]] {galois = 25
// GPU: return
// CHECK-LABEL: func.func @hoisted(
// CHECK: %[[N:.*]] = fhe.ntt
// CHECK: fhe.fused {{ *}}rows(%[[N]], %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fhe.automorphism {{.*}}galois = 5
// CHECK-NEXT: fhe.automorphism {{.*}}galois = 25
// CHECK-NEXT: fhe.fused {{ *}}residue
// CHECK: fhe.fused {{ *}}transform
// CHECK: return
// The first stage to read the NTT's rows (from memory) prefetches the next
// prime's row; the second finds row j in cache.
// LOOPS-LABEL: func.func @hoisted(
// LOOPS: call @fhec_rt_phase_lap(%c-1_i32{{[_0-9]*}})
// LOOPS: memref.prefetch
// LOOPS: call @fhec_rt_phase_lap(%c5_i32{{[_0-9]*}})
// LOOPS-NOT: memref.prefetch
// LOOPS: call @fhec_rt_phase_lap(%c5_i32{{[_0-9]*}})
func.func @hoisted(%x: !c1, %k5: !e1, %k25: !e1) -> (!c1, !c1) {
  %n = fhe.ntt %x : !c1 -> !e1
  %r5 = fhe.automorphism %n {galois = 5 : i64} : !e1
  %r25 = fhe.automorphism %n {galois = 25 : i64} : !e1
  %h5 = fhe.hadamard %r5, %k5 : !e1
  %h25 = fhe.hadamard %r25, %k25 : !e1
  %i5 = fhe.intt %h5 : !e1 -> !c1
  %i25 = fhe.intt %h25 : !e1 -> !c1
  return %i5, %i25 : !c1, !c1
}

// An automorphism whose result is also returned stays outside, and so does
// the NTT that feeds it.
// GPU-LABEL: func.func @automorphism_used_outside(
// GPU: %[[R:.*]] = fhe.automorphism
// GPU-NOT: fhe.automorphism
// GPU: return
// CHECK-LABEL: func.func @automorphism_used_outside(
// CHECK: %[[N:.*]] = fhe.ntt
// CHECK: %[[R:.*]] = fhe.automorphism %[[N]]
// CHECK: fhe.fused {{ *}}rows(%[[R]], %{{.*}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fhe.hadamard
// CHECK-NEXT: fhe.intt
// CHECK: return
func.func @automorphism_used_outside(%x: !c1, %k: !e1) -> (!c1, !e1) {
  %n = fhe.ntt %x : !c1 -> !e1
  %r = fhe.automorphism %n {galois = 5 : i64} : !e1
  %h = fhe.hadamard %r, %k : !e1
  %i = fhe.intt %h : !e1 -> !c1
  return %i, %r : !c1, !e1
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

