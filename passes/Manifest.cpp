#include "passes/Manifest.h"
#include "passes/Passes.h"
#include "target/Target.h"

#include "fhec/runtime/Abi.h"

#include "llvm/Support/raw_ostream.h"

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

LogicalResult ManifestBuilder::addFunction(func::FuncOp f) {
  if (!abi::isExportableName(f.getName()))
    return f.emitOpError() << "name " << f.getNameAttr() << " cannot be exported: entry points need a C identifier "
                           << "([A-Za-z_][A-Za-z0-9_]*, at most " << abi::kMaxFunctionName << " characters)";
  llvm::raw_string_ostream os(functions);
  int64_t ws = 0;
  if (auto a = f->getAttrOfType<IntegerAttr>(FHEDialect::getWorkspaceBytesAttrName())) ws = a.getInt();
  os << "func name=" << f.getName() << " entry=" << abi::kEntryPrefix << f.getName() << " workspace=" << ws << "\n";
  for (StringRef key : {FHEDialect::getCtInputsAttrName(), FHEDialect::getCtOutputsAttrName()})
    if (auto list = f->getAttrOfType<ArrayAttr>(key))
      for (Attribute a : list) {
        auto arr = dyn_cast<DenseI64ArrayAttr>(a);
        if (!arr || arr.size() != 3)
          return f.emitOpError() << "'" << key << "' must list array<i64: logq, logp, slots> entries, got " << a;
        auto v = arr.asArrayRef();
        os << "ct dir=" << (key == FHEDialect::getCtInputsAttrName() ? "in" : "out") << " logq=" << v[0]
           << " logp=" << v[1] << " slots=" << v[2] << "\n";
      }
  if (auto pts = f->getAttrOfType<DenseI64ArrayAttr>(FHEDialect::getPtInputsAttrName()))
    for (int64_t slots : pts.asArrayRef()) os << "pt slots=" << slots << "\n";
  for (unsigned i = 0; i < f.getNumArguments(); ++i) {
    DictionaryAttr d = f.getArgAttrDict(i);
    if (d && d.get(FHEDialect::getWorkspaceAttrName())) {
      os << "arg kind=workspace\n";
      continue;
    }
    if (auto sym = d ? d.getAs<FlatSymbolRefAttr>(FHEDialect::getConstantAttrName()) : FlatSymbolRefAttr()) {
      auto t = dyn_cast<MemRefType>(f.getArgument(i).getType());
      if (!t || !t.hasStaticShape() || !t.getElementType().isInteger(64))
        return f.emitOpError() << "constant argument #" << i << " must be a static memref of i64";
      os << "arg kind=constant symbol=" << sym.getValue() << " words=" << t.getNumElements() << "\n";
      continue;
    }
    if (auto table = d ? d.getAs<StringAttr>(FHEDialect::getTableAttrName()) : StringAttr()) {
      auto param = d.getAs<IntegerAttr>(FHEDialect::getParamAttrName());
      if (!param || !d.getAs<fhe::BasisAttr>(FHEDialect::getBasisAttrName()))
        return f.emitOpError() << "table argument #" << i << " needs an integer fhe.param and an fhe.basis";
      os << "arg kind=table table=" << table.getValue() << " basis=" << basisId(d.get(FHEDialect::getBasisAttrName()))
         << " param=" << param.getInt() << "\n";
      continue;
    }
    auto typeAttr = d ? d.getAs<TypeAttr>(FHEDialect::getTypeAttrName()) : TypeAttr();
    auto role = d ? d.getAs<StringAttr>(FHEDialect::getRoleAttrName()) : StringAttr();
    if (!typeAttr || !role)
      return f.emitOpError() << "argument #" << i << " has no fhe.type and fhe.role: it cannot be described in the ABI";
    StringRef dir = d.get(FHEDialect::getOutputAttrName()) ? "out" : "in";
    Type t = typeAttr.getValue();
    if (auto p = dyn_cast<fhe::PolyType>(t)) {
      if (failed(noteRing(f, p.getLogN()))) return failure();
      os << "arg kind=poly dir=" << dir << " logq=" << p.getLogq() << " role=" << role.getValue() << "\n";
    } else {
      auto r = dyn_cast<fhe::RnsType>(t);
      if (!r) return f.emitOpError() << "argument #" << i << " has fhe.type " << t << ": expected !fhe.poly or !fhe.rns";
      if (failed(noteRing(f, r.getLogN()))) return failure();
      auto mt = dyn_cast<MemRefType>(f.getArgument(i).getType());
      unsigned bits = mt && mt.getElementType().isInteger() ? mt.getElementType().getIntOrFloatBitWidth() : 0;
      if (bits != 32 && bits != 64)
        return f.emitOpError() << "RNS argument #" << i << " must be a memref of i32 or i64 residues";
      os << "arg kind=rns dir=" << dir << " basis=" << basisId(r.getBasis()) << " bits=" << bits
         << " role=" << role.getValue() << "\n";
    }
  }
  entries.push_back(StringAttr::get(f.getContext(), f.getName()));
  return success();
}

LogicalResult ManifestBuilder::finish() {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "fhec-manifest " << abi::kAbiVersion << "\n";
  const TargetSpec *target = getTarget(module);
  if (!target) return failure();
  // Where the kernels run, as the runtime needs it (it has no target table).
  StringRef kernels = !target->gpu ? "host" : target->emulated ? "emulated" : "cuda";
  os << "target name=" << target->name << " kernels=" << kernels << " shoup_bits=" << target->shoupBits
     << " features=" << target->cpuFeatures << "\n";
  if (auto p = ckks::getModuleParams(module)) {
    if (logN && p.getLogN() != logN)
      return module.emitError() << "functions use ring dimension 2^" << logN << ", but ckks.params says 2^"
                                << p.getLogN();
    os << "params logN=" << p.getLogN() << " logQ=" << p.getLogQ() << " logp=" << p.getLogp();
    if (p.getDnum() != 1) os << " dnum=" << p.getDnum();
    if (p.getSecretKind() == rt::SecretKind::Sparse) os << " secret=sparse h=" << p.getH();
    os << "\n";
  } else {
    os << "params logN=" << logN << " logQ=0 logp=0\n";
  }
  if (auto w = module->getAttrOfType<IntegerAttr>(FHEDialect::getClientSecretWeightAttrName()))
    os << "client secret_weight=" << w.getInt() << "\n";
  for (auto [i, a] : llvm::enumerate(bases)) {
    os << "basis id=" << i << " primes=";
    llvm::interleave(cast<fhe::BasisAttr>(a).getPrimes(), os, ",");
    os << "\n";
  }
  os << functions;
  MLIRContext *ctx = module.getContext();
  module->setAttr(FHEDialect::getManifestAttrName(), StringAttr::get(ctx, text));
  module->setAttr(FHEDialect::getEntriesAttrName(), ArrayAttr::get(ctx, entries));
  return success();
}

} // namespace fhec
