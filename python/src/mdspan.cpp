// Bindings for ndarray.mdspan (CuPy 14): an array as a cuda::std::mdspan kernel argument.
#include "mdspan.h"

#include <pybind11/stl.h>

#include "cuarray/array.h"
#include "cuarray/error.h"
#include "cuarray/jit/mdspan.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

struct MdspanArg {
  jit::Mdspan m;
  py::object array;  // the array described, kept alive (Note [mdspan arguments]); None for _mdspan_of's
};

// index_type as CuPy reads it: numpy.int32 or numpy.int64 (or what equals them, their dtypes), else ValueError.
int index_size(py::handle index_type) {
  py::object np = py::module_::import("numpy");
  if (!py::make_tuple(np.attr("int32"), np.attr("int64")).contains(index_type))
    throw ValueError("Unsupported index_type: " + py::str(index_type).cast<std::string>() +
                     ". Must be cuarray.int32 or cuarray.int64.");
  return np.attr("dtype")(index_type).attr("itemsize").cast<int>();
}

const char* kMdspanDoc = R"(An mdspan of the array, for a RawKernel or RawModule kernel's parameter
``cuda::std::mdspan<T, cuda::std::extents<I, cuda::std::dynamic_extent, ...>, Layout>`` (``#include
<cuda/std/mdspan>``), as CuPy's.

index_type (cuarray.int32 or cuarray.int64) is I; with int32 the array's size, extents, strides and element
offsets must fit it (else ValueError). Every extent must be dynamic. Layout may be layout_stride (any array),
layout_right (a C-contiguous array) or layout_left (an F-contiguous one); a layout that cannot address the array
is a TypeError at the launch. allow_unsafe=True allows dimensions of size zero and zero or negative strides
(broadcast and reversed views), which are RuntimeErrors otherwise. The mdspan keeps the array alive; it is not
an ElementwiseKernel argument.)";

}  // namespace

bool is_mdspan(py::handle a) {
  static PyTypeObject* type = reinterpret_cast<PyTypeObject*>(py::type::of<MdspanArg>().ptr());
  return PyObject_TypeCheck(a.ptr(), type);
}

jit::KernelArg mdspan_kernel_arg(py::handle a) {
  const auto& s = a.cast<const MdspanArg&>();
  if (!s.array.is_none()) check_same_device(s.array.cast<const NdArray&>().array, "RawKernel");
  jit::KernelArg arg{jit::KernelArg::Kind::Other, s.m.bytes, jit::mdspan_description(s.m)};
  arg.prefix_size = s.m.prefix_size;
  if (!s.m.contiguous)
    arg.prefix_refusal = "the parameter is " + std::to_string(s.m.prefix_size) +
                         " bytes, a layout_right or layout_left mdspan of rank " + std::to_string(s.m.ndim) +
                         ", which cannot address an array that is neither C- nor F-contiguous; declare it "
                         "cuda::std::layout_stride, or pass a contiguous copy";
  return arg;
}

void init_mdspan(py::module_& m) {
  py::class_<MdspanArg>(m, "mdspan", "An array as a cuda::std::mdspan kernel argument (ndarray.mdspan).")
      .def_property_readonly("ndim", [](const MdspanArg& s) { return s.m.ndim; })
      .def_property_readonly("index_size", [](const MdspanArg& s) { return s.m.index_size; })
      .def("__repr__", [](const MdspanArg& s) { return "<" + jit::mdspan_description(s.m) + ">"; });

  // An mdspan of no array, for tests of the checks and the packing without a device.
  m.def(
      "_mdspan_of",
      [](std::uintptr_t data, int itemsize, const Shape& shape, const Strides& strides, py::handle index_type,
         bool allow_unsafe) {
        return MdspanArg{jit::make_mdspan(data, itemsize, shape, strides, index_size(index_type), allow_unsafe),
                         py::none()};
      },
      "data"_a, "itemsize"_a, "shape"_a, "strides"_a, "index_type"_a, "allow_unsafe"_a = false);
  m.def("_mdspan_bytes", [](py::handle a) { return py::bytes(a.cast<const MdspanArg&>().m.bytes); });

  py::object nd = py::reinterpret_borrow<py::object>(ndarray_type());
  add_ndarray_member(
      "mdspan",
      py::cpp_function(
          [](py::handle self, py::handle index_type, py::handle allow_unsafe) {
            const Array& a = self.cast<const NdArray&>().array;
            const int size = index_size(index_type);
            const bool unsafe = py::bool_(py::reinterpret_borrow<py::object>(allow_unsafe));
            return MdspanArg{jit::make_mdspan(reinterpret_cast<std::uintptr_t>(a.data()), a.itemsize(), a.shape(),
                                              a.strides(), size, unsafe),
                             py::reinterpret_borrow<py::object>(self)};
          },
          py::name("mdspan"), py::is_method(nd), py::kw_only(), "index_type"_a, "allow_unsafe"_a = false, kMdspanDoc));
}

}  // namespace cuarray::bind
