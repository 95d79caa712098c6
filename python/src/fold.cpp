// Bindings for the folds of ufunc.reduce, accumulate and reduceat (cuarray._fold), and their kernel sources
// for the tests.
#include "cuarray/ops/fold.h"

#include <pybind11/pybind11.h>

#include <string>

#include "convert.h"
#include "cuarray/error.h"
#include "ndarray.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

ops::FoldKind to_fold_kind(const std::string& kind) {
  if (kind == "reduce") return ops::FoldKind::Reduce;
  if (kind == "accumulate") return ops::FoldKind::Accumulate;
  if (kind == "reduceat") return ops::FoldKind::Segments;
  throw ValueError("fold: unknown kind '" + kind + "'");
}

ops::FoldLoop to_loop(const std::string& ufunc, py::handle acc, py::handle elem) {
  return {&ops::ufuncs().at(ops::ufunc_index(ufunc)), to_dtype(acc), to_dtype(elem)};
}

const Array* array_or_null(py::handle h) { return h.is_none() ? nullptr : &h.cast<const NdArray&>().array; }

}  // namespace

void init_fold(py::module_& m) {
  m.def(
      "_fold",
      [](const std::string& ufunc, py::handle acc, py::handle elem, const std::string& kind, const NdArray& a,
         const NdArray& out, py::handle where, py::handle starts, py::handle initial, std::int64_t chunk) {
        ops::FoldOptions options;
        std::string start;
        if (!initial.is_none()) {
          start = initial.cast<py::bytes>();
          options.initial = start.data();
        }
        options.where = array_or_null(where);
        options.starts = array_or_null(starts);
        options.chunk = chunk;
        ops::fold(to_loop(ufunc, acc, elem), to_fold_kind(kind), a.array, out.array, options);
      },
      "ufunc"_a, "acc"_a, "elem"_a, "kind"_a, "a"_a, "out"_a, "where"_a, "starts"_a, "initial"_a, "chunk"_a,
      "Folds `a` along its last axis into `out` with ufunc's loop (acc, elem) -> acc (cuarray._fold).");

  py::module_ s = m.attr("jit").attr("sources").cast<py::module_>();
  s.def("fold", [](const std::string& ufunc, const std::string& kind, py::handle acc, py::handle elem, py::handle in,
                   py::handle out, bool initial, bool where, bool wide, int ndim) {
    auto k = ops::fold_source(to_loop(ufunc, acc, elem), to_fold_kind(kind), to_dtype(in), to_dtype(out), initial,
                              where, wide, ndim);
    return py::make_tuple(k.source, k.name);
  });
}

}  // namespace cuarray::bind
