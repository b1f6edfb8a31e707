// RUN: fhec-opt --fhe-fuse="rows=false" %s | FileCheck %s
// RUN: fhec-opt --fhe-fuse="rows=false" %s | fhec-opt | FileCheck %s
// RUN: fhec-opt --fhec-attach-target=name=cuda --fhe-fuse %s | FileCheck %s --check-prefix=GPU
// RUN: fhec-opt --fhe-fuse="residue=false scale-icrt=false coefficient=false transform=false shift-icrt=false lazy-crt=false lazy-products=false rows=false" %s | FileCheck %s --check-prefix=NONE
// RUN: fhec-opt --fhe-fuse="transform=false rows=false" %s | FileCheck %s --check-prefix=NOBATCH
// Kernel fusion on HE Mul's dataflow (ckks-to-fhe's output, Fig. 2); rule
// (g), the row pipelines built from these kernels, is tested in rows.mlir
// (the cuda target, whose kernels cover every prime at once, builds none).

#r1 = #fhe.basis<min_bits = 100>
#r2 = #fhe.basis<min_bits = 200>
!p = !fhe.poly<logN = 4, logq = 40>
!q = !fhe.poly<logN = 4, logq = 80>
!o = !fhe.poly<logN = 4, logq = 30>
!c1 = !fhe.rns<logN = 4, basis = #r1, domain = coeff, layout = prime_major>
!e1 = !fhe.rns<logN = 4, basis = #r1, domain = eval, layout = prime_major>
!c2 = !fhe.rns<logN = 4, basis = #r2, domain = coeff, layout = prime_major>
!e2 = !fhe.rns<logN = 4, basis = #r2, domain = eval, layout = prime_major>

// (h) Every CRT feeds only NTTs: its residues may stay in [0, 4p).
// (e) The four input NTTs: one transform kernel, prime by prime.
// On a GPU, the four CRTs, each alone, form one batch (a launch for all).
// GPU-LABEL: func.func @he_mul(
// GPU: %[[C:.*]]:4 = fhe.fused {{ *}}coefficient(%arg0, %arg1, %arg2, %arg3) :
// GPU-NEXT: ^bb0
// GPU-COUNT-4: fhe.crt %arg{{[0-9]+}} {lazy}
// GPU-NEXT: fhe.yield
// The batch of NTTs and the products they feed form a rows kernel (the
// products are the NTTs' last level's epilogue); the iNTTs stay outside.
// GPU: fhe.fused {{ *}}rows(%[[C]]#{{[0-3]}}, %[[C]]#{{[0-3]}}, %[[C]]#{{[0-3]}}, %[[C]]#{{[0-3]}}) :
// GPU-NEXT: ^bb0
// GPU-NEXT: fhe.fused {{ *}}transform(%arg
// GPU-COUNT-4: fhe.ntt %arg
// GPU: fhe.fused {{ *}}residue(
// GPU-NOT: fhe.intt
// GPU: fhe.yield
// GPU: fhe.fused {{ *}}transform(
// On a GPU the CRT of region 1's iCRT stays a kernel of its own: its tiled
// launch reads the BigInt from memory (emitGpuCrt), and the iCRT is one
// tiled kernel (emitGpuIcrtTile).
// GPU: %[[I:.*]] = fhe.icrt %{{.*}} : <{{.*}}coeff_scaled
// GPU-NEXT: fhe.crt %[[I]] {lazy}
// The closing chain (iCRT, shifted iCRT, add, rescale) is one kernel.
// GPU: fhe.fused {{ *}}coefficient(
// GPU-NEXT: ^bb0
// GPU-NEXT: fhe.icrt
// GPU-NEXT: fhe.icrt {{.*}}shift
// GPU-NEXT: fhe.poly_add
// GPU-NEXT: fhe.poly_shr
// CHECK-LABEL: func.func @he_mul(
// CHECK-COUNT-4: fhe.crt %arg{{[0-9]+}} {lazy}
// CHECK: %[[N:.*]]:4 = fhe.fused {{ *}}transform(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) :
// CHECK-NEXT: ^bb0
// CHECK-COUNT-4: fhe.ntt %arg
// CHECK-NEXT: fhe.yield
// (a) The three region-1 products and the Karatsuba sums and differences:
// one residue kernel reading the four NTT'd operands once.
// (i) The products and the differences of them feed only iNTTs: their
// residues may stay in [0, 2p).
// CHECK: %[[R1:.*]]:3 = fhe.fused {{ *}}residue(%[[N]]#0, %[[N]]#2, %[[N]]#1, %[[N]]#3) : ({{.*}}) -> ({{.*}}) {
// CHECK-COUNT-2: fhe.hadamard {{.*}} {lazy}
// CHECK-COUNT-2: fhe.add %arg{{[0-9]+}}, %arg{{[0-9]+}} :
// CHECK: fhe.hadamard {{.*}} {lazy}
// CHECK-COUNT-2: fhe.sub {{.*}} {lazy}
// CHECK: fhe.yield
// (b, e) every iNTT feeds only iCRTs: its result holds iCRT's temp_j; the
// three region-1 iNTTs are one transform kernel.
// CHECK: fhe.fused {{ *}}transform(%[[R1]]#0, %[[R1]]#1, %[[R1]]#2)
// CHECK-COUNT-3: fhe.intt %arg{{.*}} -> <{{.*}}domain = coeff_scaled
// (c) region 1's iCRT of axax feeds region 2's CRT in one coefficient kernel.
// CHECK: fhe.fused {{ *}}coefficient({{.*}}) : ({{.*}}coeff_scaled{{.*}}) -> !fhe.rns<{{.*}}min_bits = 200{{.*}}domain = coeff
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fhe.icrt
// CHECK-NEXT: fhe.crt {{.*}}{lazy}
// CHECK-NEXT: fhe.yield
// The two evaluation-key products share one read of axax; their iNTTs are
// one transform kernel.
// CHECK: fhe.fused {{ *}}residue({{.*}}) : ({{.*}}) -> ({{.*}}, {{.*}}) {
// CHECK-COUNT-2: fhe.hadamard {{.*}} {lazy}
// CHECK: fhe.fused {{ *}}transform
// CHECK-COUNT-2: fhe.intt
// (d, f) the closing chain: both iCRTs, region 2's computing its value
// shifted by logQ, the sum, the rescale.
// CHECK: fhe.fused {{ *}}coefficient
// CHECK: fhe.icrt %arg{{[0-9]+}} :
// CHECK: fhe.icrt %arg{{[0-9]+}} {shift = 40 : i64}
// CHECK-NOT: fhe.poly_shr {{.*}} {shift = 40 : i64}
// CHECK: fhe.poly_add
// CHECK: fhe.poly_shr {{.*}} {shift = 10 : i64}
// CHECK: fhe.yield
// NOBATCH-NOT: fhe.fused transform
// NONE-NOT: fhe.fused
// NONE-NOT: fhe.icrt {{.*}}shift
// NONE-NOT: coeff_scaled
// NONE-NOT: lazy
func.func @he_mul(%a1: !p, %b1: !p, %a2: !p, %b2: !p, %ka: !e2, %kb: !e2) -> (!o, !o) {
  %0 = fhe.crt %a1 : !p -> !c1
  %1 = fhe.ntt %0 : !c1 -> !e1
  %2 = fhe.crt %b1 : !p -> !c1
  %3 = fhe.ntt %2 : !c1 -> !e1
  %4 = fhe.crt %a2 : !p -> !c1
  %5 = fhe.ntt %4 : !c1 -> !e1
  %6 = fhe.crt %b2 : !p -> !c1
  %7 = fhe.ntt %6 : !c1 -> !e1
  %axax = fhe.hadamard %1, %5 : !e1
  %bxbx = fhe.hadamard %3, %7 : !e1
  %s1 = fhe.add %1, %3 : !e1
  %s2 = fhe.add %5, %7 : !e1
  %t = fhe.hadamard %s1, %s2 : !e1
  %d = fhe.sub %t, %axax : !e1
  %axbx = fhe.sub %d, %bxbx : !e1
  %i1 = fhe.intt %axax : !e1 -> !c1
  %paxax = fhe.icrt %i1 : !c1 -> !p
  %i2 = fhe.intt %bxbx : !e1 -> !c1
  %pbxbx = fhe.icrt %i2 : !c1 -> !p
  %i3 = fhe.intt %axbx : !e1 -> !c1
  %paxbx = fhe.icrt %i3 : !c1 -> !p
  %c2 = fhe.crt %paxax : !p -> !c2
  %n2 = fhe.ntt %c2 : !c2 -> !e2
  %ha = fhe.hadamard %n2, %ka : !e2
  %ia = fhe.intt %ha : !e2 -> !c2
  %pa = fhe.icrt %ia : !c2 -> !q
  %hb = fhe.hadamard %n2, %kb : !e2
  %ib = fhe.intt %hb : !e2 -> !c2
  %pb = fhe.icrt %ib : !c2 -> !q
  %xa = fhe.poly_shr %pa {shift = 40 : i64} : !q -> !p
  %xb = fhe.poly_shr %pb {shift = 40 : i64} : !q -> !p
  %ra = fhe.poly_add %xa, %paxbx : !p
  %rb = fhe.poly_add %xb, %pbxbx : !p
  %oa = fhe.poly_shr %ra {shift = 10 : i64} : !p -> !o
  %ob = fhe.poly_shr %rb {shift = 10 : i64} : !p -> !o
  return %oa, %ob : !o, !o
}

// A producer with a use outside the chain keeps its buffer and its own
// kernel; an iNTT with a non-iCRT user keeps the plain coeff domain.
// CHECK-LABEL: func.func @shared(
// CHECK: fhe.intt {{.*}} -> <{{.*}}domain = coeff,
// CHECK-NOT: fhe.fused
// CHECK: return
func.func @shared(%x: !e1) -> (!p, !o, !c1) {
  %i = fhe.intt %x : !e1 -> !c1
  %p = fhe.icrt %i : !c1 -> !p
  %s = fhe.poly_shr %p {shift = 10 : i64} : !p -> !o
  return %p, %s, %i : !p, !o, !c1
}

// A cycle through an outside op stops a merge: %h -> intt -> icrt -> crt ->
// ntt -> %g, so %h and %g stay separate kernels (no fused op at all here).
// CHECK-LABEL: func.func @no_cycle(
// CHECK-NOT: fhe.fused {{ *}}residue
// CHECK: return
func.func @no_cycle(%x: !e1, %y: !e1) -> !e1 {
  %h = fhe.hadamard %x, %y : !e1
  %i = fhe.intt %h : !e1 -> !c1
  %n = fhe.ntt %i : !c1 -> !e1
  %g = fhe.hadamard %n, %x : !e1
  return %g : !e1
}

// (h) A CRT with any user other than an NTT keeps residues in [0, p); one
// whose NTT reads it through a transpose may leave them in [0, 4p).
// CHECK-LABEL: func.func @crt_users(
// CHECK: fhe.crt %arg0 :
// CHECK: fhe.crt %arg1 {lazy}
// CHECK: return
!cc = !fhe.rns<logN = 4, basis = #r1, domain = coeff, layout = coeff_major>
func.func @crt_users(%a: !p, %b: !p) -> (!e1, !c1, !e1) {
  %0 = fhe.crt %a : !p -> !c1
  %1 = fhe.ntt %0 : !c1 -> !e1
  %2 = fhe.crt %b : !p -> !cc
  %3 = fhe.transpose %2 : !cc -> !c1
  %4 = fhe.ntt %3 : !c1 -> !e1
  return %1, %0, %4 : !e1, !c1, !e1
}

// (c, d) Hybrid key switching's balanced digit (an added scalar, a shift, a
// reduction) and its centered CRT: one coefficient kernel.
// CHECK-LABEL: func.func @balanced_digit(
// CHECK: fhe.fused coefficient(%arg0)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fhe.poly_add_scalar
// CHECK-NEXT: fhe.poly_shr
// CHECK-NEXT: fhe.poly_reduce
// CHECK-NEXT: fhe.crt {{.*}} {centered}
// CHECK-NEXT: fhe.yield
func.func @balanced_digit(%a: !fhe.poly<logN = 4, logq = 290>) -> !c1 {
  %0 = fhe.poly_add_scalar %a {value = 633825300114114700748351602688 : i290} : !fhe.poly<logN = 4, logq = 290>
  %1 = fhe.poly_shr %0 {shift = 100 : i64} : !fhe.poly<logN = 4, logq = 290> -> !fhe.poly<logN = 4, logq = 190>
  %2 = fhe.poly_reduce %1 : !fhe.poly<logN = 4, logq = 190> -> !fhe.poly<logN = 4, logq = 100>
  %3 = fhe.crt %2 {centered} : !fhe.poly<logN = 4, logq = 100> -> !c1
  return %3 : !c1
}

// (i) A product with a user other than an iNTT or a lazy difference keeps
// residues in [0, p), and so does a difference that is returned.
// CHECK-LABEL: func.func @product_users(
// CHECK: fhe.hadamard %[[X:arg[0-9]+]], %[[Y:arg[0-9]+]] {lazy}
// CHECK: fhe.hadamard %[[X]], %[[X]] :
// CHECK: fhe.sub {{.*}}, %[[Y]] :
// CHECK: return
func.func @product_users(%x: !e1, %y: !e1) -> (!c1, !e1, !e1) {
  %h = fhe.hadamard %x, %y : !e1
  %i = fhe.intt %h : !e1 -> !c1
  %g = fhe.hadamard %x, %x : !e1
  %d = fhe.sub %g, %y : !e1
  return %i, %g, %d : !c1, !e1, !e1
}

// (f) with an addend: poly_shr(icrt(x) plus e) folds into one shift, the
// addend kept (floor((X + e) / 2^a) / 2^b = floor((X + e) / 2^(a + b)));
// a rounded iCRT's shift does not fold (a floor after a rounding is not one
// rounding); a rounded poly_shr of a floored iCRT folds into one rounded
// shift (floor((floor(X / 2^a) + 2^(b-1)) / 2^b) = round(X / 2^(a + b))).
// NONE-LABEL: func.func @shift_addend_round(
// CHECK-LABEL: func.func @shift_addend_round(
// CHECK: fhe.icrt %{{.*}} plus %{{.*}} {shift = 15 : i64}
// CHECK: fhe.icrt %{{.*}} {round, shift = 10 : i64}
// CHECK: fhe.poly_shr {{.*}} {shift = 5 : i64}
// CHECK: fhe.icrt %{{.*}} plus %{{.*}} {round, shift = 15 : i64}
// CHECK-NOT: fhe.poly_shr
// NONE: fhe.poly_shr {{.*}} {round, shift = 5 : i64}
func.func @shift_addend_round(%x: !c1, %e: !fhe.poly<logN = 4, logq = 8>)
    -> (!fhe.poly<logN = 4, logq = 20>, !fhe.poly<logN = 4, logq = 20>, !fhe.poly<logN = 4, logq = 20>) {
  %a = fhe.icrt %x plus %e {shift = 10} : !c1, !fhe.poly<logN = 4, logq = 8> -> !fhe.poly<logN = 4, logq = 25>
  %b = fhe.poly_shr %a {shift = 5 : i64} : !fhe.poly<logN = 4, logq = 25> -> !fhe.poly<logN = 4, logq = 20>
  %c = fhe.icrt %x {shift = 10, round} : !c1 -> !fhe.poly<logN = 4, logq = 25>
  %d = fhe.poly_shr %c {shift = 5 : i64} : !fhe.poly<logN = 4, logq = 25> -> !fhe.poly<logN = 4, logq = 20>
  %f = fhe.icrt %x plus %e {shift = 10} : !c1, !fhe.poly<logN = 4, logq = 8> -> !fhe.poly<logN = 4, logq = 25>
  %g = fhe.poly_shr %f {shift = 5 : i64, round} : !fhe.poly<logN = 4, logq = 25> -> !fhe.poly<logN = 4, logq = 20>
  return %b, %d, %g : !fhe.poly<logN = 4, logq = 20>, !fhe.poly<logN = 4, logq = 20>, !fhe.poly<logN = 4, logq = 20>
}

// (c) Bit-windows of one BigInt (the client's decryption): the window CRTs
// share a coefficient kernel that reads ax once; (b) the iNTTs that only
// feed the icrt_sum produce coeff_scaled residues.
// NONE-LABEL: func.func @windows(
// NONE-NOT: fhe.fused
// NONE: fhe.icrt_sum %{{.*}}, %{{.*}} plus %{{.*}} {offsets = array<i64: 0, 20>} : !fhe.rns<{{.*}}domain = coeff,
// CHECK-LABEL: func.func @windows(
// CHECK: fhe.fused coefficient(%{{.*}}) : (!fhe.poly<logN = 4, logq = 40>) -> (!fhe.rns<{{.*}}>, !fhe.rns<{{.*}}>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: !fhe.poly<logN = 4, logq = 40>):
// CHECK-NEXT: fhe.crt %[[A]] {lazy, window = array<i64: 0, 20>}
// CHECK-NEXT: fhe.crt %[[A]] {lazy, window = array<i64: 20, 20>}
// CHECK: fhe.icrt_sum %{{.*}}, %{{.*}} plus %{{.*}} {offsets = array<i64: 0, 20>} : !fhe.rns<{{.*}}domain = coeff_scaled, {{.*}}>, !fhe.rns<{{.*}}domain = coeff_scaled,
func.func @windows(%ax: !p, %bx: !p, %s: !e1) -> !p {
  %0 = fhe.crt %ax {window = array<i64: 0, 20>} : !p -> !c1
  %1 = fhe.crt %ax {window = array<i64: 20, 20>} : !p -> !c1
  %2 = fhe.ntt %0 : !c1 -> !e1
  %3 = fhe.ntt %1 : !c1 -> !e1
  %4 = fhe.hadamard %2, %s : !e1
  %5 = fhe.hadamard %3, %s : !e1
  %6 = fhe.intt %4 : !e1 -> !c1
  %7 = fhe.intt %5 : !e1 -> !c1
  %8 = fhe.icrt_sum %6, %7 plus %bx {offsets = array<i64: 0, 20>} : !c1, !c1 plus !p -> !p
  return %8 : !p
}
