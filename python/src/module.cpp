// numagraph._core: the nanobind module. C++ errors become Python exceptions
// (numagraph.Error and subclasses that also derive from the matching
// built-in), Cancelled becomes KeyboardInterrupt.
#include <new>

#include "common.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::py {
namespace {

struct PyErrors {
  PyObject* base = nullptr;
  PyObject* usage = nullptr;
  PyObject* input = nullptr;
  PyObject* io = nullptr;
  PyObject* verify = nullptr;
  PyObject* resource = nullptr;
};
PyErrors errors;

// A new exception class numagraph.<name> deriving from `bases` (a tuple).
PyObject* new_error(nb::module_& m, const char* name, nb::tuple bases, const char* doc) {
  const std::string qualified = std::string("numagraph.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (!type) throw nb::python_error();
  m.attr(name) = nb::handle(type);
  return type;
}

void define_errors(nb::module_& m) {
  errors.base = new_error(m, "Error", nb::make_tuple(nb::handle(PyExc_Exception)),
                          "Base class of every numagraph error.");
  nb::handle base(errors.base);
  errors.usage = new_error(m, "UsageError", nb::make_tuple(base, nb::handle(PyExc_ValueError)),
                           "An argument that makes no sense (bad vertex id, negative delta...).");
  errors.input = new_error(m, "InputError", nb::make_tuple(base, nb::handle(PyExc_ValueError)),
                           "Malformed or inconsistent input data (file:line: what).");
  errors.io = new_error(m, "IoError", nb::make_tuple(base, nb::handle(PyExc_OSError)),
                        "A file could not be opened, read or written.");
  errors.verify = new_error(m, "VerifyError", nb::make_tuple(base), "A verifier rejected a kernel result.");
  errors.resource = new_error(m, "ResourceError", nb::make_tuple(base, nb::handle(PyExc_MemoryError)),
                              "Out of memory, threads or another system resource.");
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Cancelled&) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    } catch (const UsageError& e) {
      PyErr_SetString(errors.usage, python_voice(e.what()).c_str());
    } catch (const InputError& e) {
      PyErr_SetString(errors.input, python_voice(e.what()).c_str());
    } catch (const IoError& e) {
      PyErr_SetString(errors.io, python_voice(e.what()).c_str());
    } catch (const VerifyError& e) {
      PyErr_SetString(errors.verify, python_voice(e.what()).c_str());
    } catch (const ResourceError& e) {
      PyErr_SetString(errors.resource, python_voice(e.what()).c_str());
    } catch (const Error& e) {
      PyErr_SetString(errors.base, python_voice(e.what()).c_str());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(errors.resource, "out of memory: use a smaller graph or a machine with more memory");
    }
  });
}

}  // namespace
}  // namespace numagraph::py

NB_MODULE(_core, m) {
  using namespace numagraph::py;
  m.doc() = "numagraph C++ core (use the `numagraph` package, not this module directly)";
  define_errors(m);
  bind_graph(m);
  bind_kernels(m);
  bind_runtime(m);
  bind_profile(m);
  bind_progress(m);
  bind_eigen(m);
  bind_closeness(m);
  bind_community(m);
  bind_paths(m);
}
