#ifndef FHEC_MODARITH_OPS_TD
#define FHEC_MODARITH_OPS_TD

include "dialect/ModArith/IR/ModArithDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"

class ModArith_Op<string mnemonic, list<Trait> traits = []>
    : Op<ModArith_Dialect, mnemonic, !listconcat(traits, [Pure, AllTypesMatch<["result", "p"]>])> {
  let hasVerifier = 1;
}

// A range bound: a power-of-two multiple of p.
def ModArith_Bound : ConfinedAttr<I64Attr, [IntPowerOf2, IntMaxValue<8>]>;

def ModArith_AddOp : ModArith_Op<"add", [AllTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "x + y mod p, lazily reduced";
  let description = [{
    x, y in [0, in * p); the result is in [0, out * p) with out = in (one
    conditional subtraction of in * p) or out = 2 * in (no reduction).
    `%z = modarith.add %x, %y mod %p {in = 2, out = 2} : i64`
  }];
  let arguments = (ins SignlessIntegerLike:$lhs, SignlessIntegerLike:$rhs, SignlessIntegerLike:$p,
                       DefaultValuedAttr<ModArith_Bound, "1">:$in, DefaultValuedAttr<ModArith_Bound, "1">:$out);
  let results = (outs SignlessIntegerLike:$result);
  let assemblyFormat = "$lhs `,` $rhs `mod` $p attr-dict `:` type($result)";
}

def ModArith_SubOp : ModArith_Op<"sub", [AllTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "x - y mod p, lazily reduced";
  let description = [{
    x, y in [0, in * p); the result is x - y + in * p in [0, 2 in p) when
    out = 2 * in, or reduced to [0, in * p) when out = in.
  }];
  let arguments = (ins SignlessIntegerLike:$lhs, SignlessIntegerLike:$rhs, SignlessIntegerLike:$p,
                       DefaultValuedAttr<ModArith_Bound, "1">:$in, DefaultValuedAttr<ModArith_Bound, "1">:$out);
  let results = (outs SignlessIntegerLike:$result);
  let assemblyFormat = "$lhs `,` $rhs `mod` $p attr-dict `:` type($result)";
}

def ModArith_ReduceOp : ModArith_Op<"reduce", [AllTypesMatch<["input", "result"]>]> {
  let summary = "Bring x from [0, in * p) into [0, out * p), out <= in";
  let description = [{ log2(in / out) conditional subtractions (of in/2 * p, ..., out * p). }];
  let arguments = (ins SignlessIntegerLike:$input, SignlessIntegerLike:$p,
                       DefaultValuedAttr<ModArith_Bound, "2">:$in, DefaultValuedAttr<ModArith_Bound, "1">:$out);
  let results = (outs SignlessIntegerLike:$result);
  let assemblyFormat = "$input `mod` $p attr-dict `:` type($result)";
}

def ModArith_MulShoupOp : ModArith_Op<"mul_shoup", [AllTypesMatch<["x", "w", "w_shoup", "result"]>]> {
  let summary = "x * w mod p with Shoup's precomputed quotient (Jung et al. 2021, Algo. 2)";
  let description = [{
    x is any word (x < 2^beta for IFMA), w < p and w_shoup = floor(w 2^beta / p).
    The result is in [0, 2p) when out = 2 (Harvey's lazy form), [0, p) when out = 1.
    Needs 2p < 2^beta.
    `%z = modarith.mul_shoup %x, %w, %ws mod %p {out = 2} : i64`
  }];
  let arguments = (ins SignlessIntegerLike:$x, SignlessIntegerLike:$w, SignlessIntegerLike:$w_shoup,
                       SignlessIntegerLike:$p, DefaultValuedAttr<ModArith_Bound, "1">:$out);
  let results = (outs SignlessIntegerLike:$result);
  let assemblyFormat = "$x `,` $w `,` $w_shoup `mod` $p attr-dict `:` type($result)";
}

def ModArith_MulBarrettOp : ModArith_Op<"mul_barrett", [AllTypesMatch<["x", "y", "mu", "bits", "result"]>]> {
  let summary = "x * y mod p for x, y < p by Barrett reduction of the double-word product";
  let description = [{
    p has `bits` bits (b) and mu = floor(2^(2b) / p). The result is in [0, p)
    when out = 1, [0, 2p) when out = 2 (one conditional subtraction fewer),
    [0, 3p) when out >= 4.
    `%z = modarith.mul_barrett %x, %y mod %p, %mu, %bits : i64`
  }];
  let arguments = (ins SignlessIntegerLike:$x, SignlessIntegerLike:$y, SignlessIntegerLike:$p,
                       SignlessIntegerLike:$mu, SignlessIntegerLike:$bits, DefaultValuedAttr<ModArith_Bound, "1">:$out);
  let results = (outs SignlessIntegerLike:$result);
  let assemblyFormat = "$x `,` $y `mod` $p `,` $mu `,` $bits attr-dict `:` type($result)";
  let hasVerifier = 0;  // ODS constraints say it all
}

def ModArith_MacOp : Op<ModArith_Dialect, "mac", [Pure,
    AllTypesMatch<["acc0", "acc1", "acc2", "x", "y", "out0", "out1", "out2"]>]> {
  let summary = "Three-word multiply-accumulate: (a0, a1, a2) + x * y";
  let description = [{
    The wide accumulator of CRT (Algo. 1) and iCRT (Algo. 5/6): a0 + a1 2^w +
    a2 2^(2w) + x * y, with w the word width, wrapping mod 2^(3w). Not a
    modular op: the kernels reduce the accumulator afterwards.
    `%r0, %r1, %r2 = modarith.mac %x, %y into %a0, %a1, %a2 : i64`
  }];
  let arguments = (ins SignlessIntegerLike:$acc0, SignlessIntegerLike:$acc1, SignlessIntegerLike:$acc2,
                       SignlessIntegerLike:$x, SignlessIntegerLike:$y);
  let results = (outs SignlessIntegerLike:$out0, SignlessIntegerLike:$out1, SignlessIntegerLike:$out2);
  let assemblyFormat = "$x `,` $y `into` $acc0 `,` $acc1 `,` $acc2 attr-dict `:` type($x)";
}

def ModArith_MacLazyOp : Op<ModArith_Dialect, "mac_lazy", [Pure,
    AllTypesMatch<["acc0", "acc1", "x", "y", "out0", "out1"]>]> {
  let summary = "Two-word multiply-accumulate without carry-out: (a0, a1) + x * y";
  let description = [{
    a0 + a1 2^w + x * y mod 2^(2w). The caller bounds the sum below 2^(2w):
    2^(2w - bx - by) products of bx- and by-bit operands fit, e.g. 16
    products of a 64-bit word and a 60-bit residue. Kernels accumulate a
    chunk this way (one add with carry per product instead of two) and fold
    each chunk into a three-word sum.
    `%r0, %r1 = modarith.mac_lazy %x, %y into %a0, %a1 : i64`
  }];
  let arguments = (ins SignlessIntegerLike:$acc0, SignlessIntegerLike:$acc1, SignlessIntegerLike:$x,
                       SignlessIntegerLike:$y);
  let results = (outs SignlessIntegerLike:$out0, SignlessIntegerLike:$out1);
  let assemblyFormat = "$x `,` $y `into` $acc0 `,` $acc1 attr-dict `:` type($x)";
}

def ModArith_MacSplitOp : Op<ModArith_Dialect, "mac_split", [Pure,
    AllTypesMatch<["lo", "hi", "x", "y", "out_lo", "out_hi"]>]> {
  let summary = "Digit multiply-accumulate: lo + (x * y mod 2^D), hi + floor(x * y / 2^D)";
  let description = [{
    The primitive of BigInt kernels over D-bit digits (D = 52 for IFMA:
    vpmadd52luq / vpmadd52huq). x, y < 2^D. The two sums are lazy: the
    caller bounds them below 2^w (e.g. up to 2^12 products of 52-bit digits
    in 64-bit lanes) and normalizes them with one carry pass.
    `%l, %h = modarith.mac_split %x, %y into %lo, %hi {digit = 52} : vector<8xi64>`
  }];
  let arguments = (ins SignlessIntegerLike:$lo, SignlessIntegerLike:$hi, SignlessIntegerLike:$x,
                       SignlessIntegerLike:$y, ConfinedAttr<I64Attr, [IntMinValue<8>, IntMaxValue<64>]>:$digit);
  let results = (outs SignlessIntegerLike:$out_lo, SignlessIntegerLike:$out_hi);
  let assemblyFormat = "$x `,` $y `into` $lo `,` $hi attr-dict `:` type($x)";
}

#endif
