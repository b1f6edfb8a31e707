// fhec-fuzz-seeds OUTDIR FILE.mlir...: the fuzz targets' seed corpora.
//   OUTDIR/mlir/         every input file, split at `// -----` lines (lit's
//                        -split-input-file), and the pieces that compile also
//                        with `// fhec-fuzz: --target=cpu-avx512` and `-O0`;
//                        a piece whose compile to loops takes longer than
//                        kMaxSeedSeconds is left out (the fuzzer could run
//                        it only a few times, and a mutation that doubles it
//                        would pass fuzz.sh's per-input limit);
//   OUTDIR/manifest/     the manifests of the pieces that compile (cpu and
//                        cpu-avx512), as fhec-abi records them (each piece
//                        is compiled in a child process: a crash is reported
//                        and the other seeds are still written);
//   OUTDIR/deserialize/  serialized parameters, ciphertexts and keys at
//                        logN 4..10, each behind fhec-fuzz-deserialize's
//                        control byte (reader, checksum fix-up).
#include "codegen/Pipeline.h"

#include "fhec/runtime/Automorphism.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Serialize.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;

namespace {

std::string outDir;

/// A seed that takes longer than this to compile (in this build, sanitized
/// in build-san/) leaves the mlir corpus: the paper-size programs of the
/// tests take tens of seconds under ASan, 60 s is fuzz.sh's per-input limit.
constexpr double kMaxSeedSeconds = 10;

void write(const std::string &sub, const std::string &name, const std::string &bytes) {
  std::string dir = outDir + "/" + sub;
  llvm::sys::fs::create_directories(dir);
  std::error_code ec;
  llvm::raw_fd_ostream os(dir + "/" + name, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << "fhec-fuzz-seeds: cannot write " << dir << "/" << name << ": " << ec.message() << "\n";
    std::exit(1);
  }
  os << bytes;
}

/// The manifest fhec-abi records for `source` with `target`, or "".
std::string manifestOf(MLIRContext &ctx, const std::string &source, const std::string &target) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
  if (!module) return "";
  fhec::CompileOptions options;
  options.target = target;
  PassManager pm(&ctx);
  std::string error;
  if (failed(fhec::buildFHEPipeline(pm, options, error)) || failed(fhec::buildLoopPipeline(pm, options, error)) ||
      failed(pm.run(*module)))
    return "";
  auto manifest = (*module)->getAttrOfType<StringAttr>("fhe.manifest");
  return manifest ? manifest.getValue().str() : "";
}

enum class PieceResult { Compiled, Crashed, Slow };

/// Compiles one piece (in a child process) and writes its manifests and, if it
/// compiles, its variants with other flags. A child still compiling after
/// kMaxSeedSeconds is stopped: the piece is Slow.
PieceResult compilePiece(const DialectRegistry &registry, const std::string &name, const std::string &piece) {
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    // A crash report goes to OUTDIR/crashes/NAME.log instead of the terminal.
    llvm::sys::fs::create_directories(outDir + "/crashes");
    if (!std::freopen((outDir + "/crashes/" + name + ".log").c_str(), "w", stderr)) _exit(1);
    MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
    ctx.loadAllAvailableDialects();
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    for (const char *target : {"cpu", "cpu-avx512"}) {
      std::string m = manifestOf(ctx, piece, target);
      if (m.empty()) continue;
      write("manifest", name + "." + target + ".manifest", m);
      if (std::string(target) == "cpu-avx512") {
        write("mlir", name + ".avx512.mlir", "// fhec-fuzz: --target=cpu-avx512\n" + piece);
        write("mlir", name + ".O0.mlir", "// fhec-fuzz: -O0 --no-phase-timers\n" + piece);
      }
    }
    std::fflush(nullptr);
    std::fclose(stderr);
    std::remove((outDir + "/crashes/" + name + ".log").c_str());
    _exit(0);
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(kMaxSeedSeconds);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      std::remove((outDir + "/crashes/" + name + ".log").c_str());
      return PieceResult::Slow;
    }
    usleep(20000);
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? PieceResult::Compiled : PieceResult::Crashed;
}

void mlirSeeds(const std::vector<std::string> &files) {
  DialectRegistry registry;
  fhec::registerDialects(registry);
  int pieces = 0;
  std::vector<std::string> crashed, slow;
  for (const std::string &file : files) {
    auto buf = llvm::MemoryBuffer::getFile(file);
    if (!buf) {
      llvm::errs() << "fhec-fuzz-seeds: cannot read " << file << "\n";
      std::exit(1);
    }
    std::string base = file;
    for (char &c : base)
      if (c == '/') c = '_';
    // lit's split marker: a line that is exactly `// -----`.
    llvm::StringRef text = (*buf)->getBuffer();
    std::string piece;
    int index = 0;
    auto flush = [&] {
      std::string name = base + "." + std::to_string(index++);
      ++pieces;
      PieceResult result = compilePiece(registry, name, piece);
      if (result == PieceResult::Crashed) crashed.push_back(name);
      if (result != PieceResult::Slow) {
        write("mlir", name + ".mlir", piece);
      } else {
        // compilePiece's variants of it go too.
        for (const char *variant : {".avx512.mlir", ".O0.mlir"})
          std::remove((outDir + "/mlir/" + name + variant).c_str());
        slow.push_back(name);
      }
      piece.clear();
    };
    while (!text.empty()) {
      auto [line, rest] = text.split('\n');
      text = rest;
      if (line.trim() == "// -----") {
        flush();
        continue;
      }
      piece += line.str() + "\n";
    }
    flush();
  }
  // Manifests of several pieces are often the same; libFuzzer skips duplicates.
  std::printf("fhec-fuzz-seeds: %d MLIR pieces\n", pieces);
  for (const std::string &name : slow)
    std::printf("fhec-fuzz-seeds: left out of the mlir corpus, slower to compile than %g s: %s\n", kMaxSeedSeconds,
                name.c_str());
  for (const std::string &name : crashed)
    std::printf("fhec-fuzz-seeds: compiling %s CRASHED (a finding; report in %s/crashes/%s.log)\n", name.c_str(),
                outDir.c_str(), name.c_str());
}

void deserializeSeeds() {
  fhec::rt::SecureRandom rng;
  int count = 0;
  auto put = [&](const std::string &name, int reader, const std::string &bytes) {
    write("deserialize", name, std::string(1, char(reader | 8)) + bytes);
    ++count;
  };
  for (int logN = 4; logN <= 10; ++logN) {
    fhec::rt::Params p;
    p.logN = logN;
    p.logQ = logN <= 6 ? 60 : 130;
    p.logp = 20;
    // HEAAN's sparse secret, and the ternary default at logN 5 and 7.
    if (logN != 5 && logN != 7) {
      p.secret = fhec::rt::SecretKind::Sparse;
      p.h = std::min(64, 1 << logN);
    }
    fhec::rt::KeySet keys = fhec::rt::generateKeys(p, rng);
    int slots = 1 << (logN - 2), logq = p.logQ - (logN % 2) * 10;
    std::vector<fhec::rt::Complex> z(slots);
    for (auto &v : z) v = {rng.uniformReal() - 0.5, rng.uniformReal() - 0.5};
    fhec::rt::Ciphertext ct = fhec::rt::encrypt(p, keys.pk, fhec::rt::encode(z, logN, p.logp, logq), p.logp, slots, rng);
    std::string n = "logN" + std::to_string(logN);
    fhec::rt::RotationKey rk =
        fhec::rt::generateRotationKey(p, keys.sk, fhec::rt::galoisForRotation(logN, 1), rng);
    std::string objects[] = {fhec::rt::serialize(p),         fhec::rt::serialize(p, ct),
                             fhec::rt::serialize(p, keys.sk), fhec::rt::serialize(p, keys.pk),
                             fhec::rt::serialize(p, keys.evk), fhec::rt::serialize(p, rk)};
    const char *names[] = {"params", "ct", "sk", "pk", "evk", "rk"};
    constexpr int kinds = 6;  // readers 0-5 of FuzzDeserialize.cpp; 6: paramsOf
    for (int kind = 0; kind < kinds; ++kind) {
      put(n + "." + names[kind], kind, objects[kind]);
      // paramsOf reads any kind; the small ones also go to a reader of another kind.
      put(n + "." + names[kind] + ".paramsOf", kinds, objects[kind]);
      if (logN == 4) put(n + "." + names[kind] + ".wrong-reader", (kind + 1) % kinds, objects[kind]);
    }
  }
  std::printf("fhec-fuzz-seeds: %d serialized objects\n", count);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fhec-fuzz-seeds OUTDIR FILE.mlir...\n");
    return 2;
  }
  outDir = argv[1];
  mlirSeeds(std::vector<std::string>(argv + 2, argv + argc));
  deserializeSeeds();
  return 0;
}
