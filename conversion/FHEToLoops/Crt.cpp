// CRT (Jung et al. 2021, Algo. 1): BigInt coefficients to residues, the matrix
// product (N, limbs) x (limbs, m) with the beta^k mod p_j table; each residue
// accumulates its limbs' products in three words and reduces them with Shoup.
#include "conversion/FHEToLoops/Patterns.h"

using namespace mlir;

namespace fhec {

void emitCrtBlock(KernelBuilder &kb, fhe::CrtOp op, const CoeffRef &in, const CoeffRef &out, int64_t B) {
  auto outT = op.getResult().getType();
  auto basis = outT.getBasis();
  int64_t L = op.getInput().getType().getLimbs(), m = int64_t(basis.size());
  Value consts = kb.table(abi::TableKind::PrimeConsts, basis, 0, outT.getLogN());
  Value pow = kb.table(abi::TableKind::CrtPowers, basis, L, outT.getLogN());
  auto residue = [&](Value j, Value i) {
    Value zero = kb.c64(0);
    // Products of a limb and beta^k mod p_j < 2^primeBits.
    auto acc = kb.dot(L, basis.getPrimeBits(), {zero, zero, zero}, [&](Value k) { return kb.load(in, i, k); },
                      [&](Value k) { return kb.load(pow, {j, k}); });
    // acc0 + acc1 beta + acc2 beta^2 mod p_j, one Shoup product per word.
    Value p = kb.tableAt(consts, j, abi::kPrime);
    Value r0 = kb.mulShoup(acc[0], kb.c64(1), kb.tableAt(consts, j, abi::kOneShoup), p);
    Value r1 = kb.mulShoup(acc[1], kb.tableAt(consts, j, abi::kBetaMod), kb.tableAt(consts, j, abi::kBetaModShoup), p);
    Value r2 = kb.mulShoup(acc[2], kb.tableAt(consts, j, abi::kBeta2Mod), kb.tableAt(consts, j, abi::kBeta2ModShoup), p);
    kb.store(kb.modAdd(kb.modAdd(r0, r1, p), r2, p), out, i, j);
  };
  if (op.getOrder() == fhe::Order::matrix) {
    // One prime row at a time over the block: the block's limbs stay in L1 and
    // each row of a prime-major result is written contiguously.
    kb.loop(m, [&](Value j) { kb.loop(B, [&](Value i) { residue(j, i); }); });
  } else {
    // Algo. 1: all primes of one coefficient.
    kb.loop(B, [&](Value i) { kb.loop(m, [&](Value j) { residue(j, i); }); });
  }
}

void populateCrtPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<CoefficientOpLowering<fhe::CrtOp>>(tc, patterns.getContext(), o);
}

} // namespace fhec
