#include "abi/Manifest.h"
#include "abi/Passes.h"
#include "dialect/CKKS/IR/CKKSDialect.h"
#include "target/Target.h"

#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Error.h"

using namespace mlir;

namespace fhec {

using fhe::FHEDialect;

unsigned ManifestBuilder::basisId(Attribute basis) {
  auto it = llvm::find(bases, basis);
  if (it != bases.end()) return unsigned(it - bases.begin());
  bases.push_back(basis);
  return bases.size() - 1;
}

LogicalResult ManifestBuilder::noteRing(func::FuncOp f, unsigned n) {
  if (logN && logN != n)
    return f.emitOpError() << "uses ring dimension 2^" << n << ", but the module's is 2^" << logN;
  logN = n;
  return success();
}

// Argument i of f after fhec-abi: the workspace, a constant, a table, or a
// polynomial or RNS argument with its role.
FailureOr<rt::ManifestArg> ManifestBuilder::describeArgument(func::FuncOp f, unsigned i) {
  rt::ManifestArg a;
  DictionaryAttr d = f.getArgAttrDict(i);
  if (d && d.get(FHEDialect::getWorkspaceAttrName())) {
    a.kind = rt::ManifestArg::Kind::Workspace;
    return a;
  }
  if (auto sym = d ? d.getAs<FlatSymbolRefAttr>(FHEDialect::getConstantAttrName()) : FlatSymbolRefAttr()) {
    auto t = dyn_cast<MemRefType>(f.getArgument(i).getType());
    if (!t || !t.hasStaticShape() || !t.getElementType().isInteger(64))
      return f.emitOpError() << "constant argument #" << i << " must be a static memref of i64";
    a.kind = rt::ManifestArg::Kind::Constant;
    a.symbol = sym.getValue().str();
    a.words = t.getNumElements();
    return a;
  }
  if (auto table = d ? d.getAs<StringAttr>(FHEDialect::getTableAttrName()) : StringAttr()) {
    auto param = d.getAs<IntegerAttr>(FHEDialect::getParamAttrName());
    if (!param || !d.getAs<fhe::BasisAttr>(FHEDialect::getBasisAttrName()))
      return f.emitOpError() << "table argument #" << i << " needs an integer fhe.param and an fhe.basis";
    auto kind = abi::parseTableKind(table.getValue().str());
    if (!kind) return f.emitOpError() << "table argument #" << i << " has an unknown table kind " << table;
    a.kind = rt::ManifestArg::Kind::Table;
    a.table = *kind;
    a.basis = int(basisId(d.get(FHEDialect::getBasisAttrName())));
    a.param = param.getInt();
    return a;
  }
  auto typeAttr = d ? d.getAs<TypeAttr>(FHEDialect::getTypeAttrName()) : TypeAttr();
  auto role = d ? d.getAs<StringAttr>(FHEDialect::getRoleAttrName()) : StringAttr();
  if (!typeAttr || !role)
    return f.emitOpError() << "argument #" << i << " has no fhe.type and fhe.role: it cannot be described in the ABI";
  a.output = bool(d.get(FHEDialect::getOutputAttrName()));
  a.role = role.getValue().str();
  Type t = typeAttr.getValue();
  if (auto p = dyn_cast<fhe::PolyType>(t)) {
    if (failed(noteRing(f, p.getLogN()))) return failure();
    a.kind = rt::ManifestArg::Kind::Poly;
    a.logq = int(p.getLogq());
    return a;
  }
  auto r = dyn_cast<fhe::RnsType>(t);
  if (!r) return f.emitOpError() << "argument #" << i << " has fhe.type " << t << ": expected !fhe.poly or !fhe.rns";
  if (failed(noteRing(f, r.getLogN()))) return failure();
  auto mt = dyn_cast<MemRefType>(f.getArgument(i).getType());
  unsigned bits = mt && mt.getElementType().isInteger() ? mt.getElementType().getIntOrFloatBitWidth() : 0;
  if (bits != 32 && bits != 64)
    return f.emitOpError() << "RNS argument #" << i << " must be a memref of i32 or i64 residues";
  a.kind = rt::ManifestArg::Kind::Rns;
  a.basis = int(basisId(r.getBasis()));
  a.bits = int(bits);
  return a;
}

LogicalResult ManifestBuilder::addFunction(func::FuncOp f) {
  if (!abi::isExportableName(f.getName()))
    return f.emitOpError() << "name " << f.getNameAttr() << " cannot be exported: entry points need a C identifier "
                           << "([A-Za-z_][A-Za-z0-9_]*, at most " << abi::kMaxFunctionName << " characters)";
  rt::ManifestFunction fn;
  fn.name = f.getName().str();
  fn.entry = abi::kEntryPrefix + fn.name;
  if (auto a = f->getAttrOfType<IntegerAttr>(FHEDialect::getWorkspaceBytesAttrName())) fn.workspaceBytes = a.getInt();
  for (StringRef key : {FHEDialect::getCtInputsAttrName(), FHEDialect::getCtOutputsAttrName()})
    if (auto list = f->getAttrOfType<ArrayAttr>(key))
      for (Attribute a : list) {
        auto arr = dyn_cast<DenseI64ArrayAttr>(a);
        if (!arr || arr.size() != 3)
          return f.emitOpError() << "'" << key << "' must list array<i64: logq, logp, slots> entries, got " << a;
        auto v = arr.asArrayRef();
        rt::ManifestCiphertext c{int(v[0]), int(v[1]), int(v[2])};
        (key == FHEDialect::getCtInputsAttrName() ? fn.inputs : fn.outputs).push_back(c);
      }
  if (auto pts = f->getAttrOfType<DenseI64ArrayAttr>(FHEDialect::getPtInputsAttrName()))
    for (int64_t slots : pts.asArrayRef()) fn.plaintexts.push_back(int(slots));
  for (unsigned i = 0; i < f.getNumArguments(); ++i) {
    FailureOr<rt::ManifestArg> a = describeArgument(f, i);
    if (failed(a)) return failure();
    fn.args.push_back(*a);
  }
  functions.push_back(std::move(fn));
  entries.push_back(StringAttr::get(f.getContext(), f.getName()));
  return success();
}

LogicalResult ManifestBuilder::finish() {
  const TargetSpec *target = getTarget(module);
  if (!target) return failure();
  rt::Manifest m;
  m.target = target->name.str();
  m.kernels = !target->gpu ? rt::KernelPlace::Host : target->emulated ? rt::KernelPlace::Emulated : rt::KernelPlace::Cuda;
  m.shoupBits = int(target->shoupBits);
  m.cpuFeatures = target->requiredCpuFeatures();
  m.logN = int(logN);
  if (auto p = ckks::getModuleParams(module)) {
    if (logN && p.getLogN() != logN)
      return module.emitError() << "functions use ring dimension 2^" << logN << ", but ckks.params says 2^"
                                << p.getLogN();
    m.logN = int(p.getLogN());
    m.logQ = int(p.getLogQ());
    m.logp = int(p.getLogp());
    m.dnum = int(p.getDnum());
    m.secret = p.getSecretKind();
    if (m.secret == rt::SecretKind::Sparse) m.h = int(p.getH());
  }
  if (auto w = module->getAttrOfType<IntegerAttr>(FHEDialect::getClientSecretWeightAttrName()))
    m.clientSecretWeight = w.getInt();
  for (Attribute a : bases) {
    auto primes = cast<fhe::BasisAttr>(a).getPrimes();
    m.bases.emplace_back(primes.begin(), primes.end());
  }
  m.functions = std::move(functions);
  std::string text;
  try {
    text = rt::writeManifest(m);
  } catch (const rt::Error &e) {
    return module.emitError() << "cannot write the module's manifest: " << e.what();
  }
  MLIRContext *ctx = module.getContext();
  module->setAttr(FHEDialect::getManifestAttrName(), StringAttr::get(ctx, text));
  module->setAttr(FHEDialect::getEntriesAttrName(), ArrayAttr::get(ctx, entries));
  return success();
}

} // namespace fhec
