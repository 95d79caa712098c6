// Bindings for linear algebra: cuarray.matmul and the `@` operator (fast paths written against the C API),
// the vector dot product, and the cuSOLVER-based functions behind cuarray.linalg (module _core.linalg).
//
// Note [Matmul types]
// matmul's loop is NumPy's choice, as for ufuncs (Note [Type resolution] in ops/type_resolution.h): np.matmul's
// resolve_dtypes, asked once per (dtype, dtype, dtype=, casting) through the core's type resolution.
// Operands are cast to the loop's input type (bfloat16 computes in float32, as ml_dtypes registers it) and the
// product is computed in the loop's output type.
#include "cuarray/ops/linalg.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>

#include "convert.h"
#include "cuarray/error.h"
#include "cuarray/lib/cublas.h"
#include "cuarray/lib/cusolver.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/matmul.h"
#include "cuarray/ops/type_resolution.h"
#include "hooks.h"
#include "ndarray.h"
#include "operators.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

struct Loop {
  DType a, b, out;
};

py::object numpy() {
  static py::handle np = py::module_::import("numpy").release();  // never released (see convert.cpp)
  return py::reinterpret_borrow<py::object>(np);
}

// NumPy's loop for matmul on these dtypes (Note [Matmul types]).
Loop resolve(DType a, DType b, py::handle dtype, const std::string& casting) {
  const int codes[2] = {static_cast<int>(a), static_cast<int>(b)};
  const int dt = dtype.is_none() ? ops::kNoDType : static_cast<int>(to_dtype(dtype));
  ops::LoopTypes t =
      ops::resolve_loop(ops::kMatmulLoop, "matmul", 2, 1, codes, dt, ops::casting_from_name(casting.c_str()));
  return Loop{t.in[0], t.in[1], t.out[0]};
}

// The default loop, looked up without building a key: the hot path of `a @ b`.
Loop default_loop(DType a, DType b) {
  static Loop table[kNumDTypes][kNumDTypes];
  static bool known[kNumDTypes][kNumDTypes] = {};
  int i = static_cast<int>(a), j = static_cast<int>(b);
  if (!known[i][j]) {  // the GIL serialises first calls
    table[i][j] = resolve(a, b, py::none(), "same_kind");
    known[i][j] = true;
  }
  return table[i][j];
}

// An operand of matmul: a cuarray array. Scalars are 0-d (NumPy's ValueError); anything else is a TypeError.
const NdArray& operand(py::handle obj, int index) {
  if (is_ndarray(obj)) return obj.cast<const NdArray&>();
  static py::handle generic = py::object(numpy().attr("generic")).release();
  PyObject* p = obj.ptr();
  if (PyLong_Check(p) || PyFloat_Check(p) || PyComplex_Check(p) || PyObject_IsInstance(p, generic.ptr()) == 1)
    ops::matmul_shapes(index == 0 ? Shape{} : Shape{1}, index == 1 ? Shape{} : Shape{1}, nullptr);  // throws
  unsupported(obj, "matmul");
}

py::object matmul_call(py::handle a_obj, py::handle b_obj, py::handle out_obj, py::handle dtype,
                       const std::string& casting) {
  const NdArray& a = operand(a_obj, 0);
  const NdArray& b = operand(b_obj, 1);
  Loop loop = dtype.is_none() && casting == "same_kind" ? default_loop(a.array.dtype(), b.array.dtype())
                                                        : resolve(a.array.dtype(), b.array.dtype(), dtype, casting);
  const Array* out = nullptr;
  if (!out_obj.is_none()) {
    if (!is_ndarray(out_obj)) {
      if (py::isinstance<py::array>(out_obj)) unsupported(out_obj, "matmul");
      throw TypeError("return arrays must be of ArrayType");
    }
    out = &out_obj.cast<const NdArray&>().array;
    ops::check_output_cast("matmul", 1, loop.out, out->dtype(), ops::casting_from_name(casting.c_str()), 0);
  }
  if (a.array.dtype() == loop.out && b.array.dtype() == loop.out) {
    Array r = ops::matmul(a.array, b.array, out);
    return out ? py::reinterpret_borrow<py::object>(out_obj) : to_object(std::move(r));
  }
  // Check the shapes before casting anything, then compute in the loop's type.
  ops::matmul_shapes(a.array.shape(), b.array.shape(), out ? &out->shape() : nullptr);
  auto cast = [&](const Array& x) { return x.dtype() == loop.out ? x : ops::astype(x, loop.out); };
  Array r = ops::matmul(cast(a.array), cast(b.array), out);
  return out ? py::reinterpret_borrow<py::object>(out_obj) : to_object(std::move(r));
}

PyObject* matmul_slot(PyObject* a, PyObject* b) {
  if (!takes(a) || !takes(b)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] { return matmul_call(a, b, py::none(), py::none(), "same_kind"); });
}

py::object inplace_matmul(py::handle a, py::handle b) {
  const NdArray& x = operand(a, 0);
  if (x.array.ndim() < 1 || !is_ndarray(b) || b.cast<const NdArray&>().array.ndim() < 2)
    throw ValueError(
        "inplace matrix multiplication requires the first operand to have at least one and the second "
        "at least two dimensions.");
  return matmul_call(a, b, a, py::none(), "same_kind");
}

PyObject* inplace_matmul_slot(PyObject* a, PyObject* b) {
  if (!takes(b)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] { return inplace_matmul(a, b); });
}

void install_matmul(py::module_& m) {
  m.def(
      "matmul",
      [](py::handle a, py::handle b, py::handle out, py::handle dtype, const std::string& casting, py::handle order,
         py::handle subok, py::handle axes, py::handle axis) {
        if (!(order.is_none() || py::str(order).cast<std::string>() == "K") || subok.ptr() != Py_True)
          throw TypeError(
              "cuarray.matmul supports out=, dtype=, casting=, axes= and axis=; order= and subok= must keep "
              "their defaults");
        if (!axes.is_none() || !axis.is_none())  // NumPy's gufunc axes: transposes around this product
          return py::reinterpret_borrow<py::object>(hook(Hook::MatmulAxes))(a, b, out, dtype, casting, axes, axis);
        return matmul_call(a, b, out, dtype, casting);
      },
      "a"_a, "b"_a, py::pos_only(), "out"_a = py::none(), py::kw_only(), "dtype"_a = py::none(),
      "casting"_a = "same_kind", "order"_a = "K", "subok"_a = true, "axes"_a = py::none(), "axis"_a = py::none(),
      "NumPy's matmul: matrix products of the last two dimensions, broadcast over the others.");

  py::object nd = py::reinterpret_borrow<py::object>(ndarray_type());
  add_ndarray_member("__matmul__", py::cpp_function(
                                       [](py::handle a, py::handle b) {
                                         return matmul_call(a, b, py::none(), py::none(), "same_kind");
                                       },
                                       py::name("__matmul__"), py::is_method(nd)));
  add_ndarray_member("__rmatmul__", py::cpp_function(
                                        [](py::handle a, py::handle b) {
                                          return matmul_call(b, a, py::none(), py::none(), "same_kind");
                                        },
                                        py::name("__rmatmul__"), py::is_method(nd)));
  add_ndarray_member("__imatmul__", py::cpp_function(&inplace_matmul, py::name("__imatmul__"), py::is_method(nd)));
  auto* t = reinterpret_cast<PyHeapTypeObject*>(nd.ptr());
  t->as_number.nb_matrix_multiply = matmul_slot;
  t->as_number.nb_inplace_matrix_multiply = inplace_matmul_slot;
  PyType_Modified(&t->ht_type);
}

template <class F>
auto without_gil(F&& f) {
  ReleaseGil release;
  return f();
}

py::tuple wrap_all(std::vector<Array> arrays) {
  py::tuple t(arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i) t[i] = to_object(std::move(arrays[i]));
  return t;
}

}  // namespace

void init_linalg(py::module_& m) {
  install_matmul(m);
  py::module_ l = m.def_submodule("linalg", "cuBLAS and cuSOLVER: the core of cuarray's linear algebra");
  l.def(
      "matmul_shapes",
      [](py::handle a, py::handle b, py::handle out) {
        Shape out_shape = out.is_none() ? Shape{} : to_shape(out);
        ops::MatmulShapes s = ops::matmul_shapes(to_shape(a), to_shape(b), out.is_none() ? nullptr : &out_shape);
        return to_tuple(s.result);
      },
      "a"_a, "b"_a, "out"_a = py::none(), "The result shape of matmul, checked as NumPy checks it (no device).");
  l.def(
      "vector_dot",
      [](const NdArray& a, const NdArray& b, bool conjugate) {
        Array out(Shape{}, a.array.dtype());
        ops::vector_dot(a.array, b.array, conjugate, out);
        return NdArray{std::move(out), py::none()};
      },
      "a"_a, "b"_a, "conjugate"_a = false, "sum(a * b) (conj(a) with conjugate) of two 1-D arrays of one dtype.");
  l.def(
      "library_versions",
      [] { return py::dict("cublas"_a = lib::cublas::version(), "cusolver"_a = lib::cusolver::version()); },
      "Loads cuBLAS and cuSOLVER and resolves every function cuarray calls (no device needed).");
  l.def("tf32", &lib::cublas::tf32, "Whether float32 GEMMs use TF32 (their compute type, Note [TF32]).");
  l.def(
      "compute_type", [](py::handle dtype) { return static_cast<int>(lib::cublas::compute_type(to_dtype(dtype))); },
      "dtype"_a, "The GEMM compute type of results of this dtype's precision (Note [Compute types]).");
  l.def(
      "set_compute_type", [](py::handle dtype, int type) { lib::cublas::set_compute_type(to_dtype(dtype), type); },
      "dtype"_a, "compute_type"_a, "Sets the GEMM compute type of this dtype's precision (Note [Compute types]).");

  // cuSOLVER: stacks of float32/float64/complex64/complex128 matrices (cuarray.linalg converts and checks).
  // The GIL is released while they run: a large factorisation takes milliseconds.
  l.def("det", [](const NdArray& a) { return to_object(without_gil([&] { return ops::det(a.array); })); });
  l.def("slogdet", [](const NdArray& a) {
    auto [sign, logdet] = without_gil([&] { return ops::slogdet(a.array); });
    return wrap_all({sign, logdet});
  });
  l.def(
      "inv",
      [](const NdArray& a, bool check_now) {
        return to_object(without_gil([&] { return ops::inv(a.array, check_now); }));
      },
      "a"_a, "check_now"_a = false);
  l.def("solve", [](const NdArray& a, const NdArray& b) {
    return to_object(without_gil([&] { return ops::solve(a.array, b.array); }));
  });
  l.def(
      "cholesky",
      [](const NdArray& a, bool upper) {
        return to_object(without_gil([&] { return ops::cholesky(a.array, upper); }));
      },
      "a"_a, "upper"_a = false);
  l.def(
      "qr",
      [](const NdArray& a, const std::string& mode) {
        return wrap_all(without_gil([&] { return ops::qr(a.array, mode); }));
      },
      "a"_a, "mode"_a = "reduced");
  l.def(
      "eigh",
      [](const NdArray& a, const std::string& uplo, bool vectors) {
        if (uplo.size() != 1) throw ValueError("UPLO argument must be 'L' or 'U'");
        auto [w, v] = without_gil([&] { return ops::eigh(a.array, uplo[0], vectors); });
        return vectors ? wrap_all({w, v}) : wrap_all({w});
      },
      "a"_a, "uplo"_a = "L", "vectors"_a = true);
  l.def(
      "eig",
      [](const NdArray& a, bool vectors) {
        auto [w, v] = without_gil([&] { return ops::eig(a.array, vectors); });
        return vectors ? wrap_all({w, v}) : wrap_all({w});
      },
      "a"_a, "vectors"_a = true);
  l.def(
      "svd",
      [](const NdArray& a, bool full_matrices, bool compute_uv) {
        return wrap_all(without_gil([&] { return ops::svd(a.array, full_matrices, compute_uv); }));
      },
      "a"_a, "full_matrices"_a = true, "compute_uv"_a = true);
}

}  // namespace cuarray::bind
