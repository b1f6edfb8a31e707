// ckks-to-fhe's pointwise ops, plaintexts and HE Mul: HE Mul as the CRT ->
// NTT -> Hadamard -> iNTT -> iCRT dataflow of HEAAN's Scheme::mult (Jung et
// al. 2021, Fig. 2); products with plaintexts through region 1; HE
// Add/Sub/Negate, rescale, div_by_po2, mod_down, mod_raise and constant ops
// as BigInt pointwise ops; relabel as nothing.
#include "conversion/CKKSToFHE/FunctionLowering.h"
#include "conversion/Passes.h"
#include "conversion/CKKSToFHE/Bounds.h"

#include "fhec/runtime/Error.h"
#include "fhec/runtime/Reference.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <type_traits>

using namespace mlir;

namespace fhec {

using Pair = CiphertextPair;

/// The encoding of plaintext argument `pt` that one use reads.
Value FunctionLowering::plainUse(Value pt, unsigned logScale, unsigned logq, bool negate) {
  return plainUses.at({plainIndex.at(pt), int(logScale), int(logq), negate});
}

LogicalResult FunctionLowering::lower(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<ckks::AddOp>([&](auto o) { return binary<fhe::PolyAddOp>(o); })
      .Case<ckks::SubOp>([&](auto o) { return binary<fhe::PolySubOp>(o); })
      .Case<ckks::RotateOp>([&](ckks::RotateOp o) {
        for (auto [i, r] : llvm::enumerate(o.getResults())) lowerAutomorphism(o, r, o.getGaloisElement(i));
        return success();
      })
      .Case<ckks::ConjugateOp>([&](ckks::ConjugateOp o) {
        lowerAutomorphism(o, o.getResult(), o.getGaloisElement());
        return success();
      })
      .Case<ckks::EncapsulateOp>([&](ckks::EncapsulateOp o) {
        map[o.getResult()] = encapsulate(o.getLoc(), map.at(o.getInput()), o.getType().getLogq());
        return success();
      })
      .Case<ckks::DecapsulateOp>([&](ckks::DecapsulateOp o) {
        Pair x = map.at(o.getInput());
        map[o.getResult()] =
            switchKey(o.getLoc(), x, o.getType().getLogq(), encapsulationKeys.at(unsigned(o.getModLogq())).second, 0);
        return success();
      })
      .Case<ckks::LinearTransformOp>([&](ckks::LinearTransformOp o) { return lowerLinearTransform(o); })
      .Case<ckks::MulPlainOp>([&](ckks::MulPlainOp o) -> LogicalResult {
        auto in = o.getInput().getType();
        unsigned s = o.getConstantLogScale();
        FailureOr<Value> m = o.getPlain() ? plainUse(o.getPlain(), s, in.getLogq(), false)
                                          : plaintext(o, o.getSlotValues(), s, in.getLogq());
        if (failed(m)) return failure();
        auto r1 = fhe::BasisAttr::get(b.getContext(), region1Bits(params.getLogN(), in.getLogq()));
        Pair x = map.at(o.getInput());
        Value me = toEval(o.getLoc(), *m, r1);
        auto times = [&](Value poly) {
          return toPoly(o.getLoc(), fhe::HadamardOp::create(b, o.getLoc(), toEval(o.getLoc(), poly, r1), me),
                        in.getLogq());
        };
        map[o.getResult()] = {times(x.first), times(x.second)};
        return success();
      })
      .Case<ckks::AddPlainOp>([&](ckks::AddPlainOp o) -> LogicalResult {
        auto in = o.getInput().getType();
        FailureOr<Value> m = o.getPlain() ? plainUse(o.getPlain(), in.getLogp(), in.getLogq(), o.getNegate())
                                          : plaintext(o, o.getSlotValues(), in.getLogp(), in.getLogq());
        if (failed(m)) return failure();
        Pair x = map.at(o.getInput());
        map[o.getResult()] = {x.first, fhe::PolyAddOp::create(b, o.getLoc(), x.second, *m)};
        return success();
      })
      .Case<ckks::NegateOp>([&](ckks::NegateOp o) {
        Pair in = map.at(o.getInput());
        map[o.getResult()] = {fhe::PolyNegateOp::create(b, o.getLoc(), in.first),
                              fhe::PolyNegateOp::create(b, o.getLoc(), in.second)};
        return success();
      })
      .Case<ckks::MulMonomialOp>([&](ckks::MulMonomialOp o) {
        Pair in = map.at(o.getInput());
        auto monomial = [&](Value p) {
          return fhe::PolyMulMonomialOp::create(b, o.getLoc(), p.getType(), p, o.getKAttr()).getResult();
        };
        map[o.getResult()] = {monomial(in.first), monomial(in.second)};
        return success();
      })
      .Case<ckks::MulOp>([&](ckks::MulOp o) { return lowerMul(o); })
      .Case<ckks::RescaleOp, ckks::DivByPo2Op>([&](auto o) {
        auto in = o.getInput().getType(), out = o.getResult().getType();
        Type t = polyType(out.getLogq());
        int64_t d = in.getLogq() - out.getLogq();
        Pair p = map.at(o.getInput());
        bool round = false;
        if constexpr (std::is_same_v<decltype(o), ckks::RescaleOp>) round = o.getRound();
        map[o.getResult()] = {fhe::PolyShrOp::create(b, o.getLoc(), t, p.first, d, round),
                              fhe::PolyShrOp::create(b, o.getLoc(), t, p.second, d, round)};
        return success();
      })
      .Case<ckks::ModDownOp, ckks::ModRaiseOp>([&](auto o) {
        // Reduction mod a smaller q, or the centred lift to a larger one.
        using PolyOp = std::conditional_t<std::is_same_v<decltype(o), ckks::ModDownOp>, fhe::PolyReduceOp,
                                          fhe::PolyModRaiseOp>;
        Type t = polyType(o.getResult().getType().getLogq());
        Pair p = map.at(o.getInput());
        map[o.getResult()] = {PolyOp::create(b, o.getLoc(), t, p.first), PolyOp::create(b, o.getLoc(), t, p.second)};
        return success();
      })
      .Case<ckks::RelabelOp>([&](ckks::RelabelOp o) {
        // A copy first: map[] may grow the map and free the entry at() refers to.
        Pair p = map.at(o.getInput());
        map[o.getResult()] = p;
        return success();
      })
      .Case<ckks::MulConstOp>([&](ckks::MulConstOp o) -> LogicalResult {
        auto k = scaled(o, o.getValue().convertToDouble(), o.getConstantLogScale());
        if (failed(k)) return failure();
        Pair p = map.at(o.getInput());
        map[o.getResult()] = {fhe::PolyMulScalarOp::create(b, o.getLoc(), p.first, *k),
                              fhe::PolyMulScalarOp::create(b, o.getLoc(), p.second, *k)};
        return success();
      })
      .Case<ckks::AddConstOp>([&](ckks::AddConstOp o) -> LogicalResult {
        auto k = scaled(o, o.getValue().convertToDouble(), o.getInput().getType().getLogp());
        if (failed(k)) return failure();
        Pair p = map.at(o.getInput());
        map[o.getResult()] = {p.first, fhe::PolyAddConstantTermOp::create(b, o.getLoc(), p.second, *k)};
        return success();
      })
      .Default([&](Operation *o) {
        return o->emitOpError() << "is not supported by ckks-to-fhe";
      });
}

template <typename PolyOp, typename CkksOp> LogicalResult FunctionLowering::binary(CkksOp o) {
  auto t = o.getType();
  Pair l = align(o.getLoc(), map.at(o.getLhs()), o.getLhs().getType(), t);
  Pair r = align(o.getLoc(), map.at(o.getRhs()), o.getRhs().getType(), t);
  map[o.getResult()] = {PolyOp::create(b, o.getLoc(), l.first, r.first),
                        PolyOp::create(b, o.getLoc(), l.second, r.second)};
  return success();
}

// A ciphertext's polynomials brought from type `from` to `to` (ckks.add's
// alignment): reduced mod the smaller q, multiplied up to the larger scale.
Pair FunctionLowering::align(Location loc, Pair p, ckks::CiphertextType from, ckks::CiphertextType to) {
  if (from.getLogq() > to.getLogq()) {
    Type t = polyType(to.getLogq());
    p = {fhe::PolyReduceOp::create(b, loc, t, p.first), fhe::PolyReduceOp::create(b, loc, t, p.second)};
  }
  if (from.getLogp() < to.getLogp()) {
    unsigned d = to.getLogp() - from.getLogp();
    llvm::APInt k = llvm::APInt::getOneBitSet(d + 2, d);  // 2^d, positive
    IntegerAttr attr = b.getIntegerAttr(b.getIntegerType(d + 2), k);
    p = {fhe::PolyMulScalarOp::create(b, loc, p.first, attr), fhe::PolyMulScalarOp::create(b, loc, p.second, attr)};
  }
  return p;
}

// The plaintext of `values` encoded at scale 2^logScale mod 2^logq
// (rt::encode, the same encoding the reference uses) as a constant.
FailureOr<Value> FunctionLowering::plaintext(Operation *op, const std::vector<rt::Complex> &values, unsigned logScale,
                                             unsigned logq) {
  rt::BigPoly m;
  try {
    m = rt::encode(values, int(params.getLogN()), int(logScale), int(logq));
  } catch (const rt::Error &e) {
    return op->emitOpError() << "cannot encode its plaintext: " << e.what();
  }
  // The coefficients as centered signed integers, in the narrowest width of whole words.
  std::vector<llvm::APInt> coeffs(m.N());
  unsigned width = 64;
  mpz_t c;
  mpz_init(c);
  for (size_t i = 0; i < m.N(); ++i) {
    m.get(i, c, /*centered=*/true);
    width = std::max<unsigned>(width, unsigned((mpz_sizeinbase(c, 2) + 1 + 63) / 64 * 64));
  }
  for (size_t i = 0; i < m.N(); ++i) {
    m.get(i, c, /*centered=*/true);
    bool negative = mpz_sgn(c) < 0;
    mpz_abs(c, c);
    std::vector<uint64_t> words(width / 64, 0);
    size_t count = 0;
    mpz_export(words.data(), &count, -1, sizeof(uint64_t), 0, 0, c);
    coeffs[i] = llvm::APInt(width, words);
    if (negative) coeffs[i].negate();
  }
  mpz_clear(c);
  auto tensor = RankedTensorType::get({int64_t(m.N())}, b.getIntegerType(width));
  return fhe::PolyConstantOp::create(b, op->getLoc(), polyType(logq), DenseIntElementsAttr::get(tensor, coeffs))
      .getResult();
}

// round(value * 2^logScale) as a signed integer attribute wide enough to hold it.
FailureOr<IntegerAttr> FunctionLowering::scaled(Operation *op, double value, unsigned logScale) {
  bool negative = false;
  std::vector<uint64_t> mag;
  try {
    rt::scaleConstant(value, int(logScale), negative, mag);
  } catch (const rt::Error &e) {
    return op->emitOpError() << e.what();
  }
  llvm::APInt k(unsigned(64 * mag.size() + 64), llvm::ArrayRef<uint64_t>(mag));
  if (negative) k.negate();
  return b.getIntegerAttr(b.getIntegerType(k.getBitWidth()), k);
}

// CRT of a BigInt polynomial into `basis` (shared per operand), of its
// centered representatives if `centered`.
Value FunctionLowering::toCoeff(Location loc, Value poly, fhe::BasisAttr basis, bool centered) {
  auto key = std::make_tuple(poly, Attribute(basis), unsigned(centered));
  auto it = coeffCache.find(key);
  if (it != coeffCache.end()) return it->second;
  auto crt = fhe::CrtOp::create(b, loc, rnsType(basis, fhe::Domain::coeff), poly);
  crt.setCentered(centered);
  return coeffCache[key] = crt.getResult();
}

// CRT then NTT of a BigInt polynomial into `basis` (shared per operand).
Value FunctionLowering::toEval(Location loc, Value poly, fhe::BasisAttr basis, bool centered) {
  auto key = std::make_tuple(poly, Attribute(basis), unsigned(centered));
  auto it = evalCache.find(key);
  if (it != evalCache.end()) return it->second;
  return evalCache[key] =
             fhe::NttOp::create(b, loc, rnsType(basis, fhe::Domain::eval), toCoeff(loc, poly, basis, centered));
}

// iNTT then iCRT, reconstructing mod 2^logq.
Value FunctionLowering::toPoly(Location loc, Value eval, unsigned logq) {
  auto t = cast<fhe::RnsType>(eval.getType());
  Value c = fhe::InttOp::create(b, loc, t.withDomain(fhe::Domain::coeff), eval);
  return fhe::IcrtOp::create(b, loc, polyType(logq), c);
}

// HE Mul, Fig. 2: region 1 (Karatsuba tensor product mod q) and region 2
// (relinearization: ((axax * evk) mod qQ) >> logQ).
LogicalResult FunctionLowering::lowerMul(ckks::MulOp o) {
  Location loc = o.getLoc();
  unsigned logN = params.getLogN();
  unsigned logq = o.getType().getLogq();
  // An operand at a higher level is reduced to the other's first.
  auto level = [&](Value v) {
    auto t = cast<ckks::CiphertextType>(v.getType());
    return align(loc, map.at(v), t, ckks::CiphertextType::get(b.getContext(), t.getLogN(), logq, t.getLogp(), t.getSlots()));
  };
  Pair x = level(o.getLhs()), y = level(o.getRhs());

  auto r1 = fhe::BasisAttr::get(b.getContext(), region1Bits(logN, logq));
  Value a1 = toEval(loc, x.first, r1), b1 = toEval(loc, x.second, r1);
  Value a2 = toEval(loc, y.first, r1), b2 = toEval(loc, y.second, r1);
  Value axaxE = fhe::HadamardOp::create(b, loc, a1, a2);
  Value bxbxE = fhe::HadamardOp::create(b, loc, b1, b2);
  Value s1 = fhe::AddOp::create(b, loc, a1, b1);
  Value s2 = fhe::AddOp::create(b, loc, a2, b2);
  Value tE = fhe::HadamardOp::create(b, loc, s1, s2);
  // Karatsuba's axbx = t - axax - bxbx on the residues: the iCRT of the
  // difference is exact, since |a1 b2 + a2 b1| <= 2 N q^2 is well inside
  // region 1's bound (P > 16 N (2q)^2), and it saves two BigInt passes.
  Value axbxE = fhe::SubOp::create(b, loc, fhe::SubOp::create(b, loc, tE, axaxE), bxbxE);
  Value axax = toPoly(loc, axaxE, logq);
  Value bxbx = toPoly(loc, bxbxE, logq);
  Value axbx = toPoly(loc, axbxE, logq);

  // Region 2: relinearization of axax with the evaluation key.
  Value axmult, bxmult;
  if (hybrid()) {
    SmallVector<Value> d = evalDigits(loc, axax, 0);
    axmult = hybridKeySwitch(loc, d, evk, false, logq);
    bxmult = hybridKeySwitch(loc, d, evk, true, logq);
  } else {
    Value d2 = toEval(loc, axax, region2(logq), centeredKeySwitch());
    axmult = keySwitch(loc, d2, evk[0].first, logq);
    bxmult = keySwitch(loc, d2, evk[0].second, logq);
  }
  map[o.getResult()] = {fhe::PolyAddOp::create(b, loc, axmult, axbx), fhe::PolyAddOp::create(b, loc, bxmult, bxbx)};
  return success();
}

// Bits b with |c| < 2^b for every coefficient c of a poly_constant.
unsigned FunctionLowering::magnitudeBits(Value constant) {
  auto values = cast<DenseIntElementsAttr>(constant.getDefiningOp<fhe::PolyConstantOp>().getValue());
  unsigned bits = 1;
  for (const llvm::APInt &c : values.getValues<llvm::APInt>())
    bits = std::max(bits, (c.isNegative() ? (-c) : c).getActiveBits() + 1);
  return bits;
}

} // namespace fhec
