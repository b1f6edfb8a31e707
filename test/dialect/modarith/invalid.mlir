// RUN: fhec-opt %s -split-input-file -verify-diagnostics

func.func @add_range(%x: i64, %p: i64) -> i64 {
  // expected-error @+1 {{result range [0, 8p) must be [0, 2p) or [0, 4p) for inputs in [0, 2p)}}
  %0 = modarith.add %x, %x mod %p {in = 2, out = 8} : i64
  return %0 : i64
}

// -----

func.func @sub_range(%x: i64, %p: i64) -> i64 {
  // expected-error @+1 {{result range [0, 1p) must be [0, 2p) or [0, 4p) for inputs in [0, 2p)}}
  %0 = modarith.sub %x, %x mod %p {in = 2, out = 1} : i64
  return %0 : i64
}

// -----

func.func @reduce_widens(%x: i64, %p: i64) -> i64 {
  // expected-error @+1 {{cannot widen the range from [0, 2p) to [0, 4p)}}
  %0 = modarith.reduce %x mod %p {in = 2, out = 4} : i64
  return %0 : i64
}

// -----

func.func @shoup_range(%x: i64, %p: i64) -> i64 {
  // expected-error @+1 {{Shoup's product is in [0, 2p): out must be 1 or 2, got 4}}
  %0 = modarith.mul_shoup %x, %x, %x mod %p {out = 4} : i64
  return %0 : i64
}

// -----

func.func @not_power_of_two(%x: i64, %p: i64) -> i64 {
  // expected-error @+1 {{attribute 'in' failed to satisfy constraint}}
  %0 = modarith.reduce %x mod %p {in = 3, out = 1} : i64
  return %0 : i64
}

// -----

func.func @bound_too_large(%x: i64, %p: i64) -> i64 {
  // expected-error @+1 {{attribute 'in' failed to satisfy constraint}}
  %0 = modarith.add %x, %x mod %p {in = 16, out = 16} : i64
  return %0 : i64
}

// -----

func.func @mixed_types(%x: i64, %p: i32) -> i64 {
  // expected-error @+1 {{all of {result, p} have same type}}
  %0 = "modarith.reduce"(%x, %p) <{in = 2 : i64, out = 1 : i64}> : (i64, i32) -> i64
  return %0 : i64
}

// -----

func.func @float(%x: f64, %p: f64) -> f64 {
  // expected-error @+1 {{operand #0 must be signless-integer, but got 'f64'}}
  %0 = modarith.reduce %x mod %p : f64
  return %0 : f64
}
