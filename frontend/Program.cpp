#include "frontend/Program.h"
#include "frontend/Evaluate.h"

#include "fhec/runtime/Error.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <thread>

using namespace mlir;

namespace fhec {

// ---- Program ----------------------------------------------------------------

namespace {
rt::Params paramsOf(ModuleOp module) {
  ckks::ParamsAttr p = ckks::getModuleParams(module);
  if (!p) throw ProgramError(ProgramError::Kind::Parameter, "the program has no 'ckks.params' attribute");
  return runtimeParams(p);
}

CiphertextShape shapeOf(Type t) {
  auto ct = cast<ckks::CiphertextType>(t);
  return {int(ct.getLogq()), int(ct.getLogp()), int(ct.getSlots())};
}
} // namespace

Program::Program(std::unique_ptr<MLIRContext> ctx, OwningOpRef<ModuleOp> module)
    : ctx_(std::move(ctx)), source_(std::move(module)), params_(paramsOf(*source_)) {
  function();  // exactly one public function of ciphertexts
  DiagnosticCollector diags(*ctx_);
  expanded_ = source_->clone();
  if (failed(expandPolynomials(*expanded_))) diags.raise(ProgramError::Kind::Compile);
}

func::FuncOp Program::evaluatedFunction() const {
  for (auto f : expanded_.get().getOps<func::FuncOp>())
    if (!f.isExternal() && f.isPublic()) return f;
  llvm_unreachable("function() checked the public function");
}

Program::~Program() {
  if (libraryFd_ >= 0) ::close(libraryFd_);
}

std::string Program::libraryBytes() const {
  module();  // throws unless compiled
  struct stat st;
  if (libraryFd_ < 0 || ::fstat(libraryFd_, &st) != 0)
    throw ProgramError(ProgramError::Kind::Compile, "the compiled module's file could not be kept open");
  std::string bytes(size_t(st.st_size), '\0');
  for (size_t done = 0; done < bytes.size();) {
    ssize_t n = ::pread(libraryFd_, bytes.data() + done, bytes.size() - done, off_t(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw ProgramError(ProgramError::Kind::Compile, "cannot read the compiled module back");
    done += size_t(n);
  }
  return bytes;
}

std::unique_ptr<Program> Program::parse(const std::string &text, const std::string &bufferName) {
  DialectRegistry registry;
  registerDialects(registry);
  auto ctx = std::make_unique<MLIRContext>(registry);
  ctx->loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module;
  {
    DiagnosticCollector diags(*ctx);
    ParserConfig config(ctx.get());
    module = parseSourceString<ModuleOp>(text, config, bufferName);
    if (!module || failed(expandPolynomials(*module))) diags.raise(ProgramError::Kind::Compile);
  }
  return std::make_unique<Program>(std::move(ctx), std::move(module));
}

func::FuncOp Program::function() const {
  func::FuncOp found;
  for (auto f : source_.get().getOps<func::FuncOp>()) {
    if (f.isExternal() || !f.isPublic()) continue;
    if (found) throw ProgramError(ProgramError::Kind::Parameter, "the program has several public functions");
    found = f;
  }
  if (!found) throw ProgramError(ProgramError::Kind::Parameter, "the program has no public function");
  for (Type t : found.getArgumentTypes())
    if (!isa<ckks::CiphertextType, ckks::PlaintextType>(t))
      throw ProgramError(ProgramError::Kind::Parameter,
                         "@" + found.getName().str() + " takes something other than ciphertexts and plaintexts");
  for (Type t : found.getResultTypes())
    if (!isa<ckks::CiphertextType>(t))
      throw ProgramError(ProgramError::Kind::Parameter,
                         "@" + found.getName().str() + " returns something other than ciphertexts");
  return found;
}

std::string Program::functionName() const { return function().getName().str(); }

std::vector<CiphertextShape> Program::inputShapes() const {
  std::vector<CiphertextShape> out;
  for (Type t : function().getArgumentTypes())
    if (isa<ckks::CiphertextType>(t)) out.push_back(shapeOf(t));
  return out;
}

std::vector<CiphertextShape> Program::outputShapes() const {
  std::vector<CiphertextShape> out;
  for (Type t : function().getResultTypes()) out.push_back(shapeOf(t));
  return out;
}

std::vector<uint64_t> Program::galoisElements() const { return fhec::galoisElements(evaluatedFunction()); }
std::vector<int> Program::encapsulationModuli() const { return fhec::encapsulationModuli(evaluatedFunction()); }

std::string Program::mlir(bool locations) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  OpPrintingFlags flags;
  if (locations) flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  source_.get().print(os, flags);
  return s;
}

std::string Program::security() const { return describeSecurity(source_.get()); }

std::string Program::lower(const CompileOptions &options, Stage stage) const {
  DiagnosticCollector diags(*ctx_);
  OwningOpRef<ModuleOp> copy = source_.get().clone();
  if (failed(lowerModule(*copy, options, stage))) diags.raise(ProgramError::Kind::Compile);
  std::string s;
  llvm::raw_string_ostream os(s);
  copy->print(os);
  return s;
}

void Program::compile(const CompileOptions &options, bool allowInsecure) {
  DiagnosticCollector diags(*ctx_);
  if (failed(checkSecurity(*source_, allowInsecure))) diags.raise(ProgramError::Kind::Security);
  CompileOptions resolved = options;
  std::string error;
  if (failed(resolveOptions(resolved, error))) throw ProgramError(ProgramError::Kind::Parameter, error);
  OwningOpRef<ModuleOp> copy = source_->clone();
  int fd = -1;
  auto loaded = compileAndLoad(*copy, resolved, diags, &fd);
  if (libraryFd_ >= 0) ::close(libraryFd_);
  module_ = std::move(loaded);
  libraryFd_ = fd;
}

const rt::CompiledModule &Program::module() const {
  if (!module_) throw ProgramError(ProgramError::Kind::Parameter, "the program is not compiled yet");
  return *module_;
}

std::vector<rt::Ciphertext> Program::reference(const std::vector<rt::Ciphertext> &inputs, const rt::KeySet &keys,
                                               const std::vector<std::vector<rt::Complex>> &plaintexts) const {
  DiagnosticCollector diags(*ctx_);
  auto r = evaluateReference(evaluatedFunction(), params_, EvaluationKeys::of(keys), inputs, plaintexts);
  if (failed(r)) diags.raise(ProgramError::Kind::Parameter, "reference evaluation failed: ");
  return std::move(*r);
}

std::vector<std::vector<rt::Complex>> Program::plain(const std::vector<std::vector<rt::Complex>> &inputs,
                                                     const std::vector<std::vector<rt::Complex>> &plaintexts) const {
  DiagnosticCollector diags(*ctx_);
  auto r = evaluatePlain(evaluatedFunction(), inputs, plaintexts);
  if (failed(r)) diags.raise(ProgramError::Kind::Parameter, "plaintext evaluation failed: ");
  return std::move(*r);
}

// ---- ProgramExecutor --------------------------------------------------------

ProgramExecutor::ProgramExecutor(const Program &program, const rt::KeySet &keys)
    : program_(program), exec_(program.module(), program.params()) {
  exec_.setKeysFor(program.module().manifest().program(program.functionName()), keys);
}

std::vector<rt::Ciphertext> ProgramExecutor::run(const std::vector<rt::Ciphertext> &inputs, unsigned threads,
                                                 const std::vector<std::vector<rt::Complex>> &plaintexts) {
  program_.module().setThreads(int(threads ? threads : std::max(1u, std::thread::hardware_concurrency())));
  auto t0 = std::chrono::steady_clock::now();
  std::vector<rt::Ciphertext> out = exec_.run(program_.functionName(), inputs, plaintexts);
  lastRunSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  lastRunTransfers_ = exec_.lastCallTransfers();
  return out;
}

std::vector<rt::DeviceCiphertext> ProgramExecutor::runOnDevice(const std::vector<DeviceInput> &inputs,
                                                               unsigned threads,
                                                               const std::vector<std::vector<rt::Complex>> &plaintexts) {
  exec_.requireDevice(program_.functionName());
  // The call's checks first: nothing goes to the device for a call that is refused.
  std::vector<rt::CiphertextView> types;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const DeviceInput &i = inputs[k];
    if (!i.host && !i.device)
      throw rt::Error("an input of '" + program_.functionName() + "' is neither on the host nor on a device");
    if (i.host ? i.host->ax.words.empty() : i.device->empty())
      throw rt::Error("'" + program_.functionName() + "' input " + std::to_string(k) + " has no words");
    rt::CiphertextView t = i.host ? rt::CiphertextView(*i.host) : rt::CiphertextView();
    if (!i.host) {
      t.logN = i.device->logN(), t.logq = i.device->logq(), t.logp = i.device->logp(), t.slots = i.device->slots();
      t.keySet = i.device->keySet;
    }
    types.push_back(t);
  }
  exec_.checkInputs(program_.functionName(), types, plaintexts);
  program_.module().setThreads(int(threads ? threads : std::max(1u, std::thread::hardware_concurrency())));
  auto t0 = std::chrono::steady_clock::now();
  std::vector<rt::DeviceCiphertext> uploaded;
  uploaded.reserve(inputs.size());  // the pointers below stay valid
  std::vector<const rt::DeviceCiphertext *> in;
  rt::Transfers copied;
  for (const DeviceInput &i : inputs) {
    if (i.device && i.device->place() == place()) {
      in.push_back(i.device);
      continue;
    }
    rt::Ciphertext fromOtherDevice;
    const rt::Ciphertext *host = i.host;
    if (!host) {
      fromOtherDevice = i.device->download();
      host = &fromOtherDevice;
      copied.toHost += i.device->bytes();
    }
    uploaded.push_back(rt::DeviceCiphertext::upload(*host, place()));
    copied.toDevice += uploaded.back().bytes();
    in.push_back(&uploaded.back());
  }
  std::vector<rt::DeviceCiphertext> out;
  exec_.run(program_.functionName(), in, out, plaintexts);
  lastRunSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  lastRunTransfers_ = copied + exec_.lastCallTransfers();
  return out;
}

} // namespace fhec
