// The fhec._fhec bindings of programs: fhec.Program (parsing, compiling,
// the oracles), the executors of a program or of a compiled module's bytes
// (fhec.ray's workers), and fhec.ProgramBuilder (the tracer's back end).
#include "python/src/Bindings.h"

#include "fhec/runtime/DeviceCiphertext.h"
#include "fhec/runtime/Keys.h"
#include "fhec/runtime/Module.h"

#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <chrono>
#include <thread>

namespace fhec::python {

namespace {

// A compiled module loaded from its bytes with one key set's keys prepared:
// what a worker process runs (fhec.ray), without the program's source.
struct ModuleRunner {
  std::unique_ptr<rt::CompiledModule> module;  // outlives exec, which refers to it
  std::unique_ptr<rt::Executor> exec;
  std::string function;
  rt::Params params;
  double lastRunSeconds = 0;

  std::vector<rt::Ciphertext> run(const std::vector<rt::CiphertextView> &inputs, unsigned threads,
                                  const std::vector<std::vector<rt::Complex>> &plaintexts) {
    module->setThreads(int(threads ? threads : std::max(1u, std::thread::hardware_concurrency())));
    auto t0 = std::chrono::steady_clock::now();
    std::vector<rt::Ciphertext> out;
    exec->run(function, inputs, out, plaintexts);
    lastRunSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  }
};

const char *placeName(rt::KernelPlace p) {
  switch (p) {
  case rt::KernelPlace::Cuda: return "cuda";
  case rt::KernelPlace::Emulated: return "cuda-emu";
  case rt::KernelPlace::Host: break;
  }
  return "host";
}

rt::KernelPlace placeNamed(const std::string &name) {
  if (name == "cuda") return rt::KernelPlace::Cuda;
  if (name == "cuda-emu") return rt::KernelPlace::Emulated;
  throw rt::Error("no device is called '" + name + "' (expected 'cuda' or 'cuda-emu')");
}

py::dict transfersDict(const rt::Transfers &t) {
  py::dict d;
  d["to_device"] = t.toDevice;
  d["to_host"] = t.toHost;
  return d;
}

} // namespace

// fhec.Program: a parsed and compiled ckks program.
void bindProgram(py::module_ &m) {
  py::class_<Program>(m, "Program", "A ckks program: its source, its compiled module and its oracles")
      .def_static("parse", &Program::parse, py::arg("text"), py::arg("name") = "<program>")
      .def_property_readonly("params", &Program::params)
      .def_property_readonly("function_name", &Program::functionName)
      .def_property_readonly("input_shapes",
                             [](const Program &p) {
                               py::list l;
                               for (const auto &s : p.inputShapes()) l.append(shapeTuple(s));
                               return l;
                             })
      .def_property_readonly("output_shapes",
                             [](const Program &p) {
                               py::list l;
                               for (const auto &s : p.outputShapes()) l.append(shapeTuple(s));
                               return l;
                             })
      .def_property_readonly("galois_elements", &Program::galoisElements)
      .def_property_readonly("encapsulation_moduli", &Program::encapsulationModuli)
      .def_property_readonly("security", &Program::security)
      .def_property_readonly("compiled", &Program::compiled)
      .def("mlir", &Program::mlir, py::arg("locations") = false)
      .def(
          "lower",
          [](const Program &p, const std::string &stage, const std::string &target, unsigned optLevel) {
            CompileOptions o;
            o.target = target;
            o.optLevel = optLevel;
            std::string error;
            if (failed(resolveOptions(o, error))) throw ProgramError(ProgramError::Kind::Parameter, error);
            Stage s = stage == "fhe" ? Stage::FHE : stage == "mlir" ? Stage::Loops : Stage::LLVMDialect;
            if (stage != "fhe" && stage != "mlir")
              throw ProgramError(ProgramError::Kind::Parameter, "stage must be 'fhe' or 'mlir'");
            py::gil_scoped_release nogil;
            return p.lower(o, s);
          },
          py::arg("stage") = "fhe", py::arg("target") = "cpu", py::arg("opt_level") = 2)
      .def(
          "compile",
          [](Program &p, const std::string &target, unsigned optLevel, const std::vector<std::string> &disabled,
             bool allowInsecure) {
            CompileOptions o;
            o.target = target;
            o.optLevel = optLevel;
            o.disabledPasses = disabled;
            py::gil_scoped_release nogil;
            p.compile(o, allowInsecure);
          },
          py::arg("target") = "auto", py::arg("opt_level") = 2, py::arg("disabled_passes") = std::vector<std::string>{},
          py::arg("allow_insecure") = false)
      .def_property_readonly("target", [](const Program &p) { return p.module().manifest().target; })
      .def(
          "library_bytes", [](const Program &p) { return py::bytes(p.libraryBytes()); },
          "The compiled shared library (what ModuleRunner loads in another process)")
      .def(
          "reference",
          [](const Program &p, const std::vector<rt::Ciphertext> &inputs, const rt::KeySet &keys,
             const std::vector<py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast>> &plains) {
            std::vector<std::vector<rt::Complex>> pt;
            for (const auto &a : plains) pt.push_back(toComplex(a));
            py::gil_scoped_release nogil;
            return p.reference(inputs, keys, pt);
          },
          py::arg("inputs"), py::arg("keys"), py::arg("plaintexts") = std::vector<py::array_t<std::complex<double>>>{},
          "The GMP reference on the inputs (bit-exact oracle)")
      .def(
          "plain",
          [](const Program &p, const std::vector<py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast>> &inputs,
             const std::vector<py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast>> &plains) {
            std::vector<std::vector<rt::Complex>> in, pt;
            for (const auto &a : inputs) in.push_back(toComplex(a));
            for (const auto &a : plains) pt.push_back(toComplex(a));
            std::vector<py::array_t<std::complex<double>>> out;
            for (const auto &v : p.plain(in, pt)) out.push_back(toArray(v));
            return out;
          },
          py::arg("inputs"), py::arg("plaintexts") = std::vector<py::array_t<std::complex<double>>>{},
          "The computation on plaintext slot vectors (the ciphertext arguments' and the plaintext arguments')");
}

// Executors: a program or a compiled module with one key set prepared.
void bindExecutors(py::module_ &m) {
  py::class_<ProgramExecutor>(m, "Executor", "A compiled program with one key set's keys prepared")
      .def(py::init([](const Program &p, const rt::KeySet &k) {
             py::gil_scoped_release nogil;
             return std::make_unique<ProgramExecutor>(p, k);
           }),
           py::arg("program"), py::arg("keys"), py::keep_alive<1, 2>())
      .def(
          "run",
          [](ProgramExecutor &e, const std::vector<rt::Ciphertext> &inputs, unsigned threads,
             const std::vector<py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast>> &plains) {
            std::vector<std::vector<rt::Complex>> pt;
            for (const auto &a : plains) pt.push_back(toComplex(a));
            py::gil_scoped_release nogil;
            return e.run(inputs, threads, pt);
          },
          py::arg("inputs"), py::arg("threads") = 0,
          py::arg("plaintexts") = std::vector<py::array_t<std::complex<double>>>{})
      .def_property_readonly("last_run_seconds", &ProgramExecutor::lastRunSeconds,
                             "wall time of the last run inside the runtime (s)")
      .def(
          "run_on_device",
          [](ProgramExecutor &e, const std::vector<py::object> &inputs, unsigned threads,
             const std::vector<py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast>> &plains) {
            std::vector<ProgramExecutor::DeviceInput> in;
            for (const py::object &o : inputs) {
              if (py::isinstance<rt::DeviceCiphertext>(o))
                in.push_back({nullptr, &o.cast<const rt::DeviceCiphertext &>()});
              else
                in.push_back({&o.cast<const rt::Ciphertext &>(), nullptr});
            }
            std::vector<std::vector<rt::Complex>> pt;
            for (const auto &a : plains) pt.push_back(toComplex(a));
            py::gil_scoped_release nogil;
            return e.runOnDevice(in, threads, pt);
          },
          py::arg("inputs"), py::arg("threads") = 0,
          py::arg("plaintexts") = std::vector<py::array_t<std::complex<double>>>{},
          "Runs the program on the device (GPU targets) on Ciphertexts or DeviceCiphertexts (those on the host are "
          "copied there); returns DeviceCiphertexts")
      .def_property_readonly(
          "device", [](const ProgramExecutor &e) -> py::object {
            if (e.place() == rt::KernelPlace::Host) return py::none();
            return py::str(placeName(e.place()));
          },
          "the device its kernels run on ('cuda', 'cuda-emu'), or None (a CPU target)")
      .def_property_readonly(
          "last_run_bytes", [](const ProgramExecutor &e) { return transfersDict(e.lastRunTransfers()); },
          "bytes the last run copied between host and device: {'to_device': n, 'to_host': n}");

  py::class_<rt::DeviceCiphertext>(m, "DeviceCiphertext",
                                   "A CKKS ciphertext in a GPU target's device memory (what cuda functions return)")
      .def_static(
          "upload",
          [](const rt::Ciphertext &c, const std::string &device) {
            rt::KernelPlace place = placeNamed(device);
            py::gil_scoped_release nogil;
            return rt::DeviceCiphertext::upload(c, place);
          },
          py::arg("ciphertext"), py::arg("device"), "A copy on the device ('cuda' or 'cuda-emu')")
      .def(
          "download",
          [](const rt::DeviceCiphertext &d) {
            py::gil_scoped_release nogil;
            return d.download();
          },
          "Its copy in host memory (a Ciphertext)")
      .def_property_readonly("device", [](const rt::DeviceCiphertext &d) { return placeName(d.place()); })
      .def_property_readonly("logN", &rt::DeviceCiphertext::logN)
      .def_property_readonly("logq", &rt::DeviceCiphertext::logq)
      .def_property_readonly("logp", &rt::DeviceCiphertext::logp)
      .def_property_readonly("slots", &rt::DeviceCiphertext::slots)
      .def_property_readonly("nbytes", &rt::DeviceCiphertext::bytes, "bytes of its two polynomials")
      .def_property_readonly("key_set", [](const rt::DeviceCiphertext &c) { return c.keySet.str(); });

  m.def(
      "device_transfers", [] { return transfersDict(rt::processTransfers()); },
      "Bytes this process has copied between the host and its devices so far: {'to_device': n, 'to_host': n}");

  py::class_<ModuleRunner>(m, "ModuleRunner",
                           "A compiled module loaded from its bytes (Program.library_bytes) with one key set's "
                           "evaluation and rotation keys prepared: a worker's side of fhec.ray")
      .def(py::init([](const py::bytes &library, const rt::KeySet &keys) {
             std::string bytes(library);
             py::gil_scoped_release nogil;
             auto r = std::make_unique<ModuleRunner>();
             r->module = rt::CompiledModule::loadBytes(bytes);
             r->params = keys.params;
             r->exec = std::make_unique<rt::Executor>(*r->module, keys.params);
             const rt::ManifestFunction &f = r->module->manifest().program();
             r->function = f.name;
             r->exec->setKeysFor(f, keys);
             return r;
           }),
           py::arg("library"), py::arg("keys"))
      .def_property_readonly("function_name", [](const ModuleRunner &r) { return r.function; })
      .def_property_readonly("target", [](const ModuleRunner &r) { return r.module->manifest().target; })
      .def(
          "run_wire",
          [](ModuleRunner &r, const std::vector<py::tuple> &inputs, unsigned threads,
             const std::vector<py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast>> &plains) {
            std::vector<rt::CiphertextView> cts;  // read in place: `inputs` keeps their arrays alive
            for (const auto &t : inputs) cts.push_back(wireView(t, r.params));
            std::vector<std::vector<rt::Complex>> pt;
            for (const auto &a : plains) pt.push_back(toComplex(a));
            std::vector<rt::Ciphertext> out;
            {
              py::gil_scoped_release nogil;
              out = r.run(cts, threads, pt);
            }
            py::list result;
            for (auto &c : out) {
              auto *owned = new rt::Ciphertext(std::move(c));
              result.append(wireOf(*owned, py::capsule(owned, [](void *p) { delete static_cast<rt::Ciphertext *>(p); })));
            }
            return result;
          },
          py::arg("inputs"), py::arg("threads") = 0,
          py::arg("plaintexts") = std::vector<py::array_t<std::complex<double>>>{},
          "Runs the module's function on ciphertexts in their wire form (Ciphertext.wire), read in place (no copy), "
          "and returns its outputs in the same form; raises FhecError for an input that is malformed or of another "
          "key set")
      .def_property_readonly("last_run_seconds", [](const ModuleRunner &r) { return r.lastRunSeconds; },
                             "wall time of the last run inside the runtime, without (de)serialization (s)");
}

// fhec.ProgramBuilder: the tracer's back end.
void bindProgramBuilder(py::module_ &m) {
  py::class_<ProgramBuilder>(m, "ProgramBuilder", "Builds a managed ckks program op by op (the tracer's back end)")
      .def(py::init([](const rt::Params &p, const std::string &security, const std::string &keySwitch,
                       const std::string &name, const std::vector<py::tuple> &inputs, const py::tuple &loc) {
             std::vector<CiphertextShape> shapes;
             for (const auto &t : inputs) shapes.push_back(shapeFrom(t));
             return std::make_unique<ProgramBuilder>(p, security, keySwitch, name, shapes, location(loc));
           }),
           py::arg("params"), py::arg("security"), py::arg("keyswitch"), py::arg("name"), py::arg("inputs"),
           py::arg("loc"))
      .def("input", &ProgramBuilder::input)
      .def("shape", [](const ProgramBuilder &b, size_t v) { return shapeTuple(b.shape(v)); })
      .def("add", [](ProgramBuilder &b, size_t x, size_t y, const py::tuple &l) { return b.add(x, y, location(l)); })
      .def("sub", [](ProgramBuilder &b, size_t x, size_t y, const py::tuple &l) { return b.sub(x, y, location(l)); })
      .def("mul", [](ProgramBuilder &b, size_t x, size_t y, const py::tuple &l) { return b.mul(x, y, location(l)); })
      .def("negate", [](ProgramBuilder &b, size_t x, const py::tuple &l) { return b.negate(x, location(l)); })
      .def("mul_const", [](ProgramBuilder &b, size_t x, double c, const py::tuple &l) { return b.mulConst(x, c, location(l)); })
      .def("add_const", [](ProgramBuilder &b, size_t x, double c, const py::tuple &l) { return b.addConst(x, c, location(l)); })
      .def("mul_plain",
           [](ProgramBuilder &b, size_t x, const py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast> &v,
              const py::tuple &l) { return b.mulPlain(x, toComplex(v), location(l)); })
      .def("add_plain",
           [](ProgramBuilder &b, size_t x, const py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast> &v,
              const py::tuple &l) { return b.addPlain(x, toComplex(v), location(l)); })
      .def("mul_plain_arg", [](ProgramBuilder &b, size_t x, size_t pt, const py::tuple &l) {
        return b.mulPlainArg(x, pt, location(l));
      })
      .def("add_plain_arg", [](ProgramBuilder &b, size_t x, size_t pt, bool negate, const py::tuple &l) {
        return b.addPlainArg(x, pt, negate, location(l));
      })
      .def("rotate", [](ProgramBuilder &b, size_t x, const std::vector<int64_t> &offsets, const py::tuple &l) {
        return b.rotate(x, offsets, location(l));
      })
      .def("conjugate", [](ProgramBuilder &b, size_t x, const py::tuple &l) { return b.conjugate(x, location(l)); })
      .def("mul_monomial",
           [](ProgramBuilder &b, size_t x, int64_t k, const py::tuple &l) { return b.mulMonomial(x, k, location(l)); })
      .def("linear_transform",
           [](ProgramBuilder &b, size_t x, const std::vector<int64_t> &offsets,
              const py::array_t<std::complex<double>, py::array::c_style | py::array::forcecast> &diagonals,
              const py::tuple &l) {
             if (diagonals.ndim() != 2)
               throw ProgramError(ProgramError::Kind::Parameter, "diagonals must be a 2-D array (one row per offset)");
             std::vector<std::vector<std::complex<double>>> rows(size_t(diagonals.shape(0)));
             auto r = diagonals.unchecked<2>();
             for (size_t i = 0; i < rows.size(); ++i)
               for (py::ssize_t j = 0; j < diagonals.shape(1); ++j) rows[i].push_back(r(py::ssize_t(i), j));
             return b.linearTransform(x, offsets, rows, location(l));
           })
      .def("bootstrap",
           [](ProgramBuilder &b, size_t x, unsigned modLogq, unsigned logScale, const std::vector<unsigned> &budget,
              const py::tuple &l) { return b.bootstrap(x, modLogq, logScale, budget, location(l));
           })
      .def("auto_bootstrap", &ProgramBuilder::autoBootstrap)
      .def("poly_eval", [](ProgramBuilder &b, size_t x, const std::vector<double> &c, const std::string &basis,
                           double lo, double hi, const py::tuple &l) {
        return b.polyEval(x, c, basis, lo, hi, location(l));
      })
      .def("finish", [](ProgramBuilder &b, const std::vector<size_t> &results, const py::tuple &l) {
        return b.finish(results, location(l));
      });
}

} // namespace fhec::python
