// ckks-to-fhe's key switching: relinearization's region 2 (Jung et al. 2021,
// Fig. 2) or hybrid key switching (dnum > 1, docs/design.md), rotation and
// conjugation as an automorphism plus key switching, sparse-secret
// encapsulation, and ckks.linear_transform's baby-step giant-step.
#include "conversion/CKKSToFHE/Bounds.h"
#include "conversion/CKKSToFHE/Lowering.h"

#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Keys.h"

#include <cmath>
#include <optional>

using namespace mlir;

namespace fhec {

using Pair = CiphertextPair;

fhe::BasisAttr FheBuilder::region2(unsigned logq, unsigned terms) {
  return fhe::BasisAttr::get(b.getContext(), region2Bits(params.getLogN(), logq, params.getLogQ(), terms));
}

// Hybrid key switching (dnum > 1, docs/design.md): the k = ceil(logq / B)
// digits of x mod q, B = logP, in the key basis's coefficient domain.
// Balanced (centered form): digit j is bits [jB, jB + w_j) of
// x + sum_{i<j} 2^(iB + B - 1) read centered; HEAAN's form reads x's own
// bits unsigned. Each digit is one fused kernel (fhe-fuse).
ArrayRef<Value> FheBuilder::digits(Location loc, Value x) {
  auto it = state.digitCache.find(x);
  if (it != state.digitCache.end()) return it->second;
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
  return state.digitCache[x] = std::move(out);
}

// The digits of x in the evaluation domain, after phi_g when g != 0.
SmallVector<Value> FheBuilder::evalDigits(Location loc, Value x, uint64_t g) {
  SmallVector<Value> out;
  for (Value c : digits(loc, x)) {
    if (g) c = fhe::AutomorphismOp::create(b, loc, c.getType(), c, b.getI64IntegerAttr(int64_t(g)));
    out.push_back(fhe::NttOp::create(b, loc, cast<fhe::RnsType>(c.getType()).withDomain(fhe::Domain::eval), c));
  }
  return out;
}

// Rotation / conjugation (HEAAN leftRotateFast, conjugate): phi_g and key
// switching with the rotation key of g.
Pair FheBuilder::rotate(Location loc, Pair x, unsigned logq, uint64_t g) {
  auto key = state.rotationKeys.find(g);
  assert(key != state.rotationKeys.end() && "rotation keys are collected per function");
  return switchKey(loc, x, logq, key->second, g);
}

Pair FheBuilder::switchKey(Location loc, Pair x, unsigned logq, const KeyParts &key, uint64_t g) {
  return finishKeySwitch(loc, switchKeyProducts(loc, x, logq, key, g, region2(logq)), logq);
}

// Key switching of x with `key` (mod PQ) after phi_g (g = 0: none, as in
// relinearization and decapsulation), up to the products in the evaluation
// domain (Jung et al. 2021, Fig. 2, region 2):
// - hybrid (dnum > 1): sum_j d_j key_j over phi_g of the digits of ax in the
//   key basis (the rotations of x share its digits);
// - dnum = 1: a' key in `basis`, a prefix of the key's (region 2's, sized for
//   the terms a caller sums), a' the residues of phi_g of ax's
//   representative (centered in [-q/2, q/2), or HEAAN's unsigned [0, q)):
//   the CRT of ax, then the automorphism on its residues (|a'| < q, within
//   region 2's bound like axax).
FheBuilder::KeySwitchProducts FheBuilder::switchKeyProducts(Location loc, Pair x, unsigned logq, const KeyParts &key,
                                                            uint64_t g, fhe::BasisAttr basis) {
  auto phi = [&](Value v) {
    return g ? fhe::PolyAutomorphismOp::create(b, loc, v.getType(), v, b.getI64IntegerAttr(int64_t(g))).getResult() : v;
  };
  if (hybrid()) {
    SmallVector<Value> d = evalDigits(loc, x.first, g);
    auto sum = [&](bool bxHalf) {
      Value acc;
      for (auto [j, dj] : llvm::enumerate(d)) {
        Value prod = fhe::HadamardOp::create(b, loc, dj, bxHalf ? key[j].second : key[j].first);
        acc = acc ? fhe::AddOp::create(b, loc, acc, prod).getResult() : prod;
      }
      return acc;
    };
    Value ax = sum(false), bx = sum(true);
    return {ax, bx, x.second ? phi(x.second) : Value()};
  }
  Value e;
  if (g) {
    Value c = toCoeff(loc, x.first, basis, centeredKeySwitch());
    Value rotated = fhe::AutomorphismOp::create(b, loc, c.getType(), c, b.getI64IntegerAttr(int64_t(g)));
    e = fhe::NttOp::create(b, loc, cast<fhe::RnsType>(c.getType()).withDomain(fhe::Domain::eval), rotated);
  } else {
    e = toEval(loc, x.first, basis, centeredKeySwitch());
  }
  auto times = [&](Value k) {
    if (basis != evkBasis) k = fhe::BasisPrefixOp::create(b, loc, rnsType(basis, fhe::Domain::eval), k);
    return fhe::HadamardOp::create(b, loc, e, k).getResult();
  };
  Value ax = times(key[0].first), bx = times(key[0].second);
  return {ax, bx, x.second ? phi(x.second) : Value()};
}

// The end of key switching: floor or round((products mod qD) / D), D = P
// (hybrid) or Q, by one iNTT and iCRT mod 2^(logq + log D) and the shift per
// polynomial; phi_g(bx), when given, added to the second.
Pair FheBuilder::finishKeySwitch(Location loc, const KeySwitchProducts &p, unsigned logq) {
  const unsigned shift = hybrid() ? params.getLogP() : params.getLogQ();
  auto down = [&](Value sum) {
    Value wide = toPoly(loc, sum, logq + shift);
    return fhe::PolyShrOp::create(b, loc, polyType(logq), wide, int64_t(shift), centeredKeySwitch()).getResult();
  };
  Value ax = down(p.ax), bx = down(p.bx);
  return {ax, p.bRot ? fhe::PolyAddOp::create(b, loc, bx, p.bRot).getResult() : bx};
}

// Sparse-secret encapsulation at q0 = 2^logq: round or floor((a' k mod q0 P')
// / P') with the small key k to the ephemeral secret (rt::EncapsulationKey).
Pair FheBuilder::encapsulate(Location loc, Pair x, unsigned logq) {
  const Pair &key = state.encapsulationKeys.at(logq).first;
  auto basis = cast<fhe::RnsType>(key.first.getType()).getBasis();
  const unsigned logP = unsigned(rt::encapsulationLogP(int(logq)));
  Value e = toEval(loc, x.first, basis, centeredKeySwitch());
  auto times = [&](Value k) {
    Value wide = toPoly(loc, fhe::HadamardOp::create(b, loc, e, k), logq + logP);
    return fhe::PolyShrOp::create(b, loc, polyType(logq), wide, int64_t(logP), centeredKeySwitch()).getResult();
  };
  return {times(key.first), fhe::PolyAddOp::create(b, loc, times(key.second), x.second)};
}

// ckks.linear_transform with dnum = 1 (hybrid key switching: linearTransformHoisted),
// baby-step giant-step: the baby rotations of x
// (their key switches share x's decomposition after fhe-hoist-automorphisms),
// then per giant step the products with its rotated diagonals summed in the
// evaluation domain, so one iNTT/iCRT per polynomial gives the sum mod q
// exactly; then the giant rotation. One basis for all inner sums (each baby
// is converted once), sized for the largest: x's coefficients are below q,
// the encoded diagonals' (read centered) below 2^bits of the widest.
FailureOr<Pair> FheBuilder::linearTransform(ckks::LinearTransformOp o, Pair x) {
  // (No key basis: no rotation, so the sums of P x m divided by P are the
  // sums of x m this path computes.)
  if (hybrid() && evkBasis) return linearTransformHoisted(o, x);
  Location loc = o.getLoc();
  auto t = o.getInput().getType();
  unsigned logN = params.getLogN(), logq = t.getLogq();
  ckks::BsgsPlan plan = o.getPlan();
  llvm::DenseMap<int64_t, Pair> babies;
  for (int64_t baby : plan.babies)
    babies[baby] = baby == 0 ? x : rotate(loc, x, logq, rt::galoisForRotation(int(logN), baby));
  std::vector<std::vector<rt::Complex>> rows = o.getDiagonalRows();
  llvm::DenseMap<size_t, Value> diagonals;
  unsigned plainBits = 1, terms = 0;
  for (auto &[giant, members] : plan.groups) {
    terms += unsigned(members.size());
    for (auto [baby, i] : members) {
      FailureOr<Value> m =
          plaintext(o, ckks::rotatedDiagonal(rows[i], giant), o.getConstantLogScale(), logq, /*narrow=*/true);
      if (failed(m)) return failure();
      diagonals[i] = *m;
      plainBits = std::max(plainBits, magnitudeBits(*m));
    }
  }
  // One basis for every sum, holding all the transform's products: the bx
  // halves of all giant steps are summed in it (below).
  auto basis = fhe::BasisAttr::get(b.getContext(), accumulatedProductBits(logN, logq, plainBits, terms));
  // The giant rotations' key-switch products, summed in the evaluation domain
  // before one iNTT, iCRT and shift per polynomial (referenceRotateSum).
  const unsigned giants = unsigned(plan.giantRotations());
  fhe::BasisAttr switchBasis = region2(logq, giants);
  std::optional<KeySwitchProducts> switched;
  // Giant 0's ax, and the sum over the giant steps of phi_giant of their bx
  // halves: each iNTT'd, permuted on its residues (the signed automorphism)
  // and added in the coefficient domain, so one iCRT gives the exact sum mod q.
  Value ax0, sumB;
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
    const uint64_t g = giant ? rt::galoisForRotation(int(logN), giant) : 0;
    auto coeff = cast<fhe::RnsType>(accB.getType()).withDomain(fhe::Domain::coeff);
    Value bx = fhe::InttOp::create(b, loc, coeff, accB);
    if (g) bx = fhe::AutomorphismOp::create(b, loc, coeff, bx, b.getI64IntegerAttr(int64_t(g)));
    sumB = sumB ? fhe::AddOp::create(b, loc, sumB, bx).getResult() : bx;
    Value ax = toPoly(loc, accA, logq);
    if (!g) {
      ax0 = ax;
      continue;
    }
    KeySwitchProducts p = switchKeyProducts(loc, {ax, Value()}, logq, state.rotationKeys.at(g), g, switchBasis);
    switched = switched ? KeySwitchProducts{fhe::AddOp::create(b, loc, switched->ax, p.ax),
                                            fhe::AddOp::create(b, loc, switched->bx, p.bx), Value()}
                        : p;
  }
  Value bx = fhe::IcrtOp::create(b, loc, polyType(logq), sumB);
  if (!switched) return Pair{ax0, bx};
  Pair rotated = finishKeySwitch(loc, *switched, logq);
  return Pair{ax0 ? fhe::PolyAddOp::create(b, loc, ax0, rotated.first).getResult() : rotated.first,
              fhe::PolyAddOp::create(b, loc, bx, rotated.second)};
}

unsigned FheBuilder::hoistedLinearTransformBits(ckks::LinearTransformOp o, ckks::ParamsAttr params) {
  double largest = 0;
  for (const std::vector<rt::Complex> &row : o.getDiagonalRows())
    for (const rt::Complex &v : row) largest = std::max(largest, std::abs(v));
  int logMax = 0;
  if (largest > 0) std::frexp(largest, &logMax);  // largest < 2^logMax
  unsigned plainBits = plaintextBitsBound(unsigned(o.getConstantLogScale()), logMax);
  return fhec::hoistedLinearTransformBits(params.getLogN(), params.getLogP(), params.getLargestLogModulus(),
                                          params.getDnum(), plainBits, unsigned(o.getOffsets().size()));
}

// ckks.linear_transform with hybrid key switching: double hoisting (Bossuat,
// Mouchet, Troncoso-Pastoriza, Hubaux, Eurocrypt 2021, Sec. 4;
// referenceLinearTransformHoisted). The baby rotations stay in the key
// basis's evaluation domain before their division by P: their key-switch
// products, with P phi_b(bx) (an evaluation-domain automorphism of P bx)
// added to the second, and P x for baby 0. A giant step sums its plaintext
// products there (the diagonals CRT'd centered into the key basis, which
// CKKSToFHE sizes with hoistedLinearTransformBits); only its ax sum leaves,
// by one iNTT, iCRT and shift, as the giant rotation's input, whose
// key-switch products join the two sums with phi_g of its bx sum. The
// transform ends in one iNTT, iCRT and shift per polynomial: no baby
// rotation makes the round trip out of the evaluation domain and back.
FailureOr<Pair> FheBuilder::linearTransformHoisted(ckks::LinearTransformOp o, Pair x) {
  Location loc = o.getLoc();
  unsigned logN = params.getLogN(), logq = o.getInput().getType().getLogq(), logP = params.getLogP();
  const unsigned wide = logq + logP;
  const bool centered = centeredKeySwitch();
  if (evkBasis.getMinBits() < hoistedLinearTransformBits(o, params))
    return o.emitOpError() << "the key basis (" << evkBasis.getMinBits() << " bits) cannot hold its hoisted sums ("
                           << hoistedLinearTransformBits(o, params) << " bits)";
  ckks::BsgsPlan plan = o.getPlan();
  std::vector<std::vector<rt::Complex>> rows = o.getDiagonalRows();
  // P v mod qP in the key basis's evaluation domain.
  auto scaled = [&](Value v) {
    Value raised = fhe::PolyModRaiseOp::create(b, loc, polyType(wide), v);
    // 2^logP, a positive signed constant.
    IntegerAttr P = b.getIntegerAttr(b.getIntegerType(logP + 2), APInt::getOneBitSet(logP + 2, logP));
    Value px = fhe::PolyMulScalarOp::create(b, loc, raised, P);
    return toEval(loc, px, evkBasis, centered);
  };
  Value pb = scaled(x.second);
  llvm::DenseMap<int64_t, Pair> babies;
  for (int64_t baby : plan.babies) {
    if (baby == 0) {
      babies[0] = {scaled(x.first), pb};
      continue;
    }
    const uint64_t g = rt::galoisForRotation(int(logN), baby);
    KeySwitchProducts p = switchKeyProducts(loc, {x.first, Value()}, logq, state.rotationKeys.at(g), g, evkBasis);
    Value rotated = fhe::AutomorphismOp::create(b, loc, pb.getType(), pb, b.getI64IntegerAttr(int64_t(g)));
    babies[baby] = {p.ax, fhe::AddOp::create(b, loc, p.bx, rotated)};
  }
  auto accumulate = [&](Value &acc, Value v) { acc = acc ? fhe::AddOp::create(b, loc, acc, v).getResult() : v; };
  Value sumA, sumB;
  for (auto &[giant, members] : plan.groups) {
    Value wa, wb;
    for (auto [baby, i] : members) {
      FailureOr<Value> m =
          plaintext(o, ckks::rotatedDiagonal(rows[i], giant), o.getConstantLogScale(), logq, /*narrow=*/true);
      if (failed(m)) return failure();
      // Centered: the residues of its small signed coefficients.
      Value me = toEval(loc, *m, evkBasis, /*centered=*/true);
      Pair in = babies.at(baby);
      accumulate(wa, fhe::HadamardOp::create(b, loc, in.first, me));
      accumulate(wb, fhe::HadamardOp::create(b, loc, in.second, me));
    }
    if (giant == 0) {
      accumulate(sumA, wa);
      accumulate(sumB, wb);
      continue;
    }
    const uint64_t g = rt::galoisForRotation(int(logN), giant);
    Value a = fhe::PolyShrOp::create(b, loc, polyType(logq), toPoly(loc, wa, wide), int64_t(logP), centered);
    KeySwitchProducts p = switchKeyProducts(loc, {a, Value()}, logq, state.rotationKeys.at(g), g, evkBasis);
    accumulate(sumA, p.ax);
    accumulate(sumB, fhe::AddOp::create(b, loc, p.bx,
                                        fhe::AutomorphismOp::create(b, loc, wb.getType(), wb,
                                                                    b.getI64IntegerAttr(int64_t(g)))));
  }
  return finishKeySwitch(loc, KeySwitchProducts{sumA, sumB, Value()}, logq);
}

namespace {

using Results = FailureOr<SmallVector<Pair>>;

// Each result of ckks.rotate: phi_g of the input, key-switched.
struct RotateLowering : CKKSPattern<ckks::RotateOp> {
  using CKKSPattern::CKKSPattern;
  Results lower(ckks::RotateOp o, OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    SmallVector<Pair> out;
    for (auto [i, r] : llvm::enumerate(o.getResults()))
      out.push_back(fb.rotate(o.getLoc(), pairOf(adaptor.getInput()), cast<ckks::CiphertextType>(r.getType()).getLogq(),
                              o.getGaloisElement(i)));
    return out;
  }
};

struct ConjugateLowering : CKKSPattern<ckks::ConjugateOp> {
  using CKKSPattern::CKKSPattern;
  Results lower(ckks::ConjugateOp o, OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    return SmallVector<Pair>{fb.rotate(o.getLoc(), pairOf(adaptor.getInput()), o.getType().getLogq(), o.getGaloisElement())};
  }
};

struct EncapsulateLowering : CKKSPattern<ckks::EncapsulateOp> {
  using CKKSPattern::CKKSPattern;
  Results lower(ckks::EncapsulateOp o, OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    return SmallVector<Pair>{fb.encapsulate(o.getLoc(), pairOf(adaptor.getInput()), o.getType().getLogq())};
  }
};

// The key switch back from the ephemeral secret (no automorphism).
struct DecapsulateLowering : CKKSPattern<ckks::DecapsulateOp> {
  using CKKSPattern::CKKSPattern;
  Results lower(ckks::DecapsulateOp o, OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    const KeyParts &key = state.encapsulationKeys.at(unsigned(o.getModLogq())).second;
    return SmallVector<Pair>{fb.switchKey(o.getLoc(), pairOf(adaptor.getInput()), o.getType().getLogq(), key, 0)};
  }
};

struct LinearTransformLowering : CKKSPattern<ckks::LinearTransformOp> {
  using CKKSPattern::CKKSPattern;
  Results lower(ckks::LinearTransformOp o, OneToNOpAdaptor adaptor, FheBuilder &fb) const override {
    FailureOr<Pair> r = fb.linearTransform(o, pairOf(adaptor.getInput()));
    if (failed(r)) return failure();
    return SmallVector<Pair>{*r};
  }
};

} // namespace

void populateKeySwitchingPatterns(const TypeConverter &tc, RewritePatternSet &patterns, LoweringState &state) {
  patterns.add<RotateLowering, ConjugateLowering, EncapsulateLowering, DecapsulateLowering, LinearTransformLowering>(
      tc, patterns.getContext(), state);
}

} // namespace fhec
