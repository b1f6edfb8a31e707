// ckks-to-fhe's patterns of the pointwise ops, plaintexts and HE Mul: HE Mul
// as the CRT -> NTT -> Hadamard -> iNTT -> iCRT dataflow of HEAAN's
// Scheme::mult (Jung et al. 2021, Fig. 2); products with plaintexts through
// region 1; HE Add/Sub/Negate, rescale, div_by_po2, mod_down, mod_raise and
// constant ops as BigInt pointwise ops; relabel as nothing.
#include "conversion/CKKSToFHE/Bounds.h"
#include "conversion/CKKSToFHE/Lowering.h"

#include "fhec/runtime/Error.h"
#include "fhec/runtime/Reference.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace fhec {

using Pair = CiphertextPair;

Value FheBuilder::plainUse(Value pt, unsigned logScale, unsigned logq, bool negate) {
  return state.plainUses.at({state.plainIndex.at(pt), int(logScale), int(logq), negate});
}

namespace {

using Results = FailureOr<SmallVector<Pair>>;

// HE Add/Sub, each operand first aligned to the result's level and scale.
template <typename CkksOp, typename PolyOp> struct BinaryLowering : CKKSPattern<CkksOp> {
  using CKKSPattern<CkksOp>::CKKSPattern;
  Results lower(CkksOp o, typename CKKSPattern<CkksOp>::OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    auto t = o.getType();
    Pair l = fb.align(o.getLoc(), pairOf(adaptor.getLhs()), o.getLhs().getType(), t);
    Pair r = fb.align(o.getLoc(), pairOf(adaptor.getRhs()), o.getRhs().getType(), t);
    Value ax = PolyOp::create(fb.builder(), o.getLoc(), l.first, r.first);
    return SmallVector<Pair>{{ax, PolyOp::create(fb.builder(), o.getLoc(), l.second, r.second)}};
  }
};

// An op applied to both polynomials: (f(ax), f(bx)).
template <typename CkksOp> struct BothLowering : CKKSPattern<CkksOp> {
  using CKKSPattern<CkksOp>::CKKSPattern;
  Results lower(CkksOp o, typename CKKSPattern<CkksOp>::OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    Pair in = pairOf(adaptor.getInput());
    Value ax = apply(o, fb, in.first);
    return SmallVector<Pair>{{ax, apply(o, fb, in.second)}};
  }
  Value apply(CkksOp o, FheBuilder &fb, Value p) const;
};

template <> Value BothLowering<ckks::NegateOp>::apply(ckks::NegateOp o, FheBuilder &fb, Value p) const {
  return fhe::PolyNegateOp::create(fb.builder(), o.getLoc(), p);
}
template <> Value BothLowering<ckks::MulMonomialOp>::apply(ckks::MulMonomialOp o, FheBuilder &fb, Value p) const {
  return fhe::PolyMulMonomialOp::create(fb.builder(), o.getLoc(), p.getType(), p, o.getKAttr());
}
// Rescale and div_by_po2: the shift by the bits dropped (rescale may round).
template <> Value BothLowering<ckks::RescaleOp>::apply(ckks::RescaleOp o, FheBuilder &fb, Value p) const {
  int64_t d = o.getInput().getType().getLogq() - o.getType().getLogq();
  return fhe::PolyShrOp::create(fb.builder(), o.getLoc(), fb.polyType(o.getType().getLogq()), p, d, o.getRound());
}
template <> Value BothLowering<ckks::DivByPo2Op>::apply(ckks::DivByPo2Op o, FheBuilder &fb, Value p) const {
  int64_t d = o.getInput().getType().getLogq() - o.getType().getLogq();
  return fhe::PolyShrOp::create(fb.builder(), o.getLoc(), fb.polyType(o.getType().getLogq()), p, d, false);
}
// Reduction mod a smaller q, or the centred lift to a larger one.
template <> Value BothLowering<ckks::ModDownOp>::apply(ckks::ModDownOp o, FheBuilder &fb, Value p) const {
  return fhe::PolyReduceOp::create(fb.builder(), o.getLoc(), fb.polyType(o.getType().getLogq()), p);
}
template <> Value BothLowering<ckks::ModRaiseOp>::apply(ckks::ModRaiseOp o, FheBuilder &fb, Value p) const {
  return fhe::PolyModRaiseOp::create(fb.builder(), o.getLoc(), fb.polyType(o.getType().getLogq()), p);
}

// Relabel changes the type only: the same polynomials.
struct RelabelLowering : CKKSPattern<ckks::RelabelOp> {
  using CKKSPattern::CKKSPattern;
  Results lower(ckks::RelabelOp, OneToNOpAdaptor adaptor, FheBuilder &) const override {
    return SmallVector<Pair>{pairOf(adaptor.getInput())};
  }
};

// round(c * 2^scale) times both polynomials.
struct MulConstLowering : CKKSPattern<ckks::MulConstOp> {
  using CKKSPattern::CKKSPattern;
  Results lower(ckks::MulConstOp o, OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    auto k = fb.scaled(o, o.getValue().convertToDouble(), o.getConstantLogScale());
    if (failed(k)) return failure();
    Pair p = pairOf(adaptor.getInput());
    Value ax = fhe::PolyMulScalarOp::create(fb.builder(), o.getLoc(), p.first, *k);
    return SmallVector<Pair>{{ax, fhe::PolyMulScalarOp::create(fb.builder(), o.getLoc(), p.second, *k)}};
  }
};

// round(c * 2^logp) added to bx's constant term.
struct AddConstLowering : CKKSPattern<ckks::AddConstOp> {
  using CKKSPattern::CKKSPattern;
  Results lower(ckks::AddConstOp o, OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    auto k = fb.scaled(o, o.getValue().convertToDouble(), o.getInput().getType().getLogp());
    if (failed(k)) return failure();
    Pair p = pairOf(adaptor.getInput());
    return SmallVector<Pair>{{p.first, fhe::PolyAddConstantTermOp::create(fb.builder(), o.getLoc(), p.second, *k)}};
  }
};

// A plaintext (an argument's use or constant slots) times both polynomials,
// through region 1: CRT, NTT, Hadamard, iNTT, iCRT.
struct MulPlainLowering : CKKSPattern<ckks::MulPlainOp> {
  using CKKSPattern::CKKSPattern;
  Results lower(ckks::MulPlainOp o, OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    auto in = o.getInput().getType();
    unsigned s = o.getConstantLogScale();
    FailureOr<Value> m = o.getPlain() ? fb.plainUse(o.getPlain(), s, in.getLogq(), false)
                                      : fb.plaintext(o, o.getSlotValues(), s, in.getLogq());
    if (failed(m)) return failure();
    auto r1 = fhe::BasisAttr::get(o.getContext(), region1Bits(state.params.getLogN(), in.getLogq()));
    Pair x = pairOf(adaptor.getInput());
    Value me = fb.toEval(o.getLoc(), *m, r1);
    auto times = [&](Value poly) {
      Value product = fhe::HadamardOp::create(fb.builder(), o.getLoc(), fb.toEval(o.getLoc(), poly, r1), me);
      return fb.toPoly(o.getLoc(), product, in.getLogq());
    };
    Value ax = times(x.first);
    return SmallVector<Pair>{{ax, times(x.second)}};
  }
};

// A plaintext (an argument's use or constant slots) added to bx.
struct AddPlainLowering : CKKSPattern<ckks::AddPlainOp> {
  using CKKSPattern::CKKSPattern;
  Results lower(ckks::AddPlainOp o, OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    auto in = o.getInput().getType();
    FailureOr<Value> m = o.getPlain() ? fb.plainUse(o.getPlain(), in.getLogp(), in.getLogq(), o.getNegate())
                                      : fb.plaintext(o, o.getSlotValues(), in.getLogp(), in.getLogq());
    if (failed(m)) return failure();
    Pair x = pairOf(adaptor.getInput());
    return SmallVector<Pair>{{x.first, fhe::PolyAddOp::create(fb.builder(), o.getLoc(), x.second, *m)}};
  }
};

struct MulLowering : CKKSPattern<ckks::MulOp> {
  using CKKSPattern::CKKSPattern;
  Results lower(ckks::MulOp o, OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    return SmallVector<Pair>{fb.mul(o, pairOf(adaptor.getLhs()), pairOf(adaptor.getRhs()))};
  }
};

} // namespace

void populateArithmeticPatterns(const TypeConverter &tc, RewritePatternSet &patterns, LoweringState &state) {
  patterns.add<BinaryLowering<ckks::AddOp, fhe::PolyAddOp>, BinaryLowering<ckks::SubOp, fhe::PolySubOp>,
               BothLowering<ckks::NegateOp>, BothLowering<ckks::MulMonomialOp>, BothLowering<ckks::RescaleOp>,
               BothLowering<ckks::DivByPo2Op>, BothLowering<ckks::ModDownOp>, BothLowering<ckks::ModRaiseOp>,
               RelabelLowering, MulConstLowering, AddConstLowering, MulPlainLowering, AddPlainLowering, MulLowering>(
      tc, patterns.getContext(), state);
}

// A ciphertext's polynomials brought from type `from` to `to` (ckks.add's
// alignment): reduced mod the smaller q, multiplied up to the larger scale.
Pair FheBuilder::align(Location loc, Pair p, ckks::CiphertextType from, ckks::CiphertextType to) {
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
FailureOr<Value> FheBuilder::plaintext(Operation *op, const std::vector<rt::Complex> &values, unsigned logScale,
                                             unsigned logq, bool narrow) {
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
  return fhe::PolyConstantOp::create(b, op->getLoc(), polyType(narrow ? std::min(logq, width) : logq),
                                     DenseIntElementsAttr::get(tensor, coeffs))
      .getResult();
}

// round(value * 2^logScale) as a signed integer attribute wide enough to hold it.
FailureOr<IntegerAttr> FheBuilder::scaled(Operation *op, double value, unsigned logScale) {
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
Value FheBuilder::toCoeff(Location loc, Value poly, fhe::BasisAttr basis, bool centered) {
  auto key = std::make_tuple(poly, Attribute(basis), unsigned(centered));
  auto it = state.coeffCache.find(key);
  if (it != state.coeffCache.end()) return it->second;
  auto crt = fhe::CrtOp::create(b, loc, rnsType(basis, fhe::Domain::coeff), poly);
  crt.setCentered(centered);
  return state.coeffCache[key] = crt.getResult();
}

// CRT then NTT of a BigInt polynomial into `basis` (shared per operand).
Value FheBuilder::toEval(Location loc, Value poly, fhe::BasisAttr basis, bool centered) {
  auto key = std::make_tuple(poly, Attribute(basis), unsigned(centered));
  auto it = state.evalCache.find(key);
  if (it != state.evalCache.end()) return it->second;
  return state.evalCache[key] =
             fhe::NttOp::create(b, loc, rnsType(basis, fhe::Domain::eval), toCoeff(loc, poly, basis, centered));
}

// iNTT then iCRT, reconstructing mod 2^logq.
Value FheBuilder::toPoly(Location loc, Value eval, unsigned logq) {
  auto t = cast<fhe::RnsType>(eval.getType());
  Value c = fhe::InttOp::create(b, loc, t.withDomain(fhe::Domain::coeff), eval);
  return fhe::IcrtOp::create(b, loc, polyType(logq), c);
}

// HE Mul, Fig. 2: region 1 (Karatsuba tensor product mod q) and region 2
// (relinearization: ((axax * evk) mod qQ) >> logQ).
Pair FheBuilder::mul(ckks::MulOp o, Pair lhs, Pair rhs) {
  Location loc = o.getLoc();
  unsigned logN = params.getLogN();
  unsigned logq = o.getType().getLogq();
  // An operand at a higher level is reduced to the other's first.
  auto level = [&](Value v, Pair p) {
    auto t = cast<ckks::CiphertextType>(v.getType());
    return align(loc, p, t, ckks::CiphertextType::get(b.getContext(), t.getLogN(), logq, t.getLogp(), t.getSlots()));
  };
  Pair x = level(o.getLhs(), lhs), y = level(o.getRhs(), rhs);

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

  // Region 2: relinearization of axax with the evaluation key (bxbx added).
  Pair relin = switchKey(loc, {axax, bxbx}, logq, state.evk, 0);
  return {fhe::PolyAddOp::create(b, loc, relin.first, axbx), relin.second};
}

// Bits b with |c| < 2^b for every coefficient c of a poly_constant.
unsigned FheBuilder::magnitudeBits(Value constant) {
  auto values = cast<DenseIntElementsAttr>(constant.getDefiningOp<fhe::PolyConstantOp>().getValue());
  unsigned bits = 1;
  for (const llvm::APInt &c : values.getValues<llvm::APInt>())
    bits = std::max(bits, (c.isNegative() ? (-c) : c).getActiveBits() + 1);
  return bits;
}

} // namespace fhec
