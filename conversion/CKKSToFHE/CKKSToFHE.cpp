// ckks-to-fhe: HE Mul as the CRT -> NTT -> Hadamard -> iNTT -> iCRT dataflow of
// HEAAN's Scheme::mult (Jung et al. 2021, Fig. 2); rotation and conjugation as
// an automorphism plus key switching through the same region 2; products with
// plaintexts through region 1; HE Add/Sub/Negate, rescale, div_by_po2,
// mod_down, mod_raise and constant ops as BigInt pointwise ops; relabel as
// nothing.
#include "conversion/Passes.h"
#include "passes/Bounds.h"

#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Reference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>
#include <optional>
#include <set>
#include <type_traits>

namespace fhec {
#define GEN_PASS_DEF_CKKSTOFHE
#include "conversion/Passes.h.inc"
} // namespace fhec

using namespace mlir;
using namespace fhec;

namespace {

using Pair = std::pair<Value, Value>;  // (ax, bx)
using KeyParts = SmallVector<Pair>;     // a key-switching key's (ax, bx), one pair per digit (dnum)

/// Lowers the body of one function; one method per ckks op.
class FunctionLowering {
public:
  FunctionLowering(OpBuilder &b, ckks::ParamsAttr params, fhe::BasisAttr evkBasis, KeyParts evk,
                   llvm::DenseMap<uint64_t, KeyParts> rotationKeys)
      : b(b), params(params), evkBasis(evkBasis), evk(evk), rotationKeys(std::move(rotationKeys)) {}

  llvm::DenseMap<Value, Pair> map;
  /// Sparse-secret encapsulation keys by q0 (bits): the key to the ephemeral
  /// secret (one pair, in its own basis) and the parts of the key back.
  llvm::DenseMap<unsigned, std::pair<Pair, KeyParts>> encapsulationKeys;
  /// Plaintext arguments: their index, and the polynomial argument of each
  /// use (index, scale, modulus, negated), which the runtime encodes per call.
  llvm::DenseMap<Value, int> plainIndex;
  std::map<std::tuple<int, int, int, bool>, Value> plainUses;

  /// The encoding of plaintext argument `pt` that one use reads.
  Value plainUse(Value pt, unsigned logScale, unsigned logq, bool negate) {
    return plainUses.at({plainIndex.at(pt), int(logScale), int(logq), negate});
  }

  LogicalResult lower(Operation *op) {
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

private:
  OpBuilder &b;
  ckks::ParamsAttr params;
  fhe::BasisAttr evkBasis;
  KeyParts evk;
  llvm::DenseMap<uint64_t, KeyParts> rotationKeys;  // by Galois element
  // Hybrid key switching: the digits of a BigInt polynomial, CRT'd into the
  // key basis (shared by the rotations of one ciphertext).
  llvm::DenseMap<Value, SmallVector<Value>> digitCache;
  // CRT'd and NTT'd operands shared between products: (BigInt value, basis) -> RNS.
  llvm::DenseMap<std::tuple<Value, Attribute, unsigned>, Value> coeffCache, evalCache;  // (poly, basis, centered)

  fhe::PolyType polyType(unsigned logq) { return fhe::PolyType::get(b.getContext(), params.getLogN(), logq); }

  fhe::RnsType rnsType(fhe::BasisAttr basis, fhe::Domain d) {
    return fhe::RnsType::get(b.getContext(), params.getLogN(), basis, d, fhe::Layout::prime_major);
  }

  // A ciphertext's polynomials brought from type `from` to `to` (ckks.add's
  // alignment): reduced mod the smaller q, multiplied up to the larger scale.
  Pair align(Location loc, Pair p, ckks::CiphertextType from, ckks::CiphertextType to) {
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

  template <typename PolyOp, typename CkksOp> LogicalResult binary(CkksOp o) {
    auto t = o.getType();
    Pair l = align(o.getLoc(), map.at(o.getLhs()), o.getLhs().getType(), t);
    Pair r = align(o.getLoc(), map.at(o.getRhs()), o.getRhs().getType(), t);
    map[o.getResult()] = {PolyOp::create(b, o.getLoc(), l.first, r.first),
                          PolyOp::create(b, o.getLoc(), l.second, r.second)};
    return success();
  }

  // The plaintext of `values` encoded at scale 2^logScale mod 2^logq
  // (rt::encode, the same encoding the reference uses) as a constant.
  FailureOr<Value> plaintext(Operation *op, const std::vector<rt::Complex> &values, unsigned logScale,
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
  FailureOr<IntegerAttr> scaled(Operation *op, double value, unsigned logScale) {
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
  Value toCoeff(Location loc, Value poly, fhe::BasisAttr basis, bool centered = false) {
    auto key = std::make_tuple(poly, Attribute(basis), unsigned(centered));
    auto it = coeffCache.find(key);
    if (it != coeffCache.end()) return it->second;
    auto crt = fhe::CrtOp::create(b, loc, rnsType(basis, fhe::Domain::coeff), poly);
    crt.setCentered(centered);
    return coeffCache[key] = crt.getResult();
  }

  // CRT then NTT of a BigInt polynomial into `basis` (shared per operand).
  Value toEval(Location loc, Value poly, fhe::BasisAttr basis, bool centered = false) {
    auto key = std::make_tuple(poly, Attribute(basis), unsigned(centered));
    auto it = evalCache.find(key);
    if (it != evalCache.end()) return it->second;
    return evalCache[key] =
               fhe::NttOp::create(b, loc, rnsType(basis, fhe::Domain::eval), toCoeff(loc, poly, basis, centered));
  }

  // Key switching decomposes the switched polynomial through its centered
  // representatives, and rounds its final shift, unless the module asks for
  // HEAAN's unsigned ones and floor.
  bool centeredKeySwitch() const { return !params.isHeaanKeySwitch(); }

  // iNTT then iCRT, reconstructing mod 2^logq.
  Value toPoly(Location loc, Value eval, unsigned logq) {
    auto t = cast<fhe::RnsType>(eval.getType());
    Value c = fhe::InttOp::create(b, loc, t.withDomain(fhe::Domain::coeff), eval);
    return fhe::IcrtOp::create(b, loc, polyType(logq), c);
  }

  fhe::BasisAttr region2(unsigned logq) {
    return fhe::BasisAttr::get(b.getContext(), region2Bits(params.getLogN(), logq, params.getLogQ()));
  }

  bool hybrid() const { return params.getDnum() > 1; }

  // Hybrid key switching (dnum > 1, docs/design.md): the k = ceil(logq / B)
  // digits of x mod q, B = logP, in the key basis's coefficient domain.
  // Balanced (centered form): digit j is bits [jB, jB + w_j) of
  // x + sum_{i<j} 2^(iB + B - 1) read centered; HEAAN's form reads x's own
  // bits unsigned. Each digit is one fused kernel (fhe-fuse).
  ArrayRef<Value> digits(Location loc, Value x) {
    auto it = digitCache.find(x);
    if (it != digitCache.end()) return it->second;
    const unsigned logq = cast<fhe::PolyType>(x.getType()).getLogq(), B = params.getLogP();
    const unsigned k = (logq + B - 1) / B;
    const bool balanced = centeredKeySwitch();
    SmallVector<Value> out;
    for (unsigned j = 0; j < k; ++j) {
      const unsigned width = j + 1 < k ? B : logq - j * B;
      Value y = x;
      if (balanced && j > 0) {
        llvm::APInt h(logq, 0);
        for (unsigned i = 0; i < j; ++i) h.setBit(i * B + B - 1);
        y = fhe::PolyAddScalarOp::create(b, loc, y, b.getIntegerAttr(b.getIntegerType(logq), h));
      }
      if (j > 0) y = fhe::PolyShrOp::create(b, loc, polyType(logq - j * B), y, int64_t(j * B));
      if (width < logq - j * B) y = fhe::PolyReduceOp::create(b, loc, polyType(width), y);
      out.push_back(toCoeff(loc, y, evkBasis, balanced));
    }
    return digitCache[x] = std::move(out);
  }

  // floor or round((sum_j d_j key_j mod qP) / P) for the digits d_j (eval domain, key
  // basis) and the key parts (ax or bx halves): the products summed in the
  // evaluation domain, one iNTT and iCRT mod 2^(logq + logP), the shift.
  Value hybridKeySwitch(Location loc, ArrayRef<Value> d, const KeyParts &key, bool bxHalf, unsigned logq) {
    Value sum;
    for (auto [j, dj] : llvm::enumerate(d)) {
      Value prod = fhe::HadamardOp::create(b, loc, dj, bxHalf ? key[j].second : key[j].first);
      sum = sum ? fhe::AddOp::create(b, loc, sum, prod).getResult() : prod;
    }
    Value wide = toPoly(loc, sum, logq + params.getLogP());
    return fhe::PolyShrOp::create(b, loc, polyType(logq), wide, int64_t(params.getLogP()), centeredKeySwitch());
  }

  // The digits of x in the evaluation domain, after phi_g when g != 0.
  SmallVector<Value> evalDigits(Location loc, Value x, uint64_t g) {
    SmallVector<Value> out;
    for (Value c : digits(loc, x)) {
      if (g) c = fhe::AutomorphismOp::create(b, loc, c.getType(), c, b.getI64IntegerAttr(int64_t(g)));
      out.push_back(fhe::NttOp::create(b, loc, cast<fhe::RnsType>(c.getType()).withDomain(fhe::Domain::eval), c));
    }
    return out;
  }

  // Key switching, region 2 of Fig. 2: floor or round((a * key mod qQ) / Q) for a in
  // the eval domain of region 2's basis and a key (mod Q^2) prepared in the
  // evaluation-key basis, read through a prefix at lower levels.
  Value keySwitch(Location loc, Value a, Value key, unsigned logq) {
    auto r2 = cast<fhe::RnsType>(a.getType()).getBasis();
    if (r2 != evkBasis) key = fhe::BasisPrefixOp::create(b, loc, rnsType(r2, fhe::Domain::eval), key);
    Value wide = toPoly(loc, fhe::HadamardOp::create(b, loc, a, key), logq + params.getLogQ());
    return fhe::PolyShrOp::create(b, loc, polyType(logq), wide, int64_t(params.getLogQ()), centeredKeySwitch());
  }

  // HE Mul, Fig. 2: region 1 (Karatsuba tensor product mod q) and region 2
  // (relinearization: ((axax * evk) mod qQ) >> logQ).
  LogicalResult lowerMul(ckks::MulOp o) {
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

  // Rotation / conjugation (HEAAN leftRotateFast, conjugate): the CRT of ax
  // (centered in [-q/2, q/2), or HEAAN's unsigned [0, q)) and the automorphism
  // on its residues give the residues of the signed a' = phi_g(ax) (|a'| < q,
  // within region 2's bound like axax); key switching with the rotation key
  // of g; b' = phi_g(bx) mod q.
  // Result `r` of rotation or conjugation `o`: phi_g of its input.
  void lowerAutomorphism(Operation *o, Value r, uint64_t g) {
    auto t = cast<ckks::CiphertextType>(r.getType());
    map[r] = rotate(o->getLoc(), map.at(o->getOperand(0)), t.getLogq(), g);
  }

  Pair rotate(Location loc, Pair x, unsigned logq, uint64_t g) {
    auto key = rotationKeys.find(g);
    assert(key != rotationKeys.end() && "rotation keys are collected per function");
    return switchKey(loc, x, logq, key->second, g);
  }

  // Key switching of x with `key` (mod PQ) after phi_g, g = 0: none (the
  // decapsulation of sparse-secret encapsulation).
  Pair switchKey(Location loc, Pair x, unsigned logq, const KeyParts &key, uint64_t g) {
    auto phi = [&](Value v) {
      return g ? fhe::PolyAutomorphismOp::create(b, loc, v.getType(), v, b.getI64IntegerAttr(int64_t(g))).getResult() : v;
    };
    if (hybrid()) {
      // phi_g of each digit of ax: the rotations of x share its digits.
      SmallVector<Value> d = evalDigits(loc, x.first, g);
      Value ax = hybridKeySwitch(loc, d, key, false, logq);
      Value bx = hybridKeySwitch(loc, d, key, true, logq);
      return {ax, fhe::PolyAddOp::create(b, loc, bx, phi(x.second))};
    }
    Value e;
    if (g) {
      Value c = toCoeff(loc, x.first, region2(logq), centeredKeySwitch());
      Value rotated = fhe::AutomorphismOp::create(b, loc, c.getType(), c, b.getI64IntegerAttr(int64_t(g)));
      e = fhe::NttOp::create(b, loc, cast<fhe::RnsType>(c.getType()).withDomain(fhe::Domain::eval), rotated);
    } else {
      e = toEval(loc, x.first, region2(logq), centeredKeySwitch());
    }
    Value ax = keySwitch(loc, e, key[0].first, logq);
    Value bx = keySwitch(loc, e, key[0].second, logq);
    return {ax, fhe::PolyAddOp::create(b, loc, bx, phi(x.second))};
  }

  // Sparse-secret encapsulation at q0 = 2^logq: round or floor((a' k mod q0 P')
  // / P') with the small key k to the ephemeral secret (rt::EncapsulationKey).
  Pair encapsulate(Location loc, Pair x, unsigned logq) {
    const Pair &key = encapsulationKeys.at(logq).first;
    auto basis = cast<fhe::RnsType>(key.first.getType()).getBasis();
    const unsigned logP = unsigned(rt::encapsulationLogP(int(logq)));
    Value e = toEval(loc, x.first, basis, centeredKeySwitch());
    auto times = [&](Value k) {
      Value wide = toPoly(loc, fhe::HadamardOp::create(b, loc, e, k), logq + logP);
      return fhe::PolyShrOp::create(b, loc, polyType(logq), wide, int64_t(logP), centeredKeySwitch()).getResult();
    };
    return {times(key.first), fhe::PolyAddOp::create(b, loc, times(key.second), x.second)};
  }

  // ckks.linear_transform, baby-step giant-step: the baby rotations of x
  // (their key switches share x's decomposition after fhe-hoist-automorphisms),
  // then per giant step the products with its rotated diagonals summed in the
  // evaluation domain, so one iNTT/iCRT per polynomial gives the sum mod q
  // exactly; then the giant rotation. One basis for all inner sums (each baby
  // is converted once), sized for the largest: x's coefficients are below q,
  // the encoded diagonals' (read centered) below 2^bits of the widest.
  LogicalResult lowerLinearTransform(ckks::LinearTransformOp o) {
    Location loc = o.getLoc();
    auto t = o.getInput().getType();
    unsigned logN = params.getLogN(), logq = t.getLogq();
    ckks::BsgsPlan plan = o.getPlan();
    Pair x = map.at(o.getInput());
    llvm::DenseMap<int64_t, Pair> babies;
    for (int64_t baby : plan.babies)
      babies[baby] = baby == 0 ? x : rotate(loc, x, logq, rt::galoisForRotation(int(logN), baby));
    std::vector<std::vector<rt::Complex>> rows = o.getDiagonalRows();
    llvm::DenseMap<size_t, Value> diagonals;
    unsigned plainBits = 1, terms = 0;
    for (auto &[giant, members] : plan.groups) {
      terms = std::max(terms, unsigned(members.size()));
      for (auto [baby, i] : members) {
        FailureOr<Value> m = plaintext(o, ckks::rotatedDiagonal(rows[i], giant), o.getConstantLogScale(), logq);
        if (failed(m)) return failure();
        diagonals[i] = *m;
        plainBits = std::max(plainBits, magnitudeBits(*m));
      }
    }
    auto basis = fhe::BasisAttr::get(b.getContext(), accumulatedProductBits(logN, logq, plainBits, terms));
    std::optional<Pair> sum;
    for (auto &[giant, members] : plan.groups) {
      Value accA, accB;
      for (auto [baby, i] : members) {
        // Centered: the constant's residues are those of its small signed
        // coefficients, not of their representatives mod q.
        Value me = toEval(loc, diagonals.at(i), basis, /*centered=*/true);
        Pair in = babies.at(baby);
        Value pa = fhe::HadamardOp::create(b, loc, toEval(loc, in.first, basis), me);
        Value pb = fhe::HadamardOp::create(b, loc, toEval(loc, in.second, basis), me);
        accA = accA ? fhe::AddOp::create(b, loc, accA, pa).getResult() : pa;
        accB = accB ? fhe::AddOp::create(b, loc, accB, pb).getResult() : pb;
      }
      Pair inner{toPoly(loc, accA, logq), toPoly(loc, accB, logq)};
      if (giant != 0) inner = rotate(loc, inner, logq, rt::galoisForRotation(int(logN), giant));
      sum = sum ? Pair{fhe::PolyAddOp::create(b, loc, sum->first, inner.first),
                       fhe::PolyAddOp::create(b, loc, sum->second, inner.second)}
                : inner;
    }
    map[o.getResult()] = *sum;
    return success();
  }

  // Bits b with |c| < 2^b for every coefficient c of a poly_constant.
  static unsigned magnitudeBits(Value constant) {
    auto values = cast<DenseIntElementsAttr>(constant.getDefiningOp<fhe::PolyConstantOp>().getValue());
    unsigned bits = 1;
    for (const llvm::APInt &c : values.getValues<llvm::APInt>())
      bits = std::max(bits, (c.isNegative() ? (-c) : c).getActiveBits() + 1);
    return bits;
  }
};

struct CKKSToFHEPass : public fhec::impl::CKKSToFHEBase<CKKSToFHEPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // Symbols (runtime declarations, kernels, tables) are created at the top
    // level: an input of several modules (parsed as nested ones) is refused.
    for (auto nested : module.getOps<ModuleOp>()) {
      nested.emitError() << "fhec compiles one module per input; this one is nested in (or follows) another";
      return signalPassFailure();
    }
    ckks::ParamsAttr params = ckks::getModuleParams(module);
    std::set<unsigned> encapsulationModuli;
    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>())
      if (usesCKKS(f)) funcs.push_back(f);
    if (funcs.empty()) return;
    if (!params) {
      module.emitError() << "ckks-to-fhe requires the module attribute 'ckks.params'";
      return signalPassFailure();
    }

    // Key-switching keys (the evaluation key, rotation keys) are prepared
    // once, in the region-2 basis of the highest level any key switching
    // (HE Mul, rotation, conjugation) runs at; lower levels read a prefix.
    unsigned maxLogq = 0;
    module.walk([&](Operation *op) {
      if (isa<ckks::MulOp>(op)) maxLogq = std::max(maxLogq, cast<ckks::MulOp>(op).getType().getLogq());
      if (!ckks::keySwitchGaloisElements(op).empty() || isa<ckks::DecapsulateOp>(op))
        maxLogq = std::max(maxLogq, cast<ckks::CiphertextType>(op->getResult(0).getType()).getLogq());
      if (isa<ckks::EncapsulateOp>(op)) encapsulationModuli.insert(*ckks::encapsulationModulus(op));
    });
    fhe::BasisAttr evkBasis;
    if (maxLogq) {
      // Hybrid key switching reads the whole key basis at every level.
      unsigned bits = params.getDnum() > 1 ? hybridKeySwitchBits(params.getLogN(), params.getLogP(),
                                                                 params.getLargestLogModulus(), params.getDnum())
                                           : region2Bits(params.getLogN(), maxLogq, params.getLogQ());
      evkBasis = fhe::BasisAttr::get(ctx, bits);
      emitPrepare(module, params, abi::kEvkPrepareFunc, params.getLargestLogModulus(), evkBasis);
    }
    for (unsigned q0 : encapsulationModuli)
      emitPrepare(module, params, abi::encapsulationPrepareFunc(int(q0)),
                  unsigned(rt::encapsulationKeyLogModulus(int(q0))), encapsulationBasis(ctx, params, q0));
    for (func::FuncOp f : funcs)
      if (failed(lowerFunction(f, params, evkBasis))) return signalPassFailure();
  }

  static bool usesCKKS(func::FuncOp f) {
    auto isCkks = [](Type t) { return isa<ckks::CiphertextType>(t); };
    if (llvm::any_of(f.getArgumentTypes(), isCkks) || llvm::any_of(f.getResultTypes(), isCkks)) return true;
    bool found = false;
    f.walk([&](Operation *op) {
      if (isa<ckks::CKKSDialect>(op->getDialect())) found = true;
    });
    return found;
  }

  // The basis of the key switch to the ephemeral secret at q0: a centred
  // a (|a| <= q0 / 2) times the key (below q0 P').
  static fhe::BasisAttr encapsulationBasis(MLIRContext *ctx, ckks::ParamsAttr params, unsigned q0) {
    return fhe::BasisAttr::get(ctx, productBasisBits(params.getLogN(), q0, unsigned(rt::encapsulationKeyLogModulus(int(q0)))));
  }

  // func @<name>(%key: !fhe.poly<logq = keyLogq>) -> !fhe.rns<basis, eval>: a
  // key's CRT and NTT (__fhec_evk_prepare: mod PQ into the evaluation-key basis).
  void emitPrepare(ModuleOp module, ckks::ParamsAttr params, const std::string &name, unsigned keyLogq,
                   fhe::BasisAttr basis) {
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    Location loc = module.getLoc();
    auto keyT = fhe::PolyType::get(ctx, params.getLogN(), keyLogq);
    auto coeffT = fhe::RnsType::get(ctx, params.getLogN(), basis, fhe::Domain::coeff, fhe::Layout::prime_major);
    auto evalT = coeffT.withDomain(fhe::Domain::eval);
    auto f = func::FuncOp::create(b, loc, name, b.getFunctionType({keyT}, {evalT}));
    f.setArgAttr(0, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("key"));
    f.setResultAttr(0, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("keyrns"));
    Block *body = f.addEntryBlock();
    b.setInsertionPointToStart(body);
    Value c = fhe::CrtOp::create(b, loc, coeffT, body->getArgument(0));
    Value e = fhe::NttOp::create(b, loc, evalT, c);
    func::ReturnOp::create(b, loc, e);
  }

  LogicalResult lowerFunction(func::FuncOp f, ckks::ParamsAttr params, fhe::BasisAttr evkBasis) {
    MLIRContext *ctx = f.getContext();
    OpBuilder b(ctx);
    if (!f.getBody().hasOneBlock())
      return f.emitOpError() << "ckks-to-fhe supports straight-line functions only (one block)";
    bool hasMul = false;
    std::set<uint64_t> galois;   // rotation keys, in a fixed order
    std::set<unsigned> encaps;   // encapsulation keys by q0
    f.walk([&](Operation *op) {
      hasMul |= isa<ckks::MulOp>(op);
      for (uint64_t g : ckks::keySwitchGaloisElements(op)) galois.insert(g);
      if (auto q0 = ckks::encapsulationModulus(op)) encaps.insert(*q0);
    });

    // New signature: (ct0.ax, ct0.bx, ..., [pt<j>@<scale>,<logq> per plaintext
    // use], [evk.ax, evk.bx], [rk<g>.ax, rk<g>.bx]...) -> (out0.ax, out0.bx, ...),
    // each key's pair once per part (dnum, abi::keyPartRole).
    SmallVector<Type> argTypes, resTypes;
    SmallVector<Attribute> ctIn, ctOut;
    SmallVector<int64_t> ptSlots;
    auto expand = [&](TypeRange types, SmallVectorImpl<Type> &out, SmallVectorImpl<Attribute> &info,
                      bool arguments) -> LogicalResult {
      for (Type t : types) {
        if (auto pt = dyn_cast<ckks::PlaintextType>(t); pt && arguments) {
          ptSlots.push_back(pt.getSlots());
          continue;
        }
        auto ct = dyn_cast<ckks::CiphertextType>(t);
        if (!ct) return f.emitOpError() << "has a non-ciphertext argument or result of type " << t
                                        << ", which ckks-to-fhe does not support";
        auto poly = fhe::PolyType::get(ctx, ct.getLogN(), ct.getLogq());
        out.append({poly, poly});
        info.push_back(b.getDenseI64ArrayAttr({ct.getLogq(), ct.getLogp(), ct.getSlots()}));
      }
      return success();
    };
    if (failed(expand(f.getArgumentTypes(), argTypes, ctIn, true)) ||
        failed(expand(f.getResultTypes(), resTypes, ctOut, false)))
      return failure();
    unsigned numCtArgs = argTypes.size();
    // Each distinct use of a plaintext argument: one polynomial argument.
    llvm::DenseMap<Value, int> plainIndex;
    for (BlockArgument a : f.getArguments())
      if (isa<ckks::PlaintextType>(a.getType())) plainIndex[a] = int(plainIndex.size());
    std::map<std::tuple<int, int, int, bool>, abi::PlaintextUse> uses;
    f.walk([&](Operation *op) {
      auto note = [&](Value pt, unsigned logScale, unsigned logq, bool negate) {
        int j = plainIndex.at(pt);
        uses[{j, int(logScale), int(logq), negate}] = {j, int(logScale), int(logq), negate};
      };
      if (auto m = dyn_cast<ckks::MulPlainOp>(op); m && m.getPlain())
        note(m.getPlain(), m.getConstantLogScale(), m.getInput().getType().getLogq(), false);
      if (auto a = dyn_cast<ckks::AddPlainOp>(op); a && a.getPlain())
        note(a.getPlain(), a.getInput().getType().getLogp(), a.getInput().getType().getLogq(), a.getNegate());
    });
    for (auto &[key, use] : uses) argTypes.push_back(fhe::PolyType::get(ctx, params.getLogN(), unsigned(use.logq)));
    unsigned numInputArgs = argTypes.size();
    SmallVector<std::string> keyRoles;
    const int dnum = int(params.getDnum());
    auto addKeyRoles = [&](const std::string &ax, const std::string &bx) {
      for (int j = 0; j < dnum; ++j) keyRoles.append({abi::keyPartRole(ax, j), abi::keyPartRole(bx, j)});
    };
    if (hasMul) addKeyRoles("evk.ax", "evk.bx");
    for (uint64_t g : galois) addKeyRoles(abi::rotationKeyRole(g, false), abi::rotationKeyRole(g, true));
    for (unsigned q0 : encaps)
      addKeyRoles(abi::encapsulationKeyRole(int(q0), true, false), abi::encapsulationKeyRole(int(q0), true, true));
    if (!keyRoles.empty()) {
      auto keyT = fhe::RnsType::get(ctx, params.getLogN(), evkBasis, fhe::Domain::eval, fhe::Layout::prime_major);
      argTypes.append(keyRoles.size(), keyT);
    }
    // The keys to the ephemeral secret, one pair each in its own basis.
    for (unsigned q0 : encaps) {
      keyRoles.append({abi::encapsulationKeyRole(int(q0), false, false), abi::encapsulationKeyRole(int(q0), false, true)});
      auto keyT = fhe::RnsType::get(ctx, params.getLogN(), encapsulationBasis(ctx, params, q0), fhe::Domain::eval,
                                    fhe::Layout::prime_major);
      argTypes.append({keyT, keyT});
    }

    b.setInsertionPoint(f);
    auto nf = func::FuncOp::create(b, f.getLoc(), f.getName(), b.getFunctionType(argTypes, resTypes));
    nf.setVisibility(f.getVisibility());
    for (unsigned i = 0; i < numCtArgs; ++i)
      nf.setArgAttr(i, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("ct" + std::to_string(i / 2) + (i % 2 ? ".bx" : ".ax")));
    {
      unsigned i = numCtArgs;
      for (auto &[key, use] : uses)
        nf.setArgAttr(i++, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr(abi::plaintextRole(use)));
    }
    for (auto [i, role] : llvm::enumerate(keyRoles))
      nf.setArgAttr(numInputArgs + i, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr(role));
    if (!ptSlots.empty()) nf->setAttr(fhe::FHEDialect::getPtInputsAttrName(), b.getDenseI64ArrayAttr(ptSlots));
    for (unsigned i = 0; i < resTypes.size(); ++i)
      nf.setResultAttr(i, fhe::FHEDialect::getRoleAttrName(), b.getStringAttr("ct" + std::to_string(i / 2) + (i % 2 ? ".bx" : ".ax")));
    nf->setAttr(fhe::FHEDialect::getCtInputsAttrName(), b.getArrayAttr(ctIn));
    nf->setAttr(fhe::FHEDialect::getCtOutputsAttrName(), b.getArrayAttr(ctOut));

    Block *body = nf.addEntryBlock();
    b.setInsertionPointToStart(body);
    unsigned next = numInputArgs;
    auto takeKey = [&]() {
      KeyParts parts;
      for (int j = 0; j < dnum; ++j, next += 2) parts.push_back({body->getArgument(next), body->getArgument(next + 1)});
      return parts;
    };
    KeyParts evk;
    if (hasMul) evk = takeKey();
    llvm::DenseMap<uint64_t, KeyParts> rotationKeys;
    for (uint64_t g : galois) rotationKeys[g] = takeKey();
    llvm::DenseMap<unsigned, std::pair<Pair, KeyParts>> encapsulationKeys;
    for (unsigned q0 : encaps) encapsulationKeys[q0].second = takeKey();
    for (unsigned q0 : encaps) {
      encapsulationKeys[q0].first = {body->getArgument(next), body->getArgument(next + 1)};
      next += 2;
    }
    FunctionLowering lowering(b, params, evkBasis, evk, std::move(rotationKeys));
    lowering.encapsulationKeys = std::move(encapsulationKeys);
    unsigned ctArg = 0;
    for (BlockArgument arg : f.getArguments())
      if (isa<ckks::CiphertextType>(arg.getType())) {
        lowering.map[arg] = {body->getArgument(ctArg), body->getArgument(ctArg + 1)};
        ctArg += 2;
      }
    lowering.plainIndex = std::move(plainIndex);
    {
      unsigned i = numCtArgs;
      for (auto &[key, use] : uses) lowering.plainUses[key] = body->getArgument(i++);
    }

    for (Operation &op : f.getBody().front()) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        SmallVector<Value> results;
        for (Value v : ret.getOperands()) {
          Pair p = lowering.map.at(v);
          results.append({p.first, p.second});
        }
        func::ReturnOp::create(b, ret.getLoc(), results);
        continue;
      }
      if (failed(lowering.lower(&op))) {
        nf.erase();
        return failure();
      }
    }
    f.erase();
    return success();
  }
};

} // namespace
