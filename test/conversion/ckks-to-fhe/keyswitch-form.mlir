// RUN: fhec-opt --ckks-to-fhe %s | FileCheck %s --check-prefix=CENTERED
// RUN: sed 's/security = "none"/security = "none", keyswitch = "heaan"/' %s | fhec-opt --ckks-to-fhe | FileCheck %s --check-prefix=HEAAN
// RUN: sed 's/security = "none"/security = "none", keyswitch = "centered"/' %s | fhec-opt --ckks-to-fhe | FileCheck %s --check-prefix=CENTERED
// The key-switching form: by default (and with keyswitch = "centered") the
// polynomial a key switching decomposes (relinearization's axax, a rotation's
// ax) enters region 2's CRT through its centered representatives in
// [-q/2, q/2); keyswitch = "heaan" keeps HEAAN 2.1's unsigned [0, q). Region
// 1's CRTs of the ciphertexts are plain in both. The centered form rounds
// the key switch's shift by logQ (no bias of -1/2 per coefficient); HEAAN's
// floors it.

!ct = !ckks.ct<logN = 10, logq = 300, logp = 30, slots = 512>
!ct60 = !ckks.ct<logN = 10, logq = 300, logp = 60, slots = 512>

module attributes {ckks.params = #ckks.params<logN = 10, logQ = 300, logp = 30, security = "none">} {
  // CENTERED-LABEL: func.func @mul_rot(
  // CENTERED: fhe.crt %arg0 : {{.*}} -> <logN = 10, basis = <min_bits = 616>
  // CENTERED: %[[AXAX:.*]] = fhe.icrt {{.*}} -> <logN = 10, logq = 300>
  // CENTERED: fhe.crt %[[AXAX]] {centered} : {{.*}} -> <logN = 10, basis = <min_bits = 914>
  // CENTERED: fhe.crt %{{.*}} {centered} : {{.*}} -> <logN = 10, basis = <min_bits = 914>
  // CENTERED-NEXT: fhe.automorphism
  // CENTERED-NOT: centered
  // HEAAN-LABEL: func.func @mul_rot(
  // HEAAN-NOT: centered
  // HEAAN: fhe.crt %{{.*}} : {{.*}} -> <logN = 10, basis = <min_bits = 914>
  // HEAAN-NOT: centered
  // HEAAN: fhe.crt %{{.*}} : {{.*}} -> <logN = 10, basis = <min_bits = 914>
  // HEAAN-NEXT: fhe.automorphism
  // HEAAN-NOT: centered
  func.func @mul_rot(%a: !ct, %b: !ct) -> !ct60 {
    %0 = ckks.mul %a, %b : (!ct, !ct) -> !ct60
    %1 = ckks.rotate %0 [1] : !ct60
    return %1 : !ct60
  }

  // CENTERED-LABEL: func.func @shift(
  // CENTERED-COUNT-2: fhe.poly_shr %{{.*}} {round, shift = 300 : i64} : <logN = 10, logq = 600> -> <logN = 10, logq = 300>
  // CENTERED: return
  // HEAAN-LABEL: func.func @shift(
  // HEAAN-NOT: round
  // HEAAN-COUNT-2: fhe.poly_shr %{{.*}} {shift = 300 : i64} : <logN = 10, logq = 600> -> <logN = 10, logq = 300>
  // HEAAN-NOT: round
  // HEAAN: return
  func.func @shift(%a: !ct) -> !ct {
    %0 = ckks.rotate %a [1] : !ct
    return %0 : !ct
  }
}
