#include "passes/Manifest.h"
#include "passes/Passes.h"

#include "fhec/runtime/Abi.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace fhec {

unsigned ManifestBuilder::basisId(Attribute basis) {
  auto it = llvm::find(bases, basis);
  if (it != bases.end()) return unsigned(it - bases.begin());
  bases.push_back(basis);
  return bases.size() - 1;
}

void ManifestBuilder::addFunction(func::FuncOp f) {
  llvm::raw_string_ostream os(functions);
  os << "func name=" << f.getName() << " entry=" << abi::kEntryPrefix << f.getName() << "\n";
  for (StringRef key : {"fhe.ct_inputs", "fhe.ct_outputs"})
    if (auto list = f->getAttrOfType<ArrayAttr>(key))
      for (Attribute a : list) {
        auto v = cast<DenseI64ArrayAttr>(a).asArrayRef();
        os << "ct dir=" << (key == "fhe.ct_inputs" ? "in" : "out") << " logq=" << v[0] << " logp=" << v[1]
           << " slots=" << v[2] << "\n";
      }
  for (unsigned i = 0; i < f.getNumArguments(); ++i) {
    DictionaryAttr d = f.getArgAttrDict(i);
    if (auto table = d.getAs<StringAttr>("fhe.table")) {
      os << "arg kind=table table=" << table.getValue() << " basis=" << basisId(d.get("fhe.basis"))
         << " limbs=" << cast<IntegerAttr>(d.get("fhe.limbs")).getInt() << "\n";
      continue;
    }
    Type t = cast<TypeAttr>(d.get("fhe.type")).getValue();
    StringRef dir = d.get("fhe.output") ? "out" : "in";
    StringRef role = d.getAs<StringAttr>("fhe.role").getValue();
    if (auto p = dyn_cast<fhe::PolyType>(t)) {
      logN = p.getLogN();
      os << "arg kind=poly dir=" << dir << " logq=" << p.getLogq() << " role=" << role << "\n";
    } else {
      auto r = cast<fhe::RnsType>(t);
      logN = r.getLogN();
      os << "arg kind=rns dir=" << dir << " basis=" << basisId(r.getBasis()) << " role=" << role << "\n";
    }
  }
  entries.push_back(StringAttr::get(f.getContext(), f.getName()));
}

LogicalResult ManifestBuilder::finish() {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "fhec-manifest " << abi::kAbiVersion << "\n";
  if (auto p = ckks::getModuleParams(module))
    os << "params logN=" << p.getLogN() << " logQ=" << p.getLogQ() << " logp=" << p.getLogp() << "\n";
  else
    os << "params logN=" << logN << " logQ=0 logp=0\n";
  for (auto [i, a] : llvm::enumerate(bases)) {
    os << "basis id=" << i << " primes=";
    llvm::interleave(cast<fhe::BasisAttr>(a).getPrimes(), os, ",");
    os << "\n";
  }
  os << functions;
  MLIRContext *ctx = module.getContext();
  module->setAttr("fhec.manifest", StringAttr::get(ctx, text));
  module->setAttr("fhec.entries", ArrayAttr::get(ctx, entries));
  return success();
}

} // namespace fhec
