// Bindings for the calls of cuarray.fuse functions: a signature of argument kinds maps to a plan, run without
// Python code once known (Note [Fusion plans]).
#include "cuarray/ops/fusion.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "convert.h"
#include "cuarray/cuda/launch_queue.h"
#include "cuarray/error.h"
#include "cuarray/ops/auto_fusion.h"
#include "cuarray/ops/background_compile.h"
#include "cuarray/ops/ufunc.h"
#include "hooks.h"
#include "ndarray.h"
#include "operators.h"

namespace cuarray::bind {

namespace {

// Note [Fusion plans]
// A fused function's plan for one signature of its arguments (dtypes of cuarray arrays, kinds of scalars,
// None) is one of:
// - a kernel of the core (Note [Fused kernels] in ops/fusion.cpp), with the range each Python int argument
//   must lie in: NumPy casts a Python int to the loop type of each ufunc it meets and raises OverflowError
//   (or, comparing, answers exactly) where it does not fit, which a kernel taking it as an int64 cannot do;
//   a call with a value outside its range runs the function instead, which gives NumPy's answer or error;
// - running the Python function on the arguments: where no cuarray array is among them (NumPy arrays,
//   scalars alone: CuPy calls the function then), inside another fused function being traced (composition:
//   the body is traced inline), and for bodies one kernel cannot express (indexing, several reductions, a
//   reduction used further: CuPy's second fusion mode covers these). A kernel's call whose arguments it
//   cannot update in place (Note [Updates in place] in ops/fusion.cpp) runs the function too. Each operation
//   then runs as its own cuarray call, so results and errors are NumPy's.
// cuarray._fusion.Fusion._entry picks the plan on a signature's first call; this type keeps it.
struct IntRange {
  std::size_t arg;
  long long lo, hi;
};

struct Plan {
  const ops::FusedKernel* kernel = nullptr;  // null: call the function
  std::vector<IntRange> ints;
  // Unless `returns` is false, the function's result is built here, not from the kernel's outputs alone: None,
  // or a tuple (or its one item) of the kernel's new outputs in order (-1) and arguments (their positions),
  // which NumPy returns as the very objects passed (`x += y; return x`).
  bool returns = false, none = false, tuple = false;
  std::vector<int> items;  // past the arguments' positions: the views, in order
  // Views of arguments the kernel reads after the arguments: (argument position, index key), taken as args[p][key]
  // at each call (basic indexing: a view, or NumPy's IndexError).
  std::vector<std::pair<std::size_t, py::object>> views;
};

class Fusion {
 public:
  py::object call(py::handle self, const py::tuple& args) {
    std::uint64_t key = 0;
    const bool cacheable = signature(args, key);
    auto it = cacheable ? plans_.find(key) : plans_.end();
    if (it == plans_.end()) {
      Plan plan = make_plan(self.attr("_entry")(args));
      if (!cacheable) return run(self, plan, args);
      it = plans_.emplace(key, std::move(plan)).first;
    }
    return run(self, it->second, args);
  }

  // The plans are kept, not freed: a call may still run one (its Python code, or an allocation hook's, may let
  // another thread clear the cache meanwhile). clear_cache is rare, and plans are small.
  void clear() {
    retired_.push_back(std::make_unique<std::unordered_map<std::uint64_t, Plan>>());
    retired_.back()->swap(plans_);
  }

 private:
  // Arrays by dtype, exact Python scalars by kind, None (ops::FusedSignatures).
  static bool signature(const py::tuple& args, std::uint64_t& key) {
    using S = ops::FusedSignatures;
    const std::size_t n = args.size();
    if (n > S::kMaxArgs) return false;
    int codes[S::kMaxArgs];
    for (std::size_t i = 0; i < n; ++i) {
      PyObject* p = PyTuple_GET_ITEM(args.ptr(), i);
      codes[i] = is_ndarray(p)             ? S::array_code(py::handle(p).cast<const NdArray&>().array.dtype())
                 : PyBool_Check(p)         ? S::kBool
                 : PyLong_CheckExact(p)    ? S::kInt
                 : PyFloat_CheckExact(p)   ? S::kFloat
                 : PyComplex_CheckExact(p) ? S::kComplex
                 : p == Py_None            ? S::kNone
                                           : S::kNoCode;
    }
    return S::signature(codes, n, key);
  }

  // _entry's answer: None (call the function) or (handle, ((argument index, lo, hi), ...), returns, views),
  // returns None (the kernel's outputs) or (is_none, is_tuple, items) as Plan's, views ((position, key), ...).
  static Plan make_plan(py::handle entry) {
    Plan plan;
    if (entry.is_none()) return plan;
    auto t = entry.cast<py::tuple>();
    plan.kernel = &ops::fused_definition(t[0].cast<std::size_t>());
    for (auto r : t[1]) {
      auto range = r.cast<py::tuple>();
      plan.ints.push_back({range[0].cast<std::size_t>(), range[1].cast<long long>(), range[2].cast<long long>()});
    }
    if (!t[2].is_none()) {
      auto r = t[2].cast<py::tuple>();
      plan.returns = true;
      plan.none = r[0].cast<bool>(), plan.tuple = r[1].cast<bool>();
      plan.items = r[2].cast<std::vector<int>>();
    }
    for (auto v : t[3]) {
      auto view = v.cast<py::tuple>();
      plan.views.emplace_back(view[0].cast<std::size_t>(), py::reinterpret_borrow<py::object>(view[1]));
    }
    return plan;
  }

  static bool ints_fit(const Plan& plan, const py::tuple& args) {
    for (const IntRange& r : plan.ints) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(args[r.arg].ptr(), &overflow);
      if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
      if (overflow || v < r.lo || v > r.hi) return false;
    }
    return true;
  }

  static py::object run(py::handle self, const Plan& plan, const py::tuple& args) {
    if (!plan.kernel || !ints_fit(plan, args)) return self.attr("func")(*args);
    const ops::FusedKernel& k = *plan.kernel;
    const int nin = static_cast<int>(k.in.size());
    ops::ElementwiseOperands operands(k.name().c_str(), nin, static_cast<int>(k.out.size()));
    std::optional<ops::Scalar> scalars[ops::kMaxOperands];  // constructed only for scalar arguments
    // A kernel input the body never reads: false, which every loop type holds exactly (no conversion hook).
    auto placeholder = [](std::optional<ops::Scalar>& s) -> const ops::Scalar& {
      s.emplace().tag = ops::Scalar::Tag::Bool;
      return *s;
    };
    int n = 0;
    for (auto a : args) {
      if (a.is_none()) continue;
      if (n == nin) break;
      // An argument read only through views of it gets a placeholder, so that it does not broadcast.
      if (static_cast<std::size_t>(n) < k.used.size() && !k.used[n])
        operands.set_input(n, placeholder(scalars[n]));
      else if (is_ndarray(a))
        operands.set_input(n, a.cast<const NdArray&>().array);
      else if (to_scalar(a, scalars[n].emplace()))
        operands.set_input(n, *scalars[n]);
      else
        unsupported(a, k.name().c_str());
      ++n;
    }
    std::vector<py::object> views;  // alive until the kernel ran
    views.reserve(plan.views.size());
    for (const auto& [position, key] : plan.views) {
      if (n == nin) break;
      views.push_back(args[position][key]);
      if (!is_ndarray(views.back())) throw TypeError("cuarray.fuse: a view of an argument is not a cuarray array");
      if (static_cast<std::size_t>(n) < k.used.size() && !k.used[n])  // only returned: a placeholder, as above
        operands.set_input(n, placeholder(scalars[n]));
      else
        operands.set_input(n, views.back().cast<const NdArray&>().array);
      ++n;
    }
    ops::check_fused_arity(k, static_cast<std::size_t>(n));
    if (!k.updates.empty() && !ops::updates_in_place(k, operands.inputs())) return self.attr("func")(*args);
    std::vector<Array> out = ops::run_fused(k, operands);
    if (plan.returns) return assemble(plan, args, views, out);
    if (out.size() == 1 && !k.tuple_result) return to_object(std::move(out[0]));
    py::tuple result(out.size());
    for (std::size_t o = 0; o < out.size(); ++o) result[o] = to_object(std::move(out[o]));
    return result;
  }

  static py::object assemble(const Plan& plan, const py::tuple& args, const std::vector<py::object>& views,
                             std::vector<Array>& out) {
    if (plan.none) return py::none();
    py::tuple result(plan.items.size());
    std::size_t next = 0;
    for (std::size_t i = 0; i < plan.items.size(); ++i) {
      const int item = plan.items[i];
      const auto position = static_cast<std::size_t>(item);
      result[i] = item < 0                 ? to_object(std::move(out.at(next++)))
                  : position < args.size() ? py::object(args[position])
                                           : views.at(position - args.size());
    }
    if (!plan.tuple && result.size() == 1) return result[0];
    return result;
  }

  std::unordered_map<std::uint64_t, Plan> plans_;  // used with the GIL held
  std::vector<std::unique_ptr<std::unordered_map<std::uint64_t, Plan>>> retired_;
};

// The type's tp_call (Note [Operator slots]); Python subclasses inherit it.
PyObject* fusion_slot(PyObject* self, PyObject* args, PyObject* kwargs) {
  return guarded([&] {
    if (kwargs && PyDict_GET_SIZE(kwargs) > 0)
      throw TypeError("fused function " + py::str(py::getattr(self, "__name__", py::str("?"))).cast<std::string>() +
                      "() takes positional arguments only");
    return py::handle(self).cast<Fusion&>().call(self, py::reinterpret_borrow<py::tuple>(args));
  });
}

// Steps ("const", dtype, weak, bits, re, im), ("ufunc", name, operand values, loop types) and ("cast", value,
// dtype).
std::vector<ops::FusedStep> to_steps(py::handle steps) {
  using Kind = ops::FusedStep::Kind;
  std::vector<ops::FusedStep> out;
  for (auto item : steps) {
    auto s = py::reinterpret_borrow<py::tuple>(item);
    const std::string what = s[0].cast<std::string>();
    ops::FusedStep step;
    if (what == "const") {
      step.kind = Kind::Constant;
      step.types = {to_dtype(s[1])};
      step.weak = s[2].cast<bool>(), step.integer = s[3].cast<std::uint64_t>();
      step.re = s[4].cast<double>(), step.im = s[5].cast<double>();
    } else if (what == "ufunc") {
      step.kind = Kind::Ufunc;
      step.ufunc = ops::ufunc_index(s[1].cast<std::string>());
      step.args = s[2].cast<std::vector<int>>();
      for (auto t : s[3]) step.types.push_back(to_dtype(t));
    } else if (what == "cast") {
      step.kind = Kind::Cast;
      step.args = {s[1].cast<int>()};
      step.types = {to_dtype(s[2])};
    } else {
      throw ValueError("cuarray.fuse: unknown step '" + what + "'");
    }
    out.push_back(std::move(step));
  }
  return out;
}

// A traced program from cuarray._fusion: its steps (to_steps); `reduction` None or (name, loop, out_loop,
// result, axis, keepdims, post steps, post result); `updates` ((kernel input, value), ...).
ops::FusedProgram to_program(const std::string& name, const std::vector<py::handle>& in_types, const py::list& steps,
                             const std::vector<int>& results, bool tuple_result, py::handle reduction,
                             const std::vector<std::pair<int, int>>& updates) {
  ops::FusedProgram p{name, {}, {}, results, tuple_result, updates};
  for (auto t : in_types) p.in.push_back(to_dtype(t));
  p.steps = to_steps(steps);
  if (!reduction.is_none()) {
    auto r = py::reinterpret_borrow<py::tuple>(reduction);
    p.reduction = r[0].cast<std::string>();
    p.reduce_loop = to_dtype(r[1]), p.out_loop = to_dtype(r[2]), p.result = to_dtype(r[3]);
    if (!r[4].is_none()) p.axis = to_axes(r[4]);
    p.int_axis = PyLong_Check(r[4].ptr()) && !PyBool_Check(r[4].ptr());
    p.post = to_steps(r[6]);
    p.post_result = r[7].cast<int>();
    p.keepdims = r[5].cast<bool>();
  }
  return p;
}

}  // namespace

namespace {

// Note [Automatic fusion]'s log line, to the "cuarray.fusion" logger. A thread that does not hold Python's lock (a
// wait that released it, which may hold the core's locks too) leaves it for the next recorded call or flush.
bool log_fusion(const std::string& message) {
  if (!Py_IsInitialized()) return true;
  if (!PyGILState_Check()) return false;
  if (!has_hook(Hook::LogFusion)) return true;
  py::error_scope keep;  // a flush inside a deallocation may run while an exception is being raised
  try {
    hook(Hook::LogFusion)(message);
  } catch (py::error_already_set& e) {  // a failing log handler must not fail the op that flushed
    drop_quiet_error(e);                // Note [Interrupts in quiet calls] in hooks.h
  }
  return true;
}

// Whether the calling thread may drop a user allocator's memory object that a chain kept (ops::set_release_check):
// it holds Python's lock (a thread that let go of it may hold the core's locks, as for the log above).
bool may_release() { return !Py_IsInitialized() || PyGILState_Check(); }

}  // namespace

void init_fusion(py::module_& m) {
  ops::set_fusion_log(&log_fusion);
  ops::set_release_check(&may_release);
  // Automatic fusion (Note [Automatic fusion] in ops/auto_fusion.h): the calling thread's switch, which returns
  // the previous setting; the counts, for tests; a flush.
  m.def("_set_auto_fuse", &ops::set_auto_fusion, py::arg("setting"));
  m.def("_auto_fuse_min_size", [] {
    const std::int64_t m = ops::auto_fusion_min_size();
    return m == INT64_MAX ? py::object(py::none()) : py::object(py::int_(m));
  });
  m.def("_flush_recorded", &ops::flush_recorded);
  m.def("_fusable_ufuncs", [] {
    py::dict d;
    for (const auto& [name, loops] : ops::fusable_ufuncs()) d[py::str(name)] = loops;
    return d;
  });
  m.def("_auto_fusion_stats", [] {
    const ops::AutoFusionStats st = ops::auto_fusion_stats();
    const ops::BackgroundCounts bg = ops::background_compile_counts();
    py::dict d;
    d["recorded"] = st.recorded, d["chains"] = st.chains, d["fused_chains"] = st.fused_chains;
    d["fused_ops"] = st.fused_ops, d["written"] = st.written, d["small_pauses"] = st.small_pauses;
    d["compiles_started"] = bg.started, d["compiles_finished"] = bg.finished, d["compiles_failed"] = bg.failed;
    d["compile_error"] = bg.last_error;
    // False once memory was shared with other code: nothing is recorded from then on (Note [Launch queue]).
    d["may_record"] = cuda::launches_may_wait();
    return d;
  });
  // A slot set before the type is made ready gets a `__call__` wrapper, which subclasses resolve to the slot.
  py::class_<Fusion>(m, "_Fusion", py::custom_type_setup([](PyHeapTypeObject* t) { t->ht_type.tp_call = fusion_slot; }))
      .def(py::init<>())
      .def("_clear_plans", &Fusion::clear);
  // A fused function's kernel for one signature, from its traced program (to_program); returns its handle.
  m.def("_fusion_def", [](const std::string& name, const std::vector<py::handle>& in_types, const py::list& steps,
                          const std::vector<int>& results, bool tuple_result, py::handle reduction,
                          const std::vector<std::pair<int, int>>& updates) {
    return ops::define_fused(to_program(name, in_types, steps, results, tuple_result, reduction, updates));
  });
}

}  // namespace cuarray::bind
