// Bindings for DLPack and __cuda_array_interface__: PyCapsules out and in, and other libraries' device
// memory seen as cuarray arrays. The protocols' Python side (arguments, dictionaries) is cuarray/_interop.py.
#include "cuarray/interop.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <type_traits>

#include "convert.h"
#include "cuarray/error.h"
#include "gil.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

template <class Managed>
constexpr bool kVersioned = std::is_same_v<Managed, DLManagedTensorVersioned>;
template <class Managed>
const char* capsule_name() {
  return kVersioned<Managed> ? "dltensor_versioned" : "dltensor";
}
template <class Managed>
const char* used_name() {
  return kVersioned<Managed> ? "used_dltensor_versioned" : "used_dltensor";
}

// A capsule nobody consumed still owns its tensor; a consumer renames it "used_..." and calls the deleter itself.
template <class Managed>
void destroy_capsule(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, capsule_name<Managed>())) return;
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule, capsule_name<Managed>()));
  if (m->deleter) m->deleter(m);
}

template <class Managed>
py::object make_capsule(Managed* m) {
  PyObject* capsule = PyCapsule_New(m, capsule_name<Managed>(), &destroy_capsule<Managed>);
  if (!capsule) {
    m->deleter(m);
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::object>(capsule);
}

// Runs `f` holding the GIL without disturbing a pending Python error. Memory views can die on any thread;
// once the interpreter is going, leaking is the only safe choice (and a thread it ends here cannot unwind:
// Note [Exit while waiting] in gil.h).
template <class F>
void with_gil(F f) noexcept {
  if (!Py_IsInitialized() || finalizing() || g_thread_ending) return;
  try {
    AcquireGil gil;
    py::error_scope keep;
    f();
  } catch (abi::__forced_unwind&) {
    park_thread();
  }
}

// Release callback that drops one reference to `owner`: exactly once, whether the callback runs or is
// discarded because the import failed.
std::function<void()> reference_to(py::handle owner) {
  std::shared_ptr<PyObject> ref(owner.inc_ref().ptr(), [](PyObject* o) { with_gil([o] { Py_DECREF(o); }); });
  return [ref]() mutable { ref.reset(); };
}

// The tensor of an unconsumed capsule of a `Managed`, or null.
template <class Managed>
const DLTensor* tensor_of(py::handle capsule) {
  if (!PyCapsule_IsValid(capsule.ptr(), capsule_name<Managed>())) return nullptr;
  return &static_cast<Managed*>(PyCapsule_GetPointer(capsule.ptr(), capsule_name<Managed>()))->dl_tensor;
}

// Note [Imported arrays own their memory]
// An array imported through DLPack or __cuda_array_interface__ has no base, as CuPy's: what keeps the producer's
// memory alive is its Buffer's release (the capsule's deleter, or a reference to the interface's owner), so the
// array owns its memory as an allocation of its own does. Its `base` is None, `flags.owndata` True, and the base
// of a view of it is the imported array, never the producer's object (CuPy 14 gives the same for each).
template <class Managed>
NdArray import_capsule(py::handle capsule) {
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule.ptr(), capsule_name<Managed>()));
  if (!m) throw py::error_already_set();
  if constexpr (kVersioned<Managed>) {
    if (m->version.major > 1)
      throw BufferError("the DLPack tensor has version " + std::to_string(m->version.major) + "." +
                        std::to_string(m->version.minor) + "; cuarray reads DLPack 1.x");
  }
  // If from_dlpack throws, the capsule stays unconsumed and its own destructor frees the tensor.
  Array a = interop::from_dlpack(m->dl_tensor, [m] {
    with_gil([m] {
      if (m->deleter) m->deleter(m);
    });
  });
  PyCapsule_SetName(capsule.ptr(), used_name<Managed>());
  return NdArray{std::move(a), py::none()};  // Note [Imported arrays own their memory]
}

}  // namespace

void init_interop(py::module_& m) {
  m.def(
      "_to_dlpack",
      [](const NdArray& a, std::int64_t stream, bool versioned, bool copied) {
        py::object capsule = versioned ? make_capsule(interop::to_dlpack_versioned(a.array, copied))
                                       : make_capsule(interop::to_dlpack(a.array));
        interop::hand_off(a.array.device(), stream);
        return capsule;
      },
      "a"_a, "stream"_a, "versioned"_a, "copied"_a);
  m.def(
      "_dlpack_device_type", [](const NdArray& a) { return interop::dlpack_device_type(a.array); }, "a"_a);
  // The (device type, device id) a DLPack capsule names, without consuming it; None for an object that is not
  // an unconsumed DLPack capsule.
  m.def("_dlpack_capsule_device", [](py::handle capsule) -> py::object {
    const DLTensor* t = tensor_of<DLManagedTensorVersioned>(capsule);
    if (!t) t = tensor_of<DLManagedTensor>(capsule);
    if (!t) return py::none();
    return py::make_tuple(t->device.device_type, t->device.device_id);
  });
  m.def(
      "_from_dlpack",
      [](py::handle capsule) {
        if (PyCapsule_IsValid(capsule.ptr(), capsule_name<DLManagedTensorVersioned>()))
          return import_capsule<DLManagedTensorVersioned>(capsule);
        if (PyCapsule_IsValid(capsule.ptr(), capsule_name<DLManagedTensor>()))
          return import_capsule<DLManagedTensor>(capsule);
        // A consumer renames the capsule it took ('used_dltensor'): CuPy's ValueError for a second use.
        if (PyCapsule_IsValid(capsule.ptr(), "used_dltensor") ||
            PyCapsule_IsValid(capsule.ptr(), "used_dltensor_versioned"))
          throw ValueError(
              "A DLPack tensor object cannot be consumed multiple times (a capsule can be consumed only once)");
        throw TypeError("expected a DLPack PyCapsule named 'dltensor' or 'dltensor_versioned', got " +
                        py::repr(capsule).cast<std::string>());
      },
      "capsule"_a);
  m.def(
      "_from_cuda_array",
      [](std::uintptr_t ptr, py::handle shape, py::handle strides, py::handle dtype, std::optional<std::int64_t> stream,
         bool wait_on_host, py::object owner) {
        std::optional<Strides> byte_strides;
        if (!strides.is_none()) byte_strides = to_shape(strides);
        ElementType et = to_element_type(dtype);
        Array a = interop::from_device_pointer(ptr, to_shape(shape), std::move(byte_strides), et.dtype, stream,
                                               wait_on_host, reference_to(owner), et.itemsize);
        if (is_void(et.dtype)) a = a.view_void(et.itemsize, et.descr);
        return NdArray{std::move(a), py::none()};  // Note [Imported arrays own their memory]
      },
      "ptr"_a, "shape"_a, "strides"_a, "dtype"_a, "stream"_a, "wait_on_host"_a, "owner"_a);
  // DLPack's type for a dtype, and back: the conversion tables, testable without a device.
  m.def("_dlpack_dtype", [](py::handle dtype) {
    DLDataType t = interop::to_dlpack_dtype(to_dtype(dtype));
    return py::make_tuple(t.code, t.bits, t.lanes);
  });
  m.def("_dtype_from_dlpack", [](std::uint8_t code, std::uint8_t bits, std::uint16_t lanes) {
    return to_numpy_dtype(interop::from_dlpack_dtype(DLDataType{code, bits, lanes}));
  });
}

}  // namespace cuarray::bind
