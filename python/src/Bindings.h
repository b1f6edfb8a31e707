// What the files of the fhec._fhec extension share: conversions between
// Python values and fhec's (slot vectors, source locations, ciphertext
// shapes, fhec.ray's wire tuples) and each file's bind functions.
#pragma once

#include "frontend/Program.h"
#include "frontend/ProgramBuilder.h"

#include "fhec/runtime/Ciphertext.h"
#include "fhec/runtime/Encoding.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Params.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <complex>
#include <vector>

namespace fhec::python {

namespace py = pybind11;

/// (file, line, column) from Python; py::value_error for another shape.
SourceLocation location(const py::tuple &t);
/// A 1-D NumPy array of complex slot values; py::value_error otherwise.
std::vector<rt::Complex> toComplex(const py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast> &a);
py::array_t<std::complex<double>> toArray(const std::vector<rt::Complex> &v);
/// A ciphertext shape as the tuple (logq, logp, slots), and back.
py::tuple shapeTuple(const CiphertextShape &s);
CiphertextShape shapeFrom(const py::tuple &t);
/// fhec.ray's transport of a ciphertext: (logq, logp, slots, key set lo,
/// key set hi, ax words, bx words), the words as read-only NumPy uint64
/// views of the polynomials that `base` keeps alive.
py::tuple wireOf(const rt::Ciphertext &c, const py::object &base);
/// A view of a wire tuple's ciphertext (its words stay in the tuple's
/// arrays), checked as deserializeCiphertext checks a file's (modulus,
/// shape and, if `checkReduced`, reduced coefficients). Throws rt::Error.
rt::CiphertextView wireView(const py::tuple &t, const rt::Params &p, bool checkReduced = true);
/// The ciphertext of a wire tuple (a copy of its words), checked as wireView.
rt::Ciphertext fromWire(const py::tuple &t, const rt::Params &p);

// ProgramBindings.cpp.
void bindProgram(py::module_ &m);
void bindExecutors(py::module_ &m);
void bindProgramBuilder(py::module_ &m);

} // namespace fhec::python
