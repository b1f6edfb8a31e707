// RUN: fhec-opt %s | fhec-opt | FileCheck %s
// Round trip of every ckks op and of the parameters attribute.

!ct = !ckks.ct<logN = 12, logq = 200, logp = 30, slots = 2048>
!ct60 = !ckks.ct<logN = 12, logq = 200, logp = 60, slots = 2048>
!low = !ckks.ct<logN = 12, logq = 170, logp = 30, slots = 2048>
!low60 = !ckks.ct<logN = 12, logq = 170, logp = 60, slots = 2048>
!ck = !low60

// CHECK: module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30, secret = "sparse", h = 64>}
module attributes {ckks.params = #ckks.params<logN = 12, logQ = 200, logp = 30, secret = "sparse", h = 64>} {
  // CHECK-LABEL: func.func @all
  func.func @all(%a: !ct, %b: !ct) -> !low {
    // CHECK: ckks.add %{{.*}}, %{{.*}} : <logN = 12, logq = 200, logp = 30, slots = 2048>
    %0 = ckks.add %a, %b : !ct
    // CHECK: ckks.sub
    %1 = ckks.sub %0, %b : !ct
    // CHECK: ckks.negate
    %2 = ckks.negate %1 : !ct
    // CHECK: ckks.mul %{{.*}}, %{{.*}} : (<{{.*}}logp = 30{{.*}}>, <{{.*}}>) -> <logN = 12, logq = 200, logp = 60, slots = 2048>
    %3 = ckks.mul %2, %a : (!ct, !ct) -> !ct60
    // CHECK: ckks.rescale {{.*}} -> <logN = 12, logq = 170, logp = 30, slots = 2048>
    %4 = ckks.rescale %3 : !ct60 -> !low
    // CHECK: ckks.rescale %{{.*}} {round} : {{.*}} -> <logN = 12, logq = 170, logp = 30, slots = 2048>
    %r = ckks.rescale %3 {round} : !ct60 -> !low
    // CHECK: ckks.mul_const {{.*}} {value = -2.500000e-01 : f64}
    %5 = ckks.mul_const %a {value = -0.25 : f64} : !ct -> !ct60
    %6 = ckks.rescale %5 : !ct60 -> !low
    // CHECK: ckks.add_const {{.*}} {value = 5.000000e-01 : f64}
    %7 = ckks.add_const %6 {value = 0.5 : f64} : !low
    // CHECK: ckks.mod_down {{.*}} -> <logN = 12, logq = 170, logp = 30, slots = 2048>
    %8 = ckks.mod_down %a : !ct -> !low
    %9 = ckks.add %7, %8 : !low
    %10 = ckks.add %9, %4 : !low
    return %10 : !low
  }

  // Bootstrapping's modulus, scale and slot changes.
  // CHECK-LABEL: func.func @boot
  func.func @boot(%a: !low) -> !ckks.ct<logN = 12, logq = 190, logp = 45, slots = 1024> {
    // CHECK: ckks.mod_raise {{.*}} : <{{.*}}logq = 170{{.*}}> -> <logN = 12, logq = 200, logp = 30, slots = 2048>
    %0 = ckks.mod_raise %a : !low -> !ct
    // CHECK: ckks.div_by_po2 {{.*}} -> <logN = 12, logq = 190, logp = 30, slots = 2048>
    %1 = ckks.div_by_po2 %0 : !ct -> !ckks.ct<logN = 12, logq = 190, logp = 30, slots = 2048>
    // CHECK: ckks.relabel {{.*}} -> <logN = 12, logq = 190, logp = 45, slots = 1024>
    %2 = ckks.relabel %1 : !ckks.ct<logN = 12, logq = 190, logp = 30, slots = 2048>
                        -> !ckks.ct<logN = 12, logq = 190, logp = 45, slots = 1024>
    return %2 : !ckks.ct<logN = 12, logq = 190, logp = 45, slots = 1024>
  }

  // CHECK-LABEL: func.func @bootstrap
  func.func @bootstrap(%a: !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8>) -> !ckks.ct<logN = 12, logq = 120, logp = 30, slots = 8> {
    // CHECK: ckks.bootstrap %{{.*}} {bound = 12 : i64, log_scale = 48 : i64, mod_logq = 40 : i64}
    %0 = ckks.bootstrap %a {mod_logq = 40, bound = 12, log_scale = 48}
        : !ckks.ct<logN = 12, logq = 90, logp = 30, slots = 8> -> !ckks.ct<logN = 12, logq = 120, logp = 30, slots = 8>
    return %0 : !ckks.ct<logN = 12, logq = 120, logp = 30, slots = 8>
  }

  // CHECK-LABEL: func.func @scheme
  func.func @scheme(%a: !ct, %b: !low) -> !ct60 {
    // CHECK: ckks.rotate %{{.*}} [3] : <logN = 12, logq = 200, logp = 30, slots = 2048>
    %0 = ckks.rotate %a [3] : !ct
    // CHECK: %{{.*}}:3 = ckks.rotate %{{.*}} [1, 4, 2] : <logN = 12, logq = 200, logp = 30, slots = 2048>
    %many:3 = ckks.rotate %a [1, 4, 2] : !ct
    // CHECK: ckks.conjugate %{{.*}} : <logN = 12, logq = 200, logp = 30, slots = 2048>
    %c = ckks.conjugate %0 : !ct
    // CHECK: ckks.mul_monomial %{{.*}} {k = 2048 : i64} : <logN = 12, logq = 200, logp = 30, slots = 2048>
    %1 = ckks.mul_monomial %c {k = 2048} : !ct
    // CHECK: ckks.add_plain %{{.*}} {values = dense<{{.*}}> : tensor<2048xf64>}
    %2 = ckks.add_plain %1 {values = dense<0.5> : tensor<2048xf64>} : !ct
    // CHECK: ckks.mul_plain %{{.*}} {values = dense<(1.000000e+00,2.000000e+00)> : tensor<2048xcomplex<f64>>} : <{{.*}}logp = 30{{.*}}> -> <logN = 12, logq = 200, logp = 60, slots = 2048>
    %3 = ckks.mul_plain %2 {values = dense<(1.0, 2.0)> : tensor<2048xcomplex<f64>>} : !ct -> !ct60
    // Operands at different levels and scales: the long form of the types.
    // CHECK: ckks.add %{{.*}}, %{{.*}} : (<logN = 12, logq = 200, logp = 60, slots = 2048>, <logN = 12, logq = 170, logp = 30, slots = 2048>) -> <logN = 12, logq = 170, logp = 60, slots = 2048>
    %4 = ckks.add %3, %b : (!ct60, !low) -> !ck
    // CHECK: ckks.mul %{{.*}}, %{{.*}} : (<{{.*}}logq = 200{{.*}}>, <{{.*}}logq = 170{{.*}}>) -> <logN = 12, logq = 170, logp = 60, slots = 2048>
    %5 = ckks.mul %a, %b : (!ct, !low) -> !low60
    %6 = ckks.sub %4, %5 : !low60
    %7 = ckks.add %3, %3 : !ct60
    return %7 : !ct60
  }

  // Plaintext arguments, given when the function is called.
  // CHECK-LABEL: func.func @plaintext_arguments(
  // CHECK-SAME: %[[W:[^:]*]]: !ckks.pt<logN = 12, slots = 2048>)
  func.func @plaintext_arguments(%a: !ct, %w: !ckks.pt<logN = 12, slots = 2048>) -> !ct {
    // CHECK: ckks.mul_plain %{{.*}} by %[[W]] : !ckks.pt<logN = 12, slots = 2048> : <{{.*}}> -> <logN = 12, logq = 200, logp = 60, slots = 2048>
    %0 = ckks.mul_plain %a by %w : !ckks.pt<logN = 12, slots = 2048> : !ct -> !ct60
    // CHECK: ckks.add_plain %{{.*}} plus %[[W]] : !ckks.pt<logN = 12, slots = 2048> {negate}
    %1 = ckks.add_plain %a plus %w : !ckks.pt<logN = 12, slots = 2048> {negate} : !ct
    return %1 : !ct
  }
}

// -----

// CHECK-LABEL: func.func @poly_eval
// CHECK: ckks.poly_eval %{{.*}} {basis = "chebyshev", coefficients = array<f64: 0.000000e+00, 1.200000e+00, 0.000000e+00, -2.000000e-01>, domain = array<f64: -4.000000e+00, 4.000000e+00>}
module attributes {ckks.params = #ckks.params<logN = 13, logQ = 240, logp = 30, security = "none">} {
  func.func @poly_eval(%x: !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4096>) -> !ckks.ct<logN = 13, logq = 150, logp = 30, slots = 4096> {
    %y = ckks.poly_eval %x {basis = "chebyshev", coefficients = array<f64: 0.0, 1.2, 0.0, -0.2>, domain = array<f64: -4.0, 4.0>}
        : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 4096> -> !ckks.ct<logN = 13, logq = 150, logp = 30, slots = 4096>
    return %y : !ckks.ct<logN = 13, logq = 150, logp = 30, slots = 4096>
  }
}

// -----

// CHECK-LABEL: func.func @linear_transform
// CHECK: ckks.linear_transform %{{.*}} {baby_step = 2 : i64, diagonals = dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf64>, offsets = array<i64: 0, 1>}
module attributes {ckks.params = #ckks.params<logN = 13, logQ = 240, logp = 30, security = "none">} {
  func.func @linear_transform(%x: !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 2>) -> !ckks.ct<logN = 13, logq = 240, logp = 60, slots = 2> {
    %y = ckks.linear_transform %x {offsets = array<i64: 0, 1>, diagonals = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>, baby_step = 2 : i64}
        : !ckks.ct<logN = 13, logq = 240, logp = 30, slots = 2> -> !ckks.ct<logN = 13, logq = 240, logp = 60, slots = 2>
    return %y : !ckks.ct<logN = 13, logq = 240, logp = 60, slots = 2>
  }
}
