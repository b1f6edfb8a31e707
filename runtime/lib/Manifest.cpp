#include "fhec/runtime/Manifest.h"
#include "fhec/runtime/Error.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

namespace fhec::rt {

namespace {

// The format's records and keys, one list for the writer and the parser.
namespace rec {
constexpr const char *kHeader = "fhec-manifest", *kTarget = "target", *kParams = "params", *kClient = "client",
                     *kBasis = "basis", *kFunc = "func", *kCiphertext = "ct", *kPlaintext = "pt", *kArg = "arg";
} // namespace rec
namespace key {
constexpr const char *kName = "name", *kKernels = "kernels", *kShoupBits = "shoup_bits", *kFeatures = "features",
                     *kLogN = "logN", *kLogQ = "logQ", *kLogp = "logp", *kDnum = "dnum", *kSecret = "secret",
                     *kH = "h", *kSecretWeight = "secret_weight", *kId = "id", *kPrimes = "primes",
                     *kEntry = "entry", *kWorkspace = "workspace", *kDir = "dir", *kLogq = "logq",
                     *kSlots = "slots", *kKind = "kind", *kTable = "table", *kBasis = "basis", *kParam = "param",
                     *kSymbol = "symbol", *kWords = "words", *kBits = "bits", *kRole = "role";
} // namespace key

// Where the kernels run, as the runtime needs it (it has no target table).
constexpr std::pair<KernelPlace, const char *> kKernelPlaces[] = {
    {KernelPlace::Host, "host"}, {KernelPlace::Cuda, "cuda"}, {KernelPlace::Emulated, "emulated"}};
constexpr std::pair<ManifestArg::Kind, const char *> kArgKinds[] = {{ManifestArg::Kind::Table, "table"},
                                                                   {ManifestArg::Kind::Constant, "constant"},
                                                                   {ManifestArg::Kind::Workspace, "workspace"},
                                                                   {ManifestArg::Kind::Poly, "poly"},
                                                                   {ManifestArg::Kind::Rns, "rns"}};

template <typename T, size_t N> const char *nameOf(const std::pair<T, const char *> (&names)[N], T v) {
  for (const auto &[value, name] : names)
    if (value == v) return name;
  return "?";
}

[[noreturn]] void bad(int line, const std::string &why) {
  throw Error("malformed module manifest (line " + std::to_string(line) + "): " + why);
}

using Fields = std::map<std::string, std::string>;

// "key=value" tokens of one line.
Fields fields(std::istringstream &is, int line) {
  Fields f;
  std::string tok;
  while (is >> tok) {
    auto eq = tok.find('=');
    if (eq == std::string::npos) bad(line, "expected key=value, got '" + tok + "'");
    f[tok.substr(0, eq)] = tok.substr(eq + 1);
  }
  return f;
}

long long num(const Fields &f, const char *key, int line) {
  auto it = f.find(key);
  if (it == f.end()) bad(line, std::string("missing '") + key + "'");
  char *end = nullptr;
  long long v = std::strtoll(it->second.c_str(), &end, 10);
  if (it->second.empty() || *end) bad(line, std::string("'") + key + "' is not a number");
  return v;
}

std::vector<std::string> commaList(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream is(s);
  std::string item;
  while (std::getline(is, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

void parseTarget(Manifest &m, Fields &f, int line) {
  m.target = f[key::kName];
  const std::string &kernels = f[key::kKernels];
  auto place = std::find_if(std::begin(kKernelPlaces), std::end(kKernelPlaces),
                            [&](const auto &p) { return kernels == p.second; });
  if (place == std::end(kKernelPlaces)) bad(line, "kernels='" + kernels + "' (expected host, cuda or emulated)");
  m.kernels = place->first;
  m.shoupBits = int(num(f, key::kShoupBits, line));
  m.cpuFeatures = commaList(f[key::kFeatures]);
  if (m.target.empty()) bad(line, "target without a name");
  if (m.shoupBits != 64 && m.shoupBits != 52 && m.shoupBits != 32)
    bad(line, "unsupported Shoup base 2^" + std::to_string(m.shoupBits));
}

void parseParams(Manifest &m, Fields &f, int line) {
  m.logN = int(num(f, key::kLogN, line));
  m.logQ = int(num(f, key::kLogQ, line));
  m.logp = int(num(f, key::kLogp, line));
  if (f.count(key::kDnum)) m.dnum = int(num(f, key::kDnum, line));
  if (m.dnum < 1) bad(line, "dnum below 1");
  if (f.count(key::kSecret) && !parseSecretKind(f[key::kSecret], m.secret))
    bad(line, "unknown secret '" + f[key::kSecret] + "'");
  if (m.secret == SecretKind::Sparse) {
    m.h = int(num(f, key::kH, line));
    if (m.h < 1) bad(line, "a sparse secret's h below 1");
  }
}

void parseBasis(Manifest &m, Fields &f, int line) {
  if (num(f, key::kId, line) != (long long)m.bases.size()) bad(line, "basis ids must be consecutive");
  std::vector<uint64_t> primes;
  for (const std::string &p : commaList(f[key::kPrimes])) primes.push_back(std::strtoull(p.c_str(), nullptr, 10));
  if (primes.empty()) bad(line, "empty basis");
  m.bases.push_back(std::move(primes));
}

void parseFunc(Manifest &m, Fields &f, int line) {
  m.functions.push_back({});
  ManifestFunction &cur = m.functions.back();
  cur.name = f[key::kName];
  cur.entry = f[key::kEntry];
  cur.workspaceBytes = num(f, key::kWorkspace, line);
  if (cur.name.empty() || cur.entry.empty()) bad(line, "function without name or entry");
  if (cur.workspaceBytes < 0 || cur.workspaceBytes > (int64_t(1) << 40))
    bad(line, "workspace of " + std::to_string(cur.workspaceBytes) + " bytes is out of range");
}

ManifestArg parseArg(const Manifest &m, Fields &f, int line) {
  ManifestArg a;
  a.output = f[key::kDir] == "out";
  a.role = f[key::kRole];
  const std::string &kind = f[key::kKind];
  auto k = std::find_if(std::begin(kArgKinds), std::end(kArgKinds), [&](const auto &p) { return kind == p.second; });
  if (k == std::end(kArgKinds)) bad(line, "unknown argument kind '" + kind + "'");
  a.kind = k->first;
  switch (a.kind) {
  case ManifestArg::Kind::Table: {
    auto t = abi::parseTableKind(f[key::kTable]);
    if (!t) bad(line, "unknown table kind '" + f[key::kTable] + "'");
    a.table = *t;
    a.basis = int(num(f, key::kBasis, line));
    a.param = num(f, key::kParam, line);
    break;
  }
  case ManifestArg::Kind::Constant:
    a.symbol = f[key::kSymbol];
    a.words = num(f, key::kWords, line);
    if (a.symbol.empty() || a.words < 1 || a.words > (int64_t(1) << 36)) bad(line, "constant without symbol or words");
    break;
  case ManifestArg::Kind::Workspace: break;
  case ManifestArg::Kind::Poly: a.logq = int(num(f, key::kLogq, line)); break;
  case ManifestArg::Kind::Rns:
    a.basis = int(num(f, key::kBasis, line));
    a.bits = int(num(f, key::kBits, line));
    if (a.bits != 32 && a.bits != 64)
      bad(line, "RNS residue words of " + std::to_string(a.bits) + " bits (expected 32 or 64)");
    break;
  }
  if (a.basis >= (int)m.bases.size()) bad(line, "basis index out of range");
  return a;
}

// One record of a function (ct, pt, arg) into `cur`.
void parseFunctionRecord(const Manifest &m, ManifestFunction *cur, const std::string &head, Fields &f, int line) {
  if (!cur) bad(line, "'" + head + "' outside a function");
  if (head == rec::kPlaintext) {
    long long slots = num(f, key::kSlots, line);
    if (slots < 1 || slots > (1ll << 20)) bad(line, "plaintext of " + std::to_string(slots) + " slots");
    cur->plaintexts.push_back(int(slots));
  } else if (head == rec::kCiphertext) {
    bool out = f[key::kDir] == "out";
    if (!out && f[key::kDir] != "in") bad(line, "dir must be in or out");
    ManifestCiphertext c{int(num(f, key::kLogq, line)), int(num(f, key::kLogp, line)), int(num(f, key::kSlots, line))};
    (out ? cur->outputs : cur->inputs).push_back(c);
  } else {
    cur->args.push_back(parseArg(m, f, line));
  }
}

// " key=value" fields in order.
struct Line {
  std::ostringstream os;
  explicit Line(const char *record) { os << record; }
  template <typename T> Line &operator()(const char *k, const T &v) {
    os << ' ' << k << '=' << v;
    return *this;
  }
  std::string str() const { return os.str() + "\n"; }
};

std::string join(const std::vector<std::string> &items) {
  std::string s;
  for (const std::string &x : items) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::string writeFunction(const ManifestFunction &fn) {
  if (fn.name.empty() || fn.entry.empty()) throw Error("a manifest function needs a name and an entry");
  std::string out = Line(rec::kFunc)(key::kName, fn.name)(key::kEntry, fn.entry)(key::kWorkspace, fn.workspaceBytes).str();
  for (bool output : {false, true})
    for (const ManifestCiphertext &c : output ? fn.outputs : fn.inputs)
      out += Line(rec::kCiphertext)(key::kDir, output ? "out" : "in")(key::kLogq, c.logq)(key::kLogp, c.logp)(
                 key::kSlots, c.slots)
                 .str();
  for (int slots : fn.plaintexts) out += Line(rec::kPlaintext)(key::kSlots, slots).str();
  for (const ManifestArg &a : fn.args) {
    Line l(rec::kArg);
    l(key::kKind, nameOf(kArgKinds, a.kind));
    const char *dir = a.output ? "out" : "in";
    switch (a.kind) {
    case ManifestArg::Kind::Workspace: break;
    case ManifestArg::Kind::Constant: l(key::kSymbol, a.symbol)(key::kWords, a.words); break;
    case ManifestArg::Kind::Table:
      l(key::kTable, abi::tableKindName(a.table))(key::kBasis, a.basis)(key::kParam, a.param);
      break;
    case ManifestArg::Kind::Poly: l(key::kDir, dir)(key::kLogq, a.logq)(key::kRole, a.role); break;
    case ManifestArg::Kind::Rns: l(key::kDir, dir)(key::kBasis, a.basis)(key::kBits, a.bits)(key::kRole, a.role); break;
    }
    out += l.str();
  }
  return out;
}

} // namespace

std::vector<uint64_t> ManifestFunction::galoisElements() const {
  std::vector<uint64_t> g;
  for (const auto &a : args)
    if (auto e = abi::rotationKeyGalois(a.role); e && (g.empty() || g.back() != *e)) g.push_back(*e);
  std::sort(g.begin(), g.end());
  g.erase(std::unique(g.begin(), g.end()), g.end());
  return g;
}

std::vector<int> ManifestFunction::encapsulationModuli() const {
  std::vector<int> q;
  for (const auto &a : args)
    if (auto e = abi::encapsulationKeyLogq(a.role)) q.push_back(*e);
  std::sort(q.begin(), q.end());
  q.erase(std::unique(q.begin(), q.end()), q.end());
  return q;
}

bool ManifestFunction::needsEvalKey() const {
  return std::any_of(args.begin(), args.end(), [](const ManifestArg &a) { return a.role == "evk.ax"; });
}

const ManifestFunction *Manifest::find(const std::string &name) const {
  for (const auto &f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

const ManifestFunction &Manifest::program(const std::string &name) const {
  if (!name.empty()) {
    if (const ManifestFunction *f = find(name)) return *f;
    throw Error("the module has no function '" + name + "'");
  }
  const ManifestFunction *only = nullptr;
  size_t count = 0;
  for (const ManifestFunction &f : functions)
    if (f.name.rfind("__fhec_", 0) != 0) only = &f, ++count;  // not a key preparation
  if (count != 1) throw Error("the module has " + std::to_string(count) + " functions; name one");
  return *only;
}

Params Manifest::params() const {
  Params p;
  p.logN = logN;
  p.logQ = logQ;
  p.logp = logp;
  p.dnum = dnum;
  p.secret = secret;
  p.h = h;
  return p;
}

Manifest parseManifest(const std::string &text) {
  Manifest m;
  std::istringstream all(text);
  std::string lineText;
  int line = 0;
  bool header = false;
  while (std::getline(all, lineText)) {
    ++line;
    std::istringstream is(lineText);
    std::string head;
    if (!(is >> head)) continue;
    if (!header) {
      int version = -1;
      if (head != rec::kHeader || !(is >> version)) bad(line, "missing 'fhec-manifest' header");
      if (version != int(abi::kAbiVersion))
        bad(line, "ABI version " + std::to_string(version) + ", runtime expects " + std::to_string(abi::kAbiVersion));
      header = true;
      continue;
    }
    Fields f = fields(is, line);
    if (head == rec::kTarget) {
      parseTarget(m, f, line);
    } else if (head == rec::kParams) {
      parseParams(m, f, line);
    } else if (head == rec::kClient) {
      m.clientSecretWeight = num(f, key::kSecretWeight, line);
      if (m.clientSecretWeight < 1) bad(line, "secret weight below 1");
    } else if (head == rec::kBasis) {
      parseBasis(m, f, line);
    } else if (head == rec::kFunc) {
      parseFunc(m, f, line);
    } else if (head == rec::kCiphertext || head == rec::kPlaintext || head == rec::kArg) {
      parseFunctionRecord(m, m.functions.empty() ? nullptr : &m.functions.back(), head, f, line);
    } else {
      bad(line, "unknown record '" + head + "'");
    }
  }
  if (!header) throw Error("malformed module manifest: empty");
  return m;
}

std::string writeManifest(const Manifest &m) {
  if (m.target.empty()) throw Error("a manifest needs a target name");
  std::string out = std::string(rec::kHeader) + " " + std::to_string(abi::kAbiVersion) + "\n";
  out += Line(rec::kTarget)(key::kName, m.target)(key::kKernels, nameOf(kKernelPlaces, m.kernels))(
             key::kShoupBits, m.shoupBits)(key::kFeatures, join(m.cpuFeatures))
             .str();
  Line params(rec::kParams);
  params(key::kLogN, m.logN)(key::kLogQ, m.logQ)(key::kLogp, m.logp);
  if (m.dnum != 1) params(key::kDnum, m.dnum);
  if (m.secret == SecretKind::Sparse) params(key::kSecret, secretKindName(m.secret))(key::kH, m.h);
  out += params.str();
  if (m.clientSecretWeight > 0) out += Line(rec::kClient)(key::kSecretWeight, m.clientSecretWeight).str();
  for (size_t i = 0; i < m.bases.size(); ++i) {
    std::vector<std::string> primes;
    for (uint64_t p : m.bases[i]) primes.push_back(std::to_string(p));
    out += Line(rec::kBasis)(key::kId, i)(key::kPrimes, join(primes)).str();
  }
  for (const ManifestFunction &fn : m.functions) out += writeFunction(fn);
  return out;
}

} // namespace fhec::rt
