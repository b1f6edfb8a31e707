// Compiles ckks programs with the driver library and loads them through the
// runtime, as `fhec run` does.
#pragma once

#include "codegen/Compiler.h"
#include "frontend/Evaluate.h"
#include "codegen/Pipeline.h"

#include "fhec/runtime/CpuFeatures.h"
#include "fhec/runtime/Module.h"
#include "target/Target.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

namespace fhec::test {

struct Program {
  std::unique_ptr<mlir::MLIRContext> ctx;
  mlir::OwningOpRef<mlir::ModuleOp> source;  // ckks level, for the oracles
  std::unique_ptr<rt::CompiledModule> module;

  mlir::func::FuncOp func(llvm::StringRef name) { return source->lookupSymbol<mlir::func::FuncOp>(name); }
};

inline std::unique_ptr<mlir::MLIRContext> makeContext() {
  mlir::DialectRegistry registry;
  registerDialects(registry);
  auto ctx = std::make_unique<mlir::MLIRContext>(registry);
  ctx->loadAllAvailableDialects();
  return ctx;
}

/// Parses and compiles `text` (default: cpu target, -O2); fails the test on errors.
inline Program compileProgram(const std::string &text, const CompileOptions &options = CompileOptions()) {
  Program p;
  p.ctx = makeContext();
  p.source = mlir::parseSourceString<mlir::ModuleOp>(text, p.ctx.get());
  EXPECT_TRUE(p.source) << text;
  if (!p.source) return p;
  EXPECT_TRUE(mlir::succeeded(expandPolynomials(*p.source))) << text;
  llvm::SmallString<128> so;
  llvm::sys::fs::createTemporaryFile("fhec-test", "so", so);
  mlir::OwningOpRef<mlir::ModuleOp> copy = p.source->clone();
  std::string error;
  EXPECT_TRUE(mlir::succeeded(compileToSharedLibrary(*copy, options, std::string(so), error))) << error;
  p.module = rt::CompiledModule::load(std::string(so));
  llvm::sys::fs::remove(so);
  return p;
}

/// Why modules of `target` cannot run on this CPU ("" if they can): the
/// features its manifest will require and the CPU (or FHEC_MASK_CPU_FEATURES)
/// lacks. Tests of such a target skip instead of failing.
inline std::string cannotRun(const std::string &target) {
  const TargetSpec *t = lookupTarget(target);
  if (!t) return "unknown target " + target;
  std::string why;
  for (const std::string &f : missingCpuFeatures(*t)) why += (why.empty() ? "" : ", ") + f;
  return why.empty() ? "" : target + " needs " + why + ", which this CPU lacks";
}

/// `!ckks.ct<...>` spelled out.
inline std::string ct(int logN, int logq, int logp, int slots) {
  return llvm::formatv("!ckks.ct<logN = {0}, logq = {1}, logp = {2}, slots = {3}>", logN, logq, logp, slots).str();
}

/// A program of one function, @sq: the product of a ciphertext (logq, logp,
/// 64 slots, at logQ = logq) with itself. `paramsExtra`: more #ckks.params
/// fields (", security = \"none\"").
inline std::string squareProgram(int logN, int logq, int logp, const std::string &paramsExtra = "") {
  std::string in = ct(logN, logq, logp, 64), out = ct(logN, logq, 2 * logp, 64);
  return llvm::formatv("module attributes {{ckks.params = #ckks.params<logN = {0}, logQ = {1}, logp = {2}{3}>} {{\n"
                       "  func.func @sq(%a: {4}) -> {5} {{\n"
                       "    %m = ckks.mul %a, %a : ({4}, {4}) -> {5}\n"
                       "    return %m : {5}\n"
                       "  }\n"
                       "}",
                       logN, logq, logp, paramsExtra, in, out)
      .str();
}

} // namespace fhec::test
