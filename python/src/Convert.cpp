// Conversions between Python values and fhec's (Bindings.h).
#include "python/src/Bindings.h"

#include "fhec/runtime/Serialize.h"

namespace fhec::python {

// (file, line, column) from Python.
SourceLocation location(const py::tuple &t) {
  if (t.size() != 3) throw py::value_error("a source location is (file, line, column)");
  return {t[0].cast<std::string>(), t[1].cast<unsigned>(), t[2].cast<unsigned>()};
}

std::vector<rt::Complex> toComplex(const py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast> &a) {
  if (a.ndim() != 1) throw py::value_error("expected a 1-D array of slot values");
  return std::vector<rt::Complex>(a.data(), a.data() + a.size());
}

py::array_t<std::complex<double>> toArray(const std::vector<rt::Complex> &v) {
  py::array_t<std::complex<double>> a(py::ssize_t(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

py::tuple shapeTuple(const CiphertextShape &s) { return py::make_tuple(s.logq, s.logp, s.slots); }

CiphertextShape shapeFrom(const py::tuple &t) {
  if (t.size() != 3) throw py::value_error("a ciphertext shape is (logq, logp, slots)");
  return {t[0].cast<int>(), t[1].cast<int>(), t[2].cast<int>()};
}

// fhec.ray's transport of a ciphertext: (logq, logp, slots, key set lo, key
// set hi, ax words, bx words), the words as NumPy uint64 views of the
// polynomials (`base` keeps them alive): Ray ships such arrays out of band,
// so a ciphertext is copied once into its object store, where a worker's
// kernel reads it in place (wireView), and a result once out of it (fromWire).
py::tuple wireOf(const rt::Ciphertext &c, const py::object &base) {
  auto words = [&](const rt::BigPoly &p) {
    py::array_t<uint64_t> a({py::ssize_t(p.words.size())}, {py::ssize_t(sizeof(uint64_t))}, p.words.data(), base);
    a.attr("setflags")(py::arg("write") = false);  // a view of a ciphertext, which is immutable
    return a;
  };
  return py::make_tuple(c.logq(), c.logp, c.slots, c.keySet.lo, c.keySet.hi, words(c.ax), words(c.bx));
}

namespace {
rt::Error notReduced(const char *part, int logq) {
  return rt::Error(std::string("ciphertext ") + part + " is not reduced mod 2^" + std::to_string(logq));
}
} // namespace

// A view of a wire tuple's ciphertext (its words stay in the tuple's arrays),
// checked as deserializeCiphertext checks a file's (modulus, shape and, if
// `checkReduced`, reduced coefficients). Throws rt::Error.
rt::CiphertextView wireView(const py::tuple &t, const rt::Params &p, bool checkReduced) {
  if (t.size() != 7) throw rt::Error("not a ciphertext's wire tuple");
  rt::CiphertextView c;
  try {
    c.logq = t[0].cast<int>();
    c.logp = t[1].cast<int>();
    c.slots = t[2].cast<int>();
    c.keySet.lo = t[3].cast<uint64_t>();
    c.keySet.hi = t[4].cast<uint64_t>();
  } catch (const py::cast_error &) {
    throw rt::Error("a ciphertext's wire tuple must start with five integers");
  }
  if (c.logq < 1 || c.logq > p.logQ)
    throw rt::Error("ciphertext modulus 2^" + std::to_string(c.logq) + " is out of range for " + p.str());
  p.validateCiphertext(c.logq, c.logp, c.slots);
  c.logN = p.logN;
  auto words = [&](const py::handle &h, const char *name) {
    using Words = py::array_t<uint64_t, py::array::c_style>;
    if (!Words::check_(h)) throw rt::Error(std::string("ciphertext ") + name + " must be a contiguous uint64 array");
    auto a = py::reinterpret_borrow<Words>(h);
    if (size_t(a.size()) != rt::polyWords(p.logN, c.logq))
      throw rt::Error(std::string("ciphertext ") + name + " does not hold N * limbs(logq) words");
    if (checkReduced && !rt::wordsReduced(a.data(), p.logN, c.logq)) throw notReduced(name, c.logq);
    return a.data();
  };
  c.ax = words(t[5], "ax");
  c.bx = words(t[6], "bx");
  return c;
}

// The ciphertext of a wire tuple (a copy of its words), checked as wireView.
rt::Ciphertext fromWire(const py::tuple &t, const rt::Params &p) {
  rt::CiphertextView v = wireView(t, p, /*checkReduced=*/false);
  auto copy = [&](const uint64_t *words, const char *name) {
    rt::BigPoly out = rt::BigPoly::uninitialized(v.logN, v.logq);
    if (!rt::copyReducedWords(out.words.data(), words, v.logN, v.logq)) throw notReduced(name, v.logq);
    return out;
  };
  return rt::Ciphertext(copy(v.ax, "ax"), copy(v.bx, "bx"), v.logp, v.slots, v.keySet);
}

} // namespace fhec::python
