// Builds a ckks program op by op for tracing frontends (the Python package):
// each scheme operation goes through ScaleManager (dialect/CKKS/Transforms/ScaleManager.h), so
// products are rescaled and operands aligned as they are traced, and every op
// carries the frontend's source location. Values are handles (indices).
// Errors are ProgramError: Depth when the modulus runs out, Compile for
// other diagnostics, Parameter for bad handles or shapes.
#pragma once

#include "frontend/Program.h"

#include <complex>
#include <memory>
#include <string>
#include <vector>

namespace fhec {

struct SourceLocation {
  std::string file;
  unsigned line = 0, column = 0;
};

class ProgramBuilder {
public:
  /// A function `name` of inputs of the given shapes, under the parameters
  /// (`security`: "128" (default when empty), "192", "256" or "none";
  /// `keySwitch`: "centered" (default when empty) or "heaan"). An
  /// input of logq = 0 is a plaintext argument (!ckks.pt) of `slots` slots,
  /// given as numbers when the function is called.
  ProgramBuilder(const rt::Params &params, const std::string &security, const std::string &keySwitch,
                 const std::string &name,
                 const std::vector<CiphertextShape> &inputs, const SourceLocation &loc);
  ~ProgramBuilder();

  using Handle = size_t;
  Handle input(size_t i) const;
  CiphertextShape shape(Handle v) const;

  Handle add(Handle x, Handle y, const SourceLocation &loc);
  Handle sub(Handle x, Handle y, const SourceLocation &loc);
  Handle mul(Handle x, Handle y, const SourceLocation &loc);
  Handle negate(Handle x, const SourceLocation &loc);
  Handle mulConst(Handle x, double c, const SourceLocation &loc);
  Handle addConst(Handle x, double c, const SourceLocation &loc);
  /// `values`: one per slot (Parameter error otherwise).
  Handle mulPlain(Handle x, const std::vector<std::complex<double>> &values, const SourceLocation &loc);
  Handle addPlain(Handle x, const std::vector<std::complex<double>> &values, const SourceLocation &loc);
  /// The same with a plaintext argument `pt` (`negate`: x minus it).
  Handle mulPlainArg(Handle x, Handle pt, const SourceLocation &loc);
  Handle addPlainArg(Handle x, Handle pt, bool negate, const SourceLocation &loc);
  /// Left rotations by each of `offsets` slots (negative: right), mod N/2:
  /// one handle per offset, from one ckks.rotate (they share x's
  /// decomposition when hoisted).
  std::vector<Handle> rotate(Handle x, const std::vector<int64_t> &offsets, const SourceLocation &loc);
  Handle conjugate(Handle x, const SourceLocation &loc);
  /// x times the monomial X^k (ckks.mul_monomial; k = N/2 multiplies every
  /// slot by i); Compile error for k outside [0, 2N) or off the subring of
  /// x's slots.
  Handle mulMonomial(Handle x, int64_t k, const SourceLocation &loc);
  /// ckks.linear_transform: y[j] = sum_i diagonals[i][j] x[(j + offsets[i]) mod
  /// slots], by baby-step giant-step; Parameter error for mismatched shapes.
  Handle linearTransform(Handle x, const std::vector<int64_t> &offsets,
                         const std::vector<std::vector<std::complex<double>>> &diagonals, const SourceLocation &loc);
  /// The polynomial of `coefficients` (lowest degree first) in `basis`
  /// ("power" or "chebyshev") on [a, b], by ckks.poly_eval's baby-step
  /// giant-step sequence (dialect/CKKS/Transforms/PolyEval.h); Parameter error for a bad
  /// polynomial, Depth error when the modulus runs out.
  Handle polyEval(Handle x, const std::vector<double> &coefficients, const std::string &basis, double a, double b,
                  const SourceLocation &loc);

  /// From now on, a product that would leave an operand below q0 =
  /// 2^modLogq bootstraps it first (ScaleManager::setAutoBootstrap).
  void autoBootstrap(unsigned modLogq, unsigned logScale);

  /// ckks.bootstrap of x (dialect/CKKS/Transforms/Bootstrap.h): raised from q0 = 2^modLogq,
  /// computing at the working scale 2^logScale, with levelBudget (empty, or
  /// CoeffToSlot and SlotToCoeff levels); Compile error for a q0 outside
  /// (2^logp, q] or a budget outside [1, log2 slots], Depth error when logQ
  /// is too small.
  Handle bootstrap(Handle x, unsigned modLogq, unsigned logScale, const std::vector<unsigned> &levelBudget,
                   const SourceLocation &loc);

  /// Returns `results` and hands over the finished program; the builder is spent.
  std::unique_ptr<Program> finish(const std::vector<Handle> &results, const SourceLocation &loc);

private:
  struct State;
  std::unique_ptr<State> s;
  template <typename F> Handle build(const SourceLocation &loc, F &&f);
  /// The same for `f` giving several values (FailureOr<SmallVector<Value>>).
  template <typename F> std::vector<Handle> buildAll(const SourceLocation &loc, F &&f);
  /// `values` as the slot values of a plaintext for x; Parameter error if their count is not x's slots.
  mlir::ElementsAttr plaintext(Handle x, const std::vector<std::complex<double>> &values);
};

} // namespace fhec
