// RUN: fhec-opt %s --ckks-expand-poly-eval --split-input-file | FileCheck %s

// x^3 on [-1, 1] is 0.75 T_1 + 0.25 T_3 = (0.5 T_1) T_2 + 0.5 T_1 (split at
// the giant step T_2 = 2 x^2 - 1): two products of ciphertexts, depth
// ceil(log2 4) = 2, no interval scaling.
// CHECK-LABEL: func.func @cube
// CHECK-SAME: -> !ckks.ct<logN = 13, logq = 140, logp = 30, slots = 16>
// CHECK: %[[Q:.*]] = ckks.mul_const %[[X:.*]] {value = 5.000000e-01 : f64}
// CHECK: %[[QR:.*]] = ckks.rescale %[[Q]]
// CHECK: %[[SQ:.*]] = ckks.mul %[[X]], %[[X]]
// CHECK: %[[SQR:.*]] = ckks.rescale %[[SQ]]
// CHECK: %[[T2X2:.*]] = ckks.add %[[SQR]], %[[SQR]]
// CHECK: %[[T2:.*]] = ckks.add_const %[[T2X2]] {value = -1.000000e+00 : f64}
// CHECK: %[[P:.*]] = ckks.mul %[[QR]], %[[T2]]
// CHECK: %[[PR:.*]] = ckks.rescale %[[P]]
// CHECK: %[[R:.*]] = ckks.mod_down
// CHECK: %[[Y:.*]] = ckks.add %[[PR]], %[[R]]
// CHECK: return %[[Y]]
// CHECK-NOT: ckks.poly_eval
module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @cube(%x: !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16>) -> !ckks.ct<logN = 13, logq = 140, logp = 30, slots = 16> {
    %y = ckks.poly_eval %x {basis = "power", coefficients = array<f64: 0.0, 0.0, 0.0, 1.0>}
        : !ckks.ct<logN = 13, logq = 200, logp = 30, slots = 16> -> !ckks.ct<logN = 13, logq = 140, logp = 30, slots = 16>
    return %y : !ckks.ct<logN = 13, logq = 140, logp = 30, slots = 16>
  }
}

// -----

// A dense Chebyshev series of degree 63 on [-4, 4] at 2^15 slots: depth 6,
// plus 1 for the interval scaling (1200 - 7 * 30 = 990), and 18 products of
// ciphertexts: baby steps T_2..T_7 (6), giant steps T_8, T_16, T_32 (3), 7 to
// join the 8 parts, and 2 to split the part on the critical path (the one
// multiplied by T_8 T_16 T_32) further so that it fits depth 3.
// CHECK-LABEL: func.func @dense63
// CHECK-SAME: -> !ckks.ct<logN = 16, logq = 990, logp = 30, slots = 32768>
// CHECK: ckks.mul_const %{{.*}} {value = 2.500000e-01 : f64}
// CHECK-COUNT-18: ckks.mul %
// CHECK-NOT: ckks.mul %
// CHECK: return
module attributes {ckks.params = #ckks.params<logN = 16, logQ = 1200, logp = 30, security = "none">} {
  func.func @dense63(%x: !ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 32768>) -> !ckks.ct<logN = 16, logq = 990, logp = 30, slots = 32768> {
    %y = ckks.poly_eval %x {basis = "chebyshev", domain = array<f64: -4.0, 4.0>,
        coefficients = array<f64: 0.023643249400513433, 0.9009273926518706, -0.7116807745607325, 0.8972988942744877, -0.3763370959790291, -0.1533471020548487, 0.6554051876408835, -0.18160172726167745, 0.09918737534611899, -0.9448817735138633, 0.5070262173496132, 0.07628662643855644, -0.34053656700181567, 0.5768574068568086, -0.39361034141671003, -0.09300422103869699, -0.7319166055056705, -0.19377402710574154, -0.5930895186477008, -0.475373319116301, 0.5007293452601052, -0.43918248402792015, -0.029618051136729884, 0.9614743996024773, 0.9233143873275735, 0.4495798815470673, 0.08245371109486843, -0.44621759190925836, -0.6786959824497463, 0.9398508264322651, 0.03213717109575742, -0.7682687750584594, 0.24697951107500082, 0.553366228684596, 0.22600660210608092, 0.8345954095818053, -0.9208142466715943, 0.057178526520043294, -0.08132823422919255, -0.8753008417002488, 0.2826563382787499, 0.7052656769613135, 0.18588203620856802, -0.4798051045255536, 0.6797630420628176, 0.01899176304301875, 0.021777768933066044, 0.5060604154043558, -0.7041559284300869, 0.639253438238554, 0.3665738120065143, 0.5741938831096021, -0.6167674819597295, 0.60472832226906, -0.6173521478855994, -0.8368947652729746, 0.7104539485741403, 0.7225669923553368, 0.753074192833161, -0.05618056128241955, -0.45190322277256345, -0.9858163427936675, 0.29144179114989566, 0.4398187670173861>}
        : !ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 32768> -> !ckks.ct<logN = 16, logq = 990, logp = 30, slots = 32768>
    return %y : !ckks.ct<logN = 16, logq = 990, logp = 30, slots = 32768>
  }
}

// -----

// An input above the module's scale (an unrescaled product) is rescaled to
// it first: 0.5 T_1 + 0.25 T_2 then takes depth 2 from logq 170.
// CHECK-LABEL: func.func @after_product
// CHECK-SAME: -> !ckks.ct<logN = 13, logq = 110, logp = 30, slots = 16>
// CHECK: ckks.rescale %{{.*}} : <logN = 13, logq = 200, logp = 60, slots = 16> -> <logN = 13, logq = 170, logp = 30, slots = 16>
module attributes {ckks.params = #ckks.params<logN = 13, logQ = 200, logp = 30, security = "none">} {
  func.func @after_product(%x: !ckks.ct<logN = 13, logq = 200, logp = 60, slots = 16>) -> !ckks.ct<logN = 13, logq = 110, logp = 30, slots = 16> {
    %y = ckks.poly_eval %x {basis = "chebyshev", coefficients = array<f64: 0.0, 0.5, 0.25>}
        : !ckks.ct<logN = 13, logq = 200, logp = 60, slots = 16> -> !ckks.ct<logN = 13, logq = 110, logp = 30, slots = 16>
    return %y : !ckks.ct<logN = 13, logq = 110, logp = 30, slots = 16>
  }
}
