// Bindings for ufunc objects (cuarray.add, ...) and the ndarray operators, over the table in
// cpp/cuarray/ops/ufuncs.def.
//
// Note [Type resolution]
// Which loop a ufunc runs for given operand dtypes (and Python scalars, which are "weak" under NEP 50) is
// NumPy's decision: on the first call with a new signature we ask NumPy (ufunc.resolve_dtypes, through
// cuarray._ufuncs._resolve) and cache the answer under a 64-bit key of the operand kinds, `dtype=` and
// `casting`. Later calls with the same signature only look the key up, so NumPy 2's promotion rules hold
// exactly at no per-call cost. The loop NumPy picks must be one the table implements.
#include "cuarray/ops/ufunc.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "convert.h"
#include "cuarray/error.h"
#include "cuarray/ops/creation.h"
#include "cuarray/ops/reduction.h"
#include "cuarray/ops/transfer.h"
#include "ndarray.h"
#include "operators.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

using ops::Input;
using ops::Ufunc;

// Operand codes in a signature key: a dtype, or a weak Python scalar kind.
constexpr int kWeakInt = 15, kWeakFloat = 16, kWeakComplex = 17, kNone = 31;

struct Resolved {
  DType in[3];
  DType out[2];
};

std::mutex g_mutex;
std::unordered_map<std::uint64_t, Resolved> g_resolved;
// cuarray._ufuncs._resolve; never freed, since a py::object destroyed after interpreter shutdown aborts.
py::object& g_resolver = *new py::object;
py::object& g_fusion_type = *new py::object;  // cuarray._fusion._Traced, once fusion is imported
py::object& g_fusion_hook = *new py::object;

enum class Kind { Array, Weak, Strong };

struct Operand {
  Kind kind;
  int code;  // key code
  py::handle object;
  const NdArray* array = nullptr;
};

Operand classify(py::handle obj, const char* ufunc) {
  PyObject* p = obj.ptr();
  if (py::isinstance(obj, ndarray_type())) {
    const NdArray* a = &obj.cast<const NdArray&>();
    return {Kind::Array, static_cast<int>(a->array.dtype()), obj, a};
  }
  // Exact types only: NumPy's float64 and complex128 subclass Python's float and complex but are strong.
  if (PyBool_Check(p)) return {Kind::Strong, static_cast<int>(DType::Bool), obj};
  if (PyLong_CheckExact(p)) return {Kind::Weak, kWeakInt, obj};
  if (PyFloat_CheckExact(p)) return {Kind::Weak, kWeakFloat, obj};
  if (PyComplex_CheckExact(p)) return {Kind::Weak, kWeakComplex, obj};
  static py::handle generic = py::object(py::module_::import("numpy").attr("generic")).release();
  if (PyObject_IsInstance(p, generic.ptr()) == 1)
    return {Kind::Strong, static_cast<int>(to_dtype(obj.attr("dtype"))), obj};
  unsupported(obj, ufunc);
}

// `value` in loop type `t`, in the representation kernels compute with (16-bit floats widen to float).
void scalar_value(const Operand& s, DType t, char* dst) {
  PyObject* p = s.object.ptr();
  bool python = s.kind == Kind::Weak || PyBool_Check(p);
  if (t == DType::Bool && s.kind == Kind::Weak && PyLong_CheckExact(p)) {
    // NumPy reads a Python int for a bool loop (logical_or(a, 2**64)) as a C long first.
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(p, &overflow);
    if (overflow) raise_overflow("Python int too large to convert to C long");
  }
  if (python && (t == DType::Float64 || t == DType::Float32) && !PyComplex_Check(p)) {
    double v = PyFloat_AsDouble(p);
    if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    if (t == DType::Float64)
      std::memcpy(dst, &v, 8);
    else {
      float f = static_cast<float>(v);
      std::memcpy(dst, &f, 4);
    }
    return;
  }
  if (python && is_integer(t) && PyLong_Check(p)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    int size = itemsize(t);
    bool fits = !overflow;
    if (cuarray::kind(t) == cuarray::Kind::Signed) {
      if (size < 8) fits = fits && v >= -(1LL << (8 * size - 1)) && v < (1LL << (8 * size - 1));
    } else if (size < 8) {
      fits = fits && v >= 0 && v < (1LL << (8 * size));
    } else if (overflow > 0 || v < 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(p);
      if (PyErr_Occurred()) {
        PyErr_Clear();
        fits = false;
      } else {
        std::memcpy(dst, &u, 8);
        return;
      }
    }
    if (fits) {
      std::memcpy(dst, &v, size);  // little-endian: the low bytes are the narrow value
      return;
    }
  }
  // Everything else (NumPy scalars, 16-bit floats, complex, out-of-range ints) goes through NumPy, which also
  // raises NumPy's errors (OverflowError for a Python int that does not fit).
  static py::handle np = py::module_::import("numpy").release();
  py::dtype loop = to_numpy_dtype(t);
  py::array v = python ? np.attr("array")(s.object, loop) : np.attr("asarray")(s.object).attr("astype")(loop);
  if (t == DType::Float16 || t == DType::BFloat16) v = v.attr("astype")("float32");
  std::memcpy(dst, v.data(), static_cast<size_t>(v.itemsize()));
}

// NumPy's ufunc of the same name; internal rows (_clip, _where, ...) map to NumPy's umath module or None.
// NumPy compares integer arrays with Python ints outside the dtype's range by value (NEP 50): every
// element is then on the same side. Returns that answer, or nullopt when `u` is no comparison.
std::optional<bool> out_of_range_comparison(const Ufunc& u, const Operand* ops, int scalar_index) {
  static const char* names[] = {"less", "less_equal", "greater", "greater_equal", "equal", "not_equal"};
  int op = -1;
  for (int k = 0; k < 6; ++k)
    if (u.def.name == names[k]) op = k;
  if (op < 0 || ops[scalar_index].code != kWeakInt) return std::nullopt;
  bool huge = PyObject_RichCompareBool(ops[scalar_index].object.ptr(), py::int_(0).ptr(), Py_GT) == 1;
  bool array_is_less = scalar_index == 1 ? huge : !huge;  // "array OP scalar" as seen from the left operand
  switch (op) {
    case 0:
    case 1:
      return array_is_less;
    case 2:
    case 3:
      return !array_is_less;
    case 4:
      return false;
    default:
      return true;
  }
}

py::object numpy_ufunc(const Ufunc& u) {
  static py::handle np = py::module_::import("numpy").release();
  if (u.def.name[0] != '_') return np.attr(u.def.name.c_str());
  py::object umath = py::module_::import("numpy._core.umath");
  std::string name = u.def.name.substr(1);
  return py::hasattr(umath, name.c_str()) ? py::object(umath.attr(name.c_str())) : py::object(py::none());
}

Resolved resolve(int index, const Operand* ops, int nin, std::optional<DType> dtype, const char* casting,
                 std::uint64_t key) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_resolved.find(key);
    if (it != g_resolved.end()) return it->second;
  }
  const Ufunc& u = ops::ufuncs()[index];
  py::tuple operands(nin);
  for (int i = 0; i < nin; ++i) {
    switch (ops[i].code) {
      case kWeakInt:
        operands[i] = py::type::of(py::int_(0));
        break;
      case kWeakFloat:
        operands[i] = py::type::of(py::float_(0.0));
        break;
      case kWeakComplex:
        operands[i] = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyComplex_Type));
        break;
      default:
        operands[i] = to_numpy_dtype(static_cast<DType>(ops[i].code));
    }
  }
  py::object dt = dtype ? py::object(to_numpy_dtype(*dtype)) : py::object(py::none());
  py::tuple types = g_resolver(u.def.name, operands, dt, casting);
  Resolved r{};
  for (int i = 0; i < nin; ++i) r.in[i] = to_dtype(types[i]);
  for (int o = 0; o < u.def.nout; ++o) r.out[o] = to_dtype(types[nin + o]);
  if (ops::find_loop(u, r.in, r.out) < 0) {
    std::string sig;
    for (int i = 0; i < nin; ++i) sig += std::string(i ? ", " : "") + name(r.in[i]);
    sig += ") -> (";
    for (int o = 0; o < u.def.nout; ++o) sig += std::string(o ? ", " : "") + name(r.out[o]);
    throw TypeError("cuarray's ufunc '" + u.def.name + "' has no loop for the types (" + sig +
                    "); NumPy would compute it with that loop");
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_resolved.emplace(key, r);
  return r;
}

// Note [Negative integer powers]
// NumPy's power loops of signed integers raise ValueError at a negative exponent (where the output has
// elements; `where=` aside), instead of computing 1/x truncated. The check comes before the launch, so an
// `out=` is left as it was: a scalar exponent is read on the host; an array exponent of a signed type is
// reduced to its minimum on the device and that one value read back, a synchronisation paid only by integer
// power with a signed integer array exponent.
void check_exponent(const Input& exponent, DType loop, const Shape& shape) {
  if (has_zero_extent(shape)) return;
  // A signed integer of `size` bytes (little-endian), sign-extended.
  auto read = [](const char* bytes, int size) {
    std::uint64_t u = 0;
    std::memcpy(&u, bytes, static_cast<size_t>(size));
    int shift = 64 - 8 * size;
    return static_cast<std::int64_t>(u << shift) >> shift;
  };
  std::int64_t lowest = 0;
  if (!exponent.array) {
    lowest = read(exponent.value, itemsize(loop));
  } else {
    const Array& e = *exponent.array;
    DType t = e.dtype();
    if (cuarray::kind(t) != cuarray::Kind::Signed) return;
    Array out(Shape{}, t);
    ops::reduce(ops::reduction("min"), &t, t, &e, out, std::vector<bool>(e.ndim(), true));
    char bytes[8];
    ops::copy_to_host(bytes, out);
    lowest = read(bytes, itemsize(t));
  }
  if (lowest < 0) throw ValueError("Integers to negative integer powers are not allowed.");
}

int casting_code(const char* casting) {
  static const char* names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
  for (int i = 0; i < 5; ++i)
    if (!std::strcmp(casting, names[i])) return i;
  throw ValueError(std::string("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got '") +
                   casting + "')");
}

void check_output_cast(const Ufunc& u, DType from, DType to, const char* casting, int index) {
  if (from == to) return;
  static py::handle np = py::module_::import("numpy").release();
  if (np.attr("can_cast")(to_numpy_dtype(from), to_numpy_dtype(to), casting).cast<bool>()) return;
  py::object err = py::module_::import("numpy._core._exceptions").attr("_UFuncOutputCastingError");
  py::object e = err(numpy_ufunc(u), casting, to_numpy_dtype(from), to_numpy_dtype(to), index);
  PyErr_SetObject(err.ptr(), e.ptr());
  throw py::error_already_set();
}

// The ufunc call: inputs, optional outputs (None entries are allocated), dtype=, casting=, order= (the layout of
// new outputs: 'C' or 'F', else that of an input of the output's shape, as 'K').
py::object call(int index, const py::handle* args, int nargs, const py::handle* outs, py::handle dtype_obj,
                const char* casting, char order = 'K') {
  const Ufunc& u = ops::ufuncs()[index];
  int nin = u.def.nin, nout = u.def.nout;
  const char* uname = u.def.name.c_str();
  if (nargs != nin)
    throw TypeError(u.def.name + "() takes " + std::to_string(nin) + " positional input argument" +
                    (nin == 1 ? "" : "s") + " but " + std::to_string(nargs) + " were given");
  Operand ops_[3];
  std::optional<DType> dtype;
  if (!dtype_obj.is_none()) dtype = to_dtype(dtype_obj);
  std::uint64_t key = static_cast<std::uint64_t>(index) << 48 |
                      static_cast<std::uint64_t>(casting_code(casting)) << 45 |
                      static_cast<std::uint64_t>(dtype ? static_cast<int>(*dtype) : kNone) << 40;
  // The broadcast shape: usually every array has the same shape, and then no new Shape is built.
  const Shape* common = nullptr;
  Shape broadcast;
  for (int i = 0; i < nin; ++i) {
    ops_[i] = classify(args[i], uname);
    key |= static_cast<std::uint64_t>(ops_[i].code) << (5 * i);
    if (ops_[i].kind != Kind::Array) continue;
    const Shape& s = ops_[i].array->array.shape();
    if (!common)
      common = &s;
    else if (*common != s) {
      broadcast = broadcast_shapes(*common, s);
      common = &broadcast;
    }
  }
  static const Shape scalar_shape;
  const Shape* shape_ptr = common ? common : &scalar_shape;
  Resolved r = resolve(index, ops_, nin, dtype, casting, key);

  const NdArray* out_arrays[2] = {nullptr, nullptr};
  for (int o = 0; o < nout; ++o) {
    if (!outs || outs[o].is_none()) continue;
    if (!py::isinstance(outs[o], ndarray_type())) {
      if (py::isinstance<py::array>(outs[o])) unsupported(outs[o], uname);
      throw TypeError("return arrays must be of ArrayType");
    }
    out_arrays[o] = &outs[o].cast<const NdArray&>();
    const Shape& os = out_arrays[o]->array.shape();
    if (*shape_ptr != os) {
      Shape b = broadcast_shapes(*shape_ptr, os);
      if (b != os)
        throw ValueError("non-broadcastable output operand with shape " + shape_str(os) +
                         " doesn't match the broadcast shape " + shape_str(b));
      shape_ptr = &os;
    }
    check_output_cast(u, r.out[o], out_arrays[o]->array.dtype(), casting, o);
  }

  Input inputs[3];
  const Array* like = nullptr;
  for (int i = 0; i < nin; ++i) {
    if (ops_[i].kind == Kind::Array) {
      inputs[i].array = &ops_[i].array->array;
      if (!like && inputs[i].array->shape() == *shape_ptr) like = inputs[i].array;
    } else {
      try {
        scalar_value(ops_[i], r.in[i], inputs[i].value);
      } catch (py::error_already_set& e) {
        std::optional<bool> constant;
        if (e.matches(PyExc_OverflowError) && is_integer(r.in[i])) constant = out_of_range_comparison(u, ops_, i);
        if (!constant) throw;
        Array out = out_arrays[0] ? out_arrays[0]->array : Array(*shape_ptr, r.out[0]);
        if (out.dtype() != DType::Bool) throw;  // a non-bool out= for a comparison: keep NumPy's error
        char value = *constant;
        ops::fill(out, &value);
        if (out_arrays[0]) return py::reinterpret_borrow<py::object>(outs[0]);
        return py::cast(NdArray{std::move(out), py::none()});
      }
    }
  }
  static const int power = ops::ufunc_index("power");
  if (index == power && cuarray::kind(r.in[1]) == cuarray::Kind::Signed) check_exponent(inputs[1], r.in[1], *shape_ptr);
  std::vector<Array> outputs;
  outputs.reserve(nout);
  for (int o = 0; o < nout; ++o) {
    if (out_arrays[o])
      outputs.push_back(out_arrays[o]->array);
    else if (order == 'F')
      outputs.emplace_back(*shape_ptr, r.out[o], Order::F);
    else if (order == 'C')
      outputs.emplace_back(*shape_ptr, r.out[o], Order::C);
    else
      outputs.push_back(like ? Array::like(*like, r.out[o]) : Array(*shape_ptr, r.out[o]));
  }
  ops::elementwise(ops::ufunc_def_for(u, r.in, inputs, outputs[0].shape()), r.in, r.out, inputs, outputs.data(),
                   outputs[0].shape());

  auto result = [&](int o) -> py::object {
    if (out_arrays[o]) return py::reinterpret_borrow<py::object>(outs[o]);
    return py::cast(NdArray{std::move(outputs[o]), py::none()});
  };
  if (nout == 1) return result(0);
  return py::make_tuple(result(0), result(1));
}

// Index of a ufunc by name: a search of the table, so call sites look it up once.
int index_of(const char* name) { return ops::ufunc_index(name); }

template <const char* Name>
int index_of() {
  static const int index = index_of(Name);
  return index;
}

struct PyUfunc {
  int index;
};

py::object call_binary(int index, py::handle a, py::handle b) {
  py::handle args[2] = {a, b};
  return call(index, args, 2, nullptr, py::none(), "same_kind");
}

py::object call_inplace(int index, py::handle self, py::handle b) {
  py::handle args[2] = {self, b};
  py::handle outs[1] = {self};
  return call(index, args, 2, outs, py::none(), "same_kind");
}

py::object call_unary(int index, py::handle a) {
  py::handle args[1] = {a};
  return call(index, args, 1, nullptr, py::none(), "same_kind");
}

template <const char* Name>
PyObject* binary_slot(PyObject* a, PyObject* b) {
  if (!takes(a) || !takes(b)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] { return call_binary(index_of<Name>(), a, b); });
}

template <const char* Name>
PyObject* inplace_slot(PyObject* a, PyObject* b) {
  if (!takes(b)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] { return call_inplace(index_of<Name>(), a, b); });
}

template <const char* Name>
PyObject* unary_slot(PyObject* a) {
  return guarded([&] { return call_unary(index_of<Name>(), a); });
}

constexpr char kPow[] = "power";
constexpr char kReciprocal[] = "reciprocal";
constexpr char kSquare[] = "square";
constexpr char kSqrt[] = "sqrt";

// NumPy's ndarray ** (fast_scalar_power): a float16/32/64 or complex array to the Python int -1 or 2, or to
// the Python float 0.5, is reciprocal, square or sqrt of it (which differ from power: sqrt(-inf) is nan
// where power(-inf, 0.5) is inf, and complex square and sqrt are not cpow). The ufunc index, or -1.
int operator_power_index(PyObject* a, PyObject* b) {
  if (!py::isinstance(py::handle(a), ndarray_type())) return -1;
  DType t = py::handle(a).cast<const NdArray&>().array.dtype();
  if (t != DType::Float16 && t != DType::Float32 && t != DType::Float64 && !is_complex(t)) return -1;
  if (PyLong_CheckExact(b)) {
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(b, &overflow);
    if (overflow) return -1;
    return v == -1 ? index_of<kReciprocal>() : v == 2 ? index_of<kSquare>() : -1;
  }
  return PyFloat_CheckExact(b) && PyFloat_AS_DOUBLE(b) == 0.5 ? index_of<kSqrt>() : -1;
}

PyObject* power_slot(PyObject* a, PyObject* b, PyObject* mod) {
  if (mod != Py_None) {
    PyErr_SetString(PyExc_TypeError, "pow() with a modulus is not supported by cuarray arrays");
    return nullptr;
  }
  if (!takes(a) || !takes(b)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] {
    int unary = operator_power_index(a, b);
    return unary >= 0 ? call_unary(unary, a) : call_binary(index_of<kPow>(), a, b);
  });
}

PyObject* inplace_power_slot(PyObject* a, PyObject* b, PyObject*) {
  if (!takes(b)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] {
    int unary = operator_power_index(a, b);
    if (unary < 0) return call_inplace(index_of<kPow>(), a, b);
    py::handle args[1] = {a};
    return call(unary, args, 1, args, py::none(), "same_kind");
  });
}

// An object no array protocol knows (None, a string, a plain object): NumPy's == and != compare it with every
// element, all unequal. Other libraries' arrays and anything NumPy could convert are left to their own methods.
bool incomparable(PyObject* b) {
  if (PyList_Check(b) || PyTuple_Check(b)) return false;
  for (const char* name : {"__array_ufunc__", "__array_priority__", "__array__", "__array_interface__",
                           "__cuda_array_interface__", "__dlpack__"})
    if (PyObject_HasAttrString(b, name)) return false;
  return true;
}

PyObject* richcompare_slot(PyObject* a, PyObject* b, int op) {
  static const int indices[] = {index_of("less"),      index_of("less_equal"), index_of("equal"),
                                index_of("not_equal"), index_of("greater"),    index_of("greater_equal")};
  if (!takes(b)) {
    if ((op == Py_EQ || op == Py_NE) && (PyList_Check(b) || PyTuple_Check(b)))
      return guarded([&]() -> py::object { unsupported(b, op == Py_EQ ? "equal" : "not_equal"); });
    if ((op == Py_EQ || op == Py_NE) && incomparable(b))
      return guarded([&] {
        Array out = ops::zeros(py::handle(a).cast<const NdArray&>().array.shape(), DType::Bool);
        const bool unequal = op == Py_NE;
        if (unequal && out.size()) ops::fill(out, &unequal);
        return py::cast(NdArray{std::move(out), py::none()});
      });
    Py_RETURN_NOTIMPLEMENTED;
  }
  return guarded([&] { return call_binary(indices[op], a, b); });
}

// A ufunc object's call, `cp.add(a, b, out=..., dtype=..., casting=...)`: NumPy's parameters. `kwargs` may be
// null.
py::object call_ufunc(const PyUfunc& self, PyObject* args, PyObject* kwargs) {
  const Ufunc& u = ops::ufuncs()[self.index];
  int nin = u.def.nin, nout = u.def.nout;
  int n = static_cast<int>(PyTuple_GET_SIZE(args));
  if (g_fusion_type)
    for (int i = 0; i < n; ++i)
      if (py::isinstance(PyTuple_GET_ITEM(args, i), g_fusion_type)) {
        py::dict kw = kwargs ? py::reinterpret_borrow<py::dict>(kwargs) : py::dict();
        return g_fusion_hook(u.def.name, *py::reinterpret_borrow<py::tuple>(args), **kw);
      }
  py::handle in[3], out[2] = {py::none(), py::none()};
  if (n > nin + nout)
    throw TypeError(u.def.name + "() takes from " + std::to_string(nin) + " to " + std::to_string(nin + nout) +
                    " positional arguments but " + std::to_string(n) + " were given");
  for (int i = 0; i < std::min(n, nin); ++i) in[i] = PyTuple_GET_ITEM(args, i);
  for (int i = nin; i < n; ++i) out[i - nin] = PyTuple_GET_ITEM(args, i);
  py::handle dtype = py::none();
  std::string casting = "same_kind";
  char order = 'K';
  PyObject *k, *v;
  for (Py_ssize_t pos = 0; kwargs && PyDict_Next(kwargs, &pos, &k, &v);) {
    std::string key = py::str(k);
    if (key == "out") {
      if (n > nin) throw TypeError("cannot specify 'out' as both a positional and keyword argument");
      if (PyTuple_Check(v)) {
        if (static_cast<int>(PyTuple_GET_SIZE(v)) != nout)
          throw ValueError("The 'out' tuple must have exactly one entry per ufunc output");
        for (int o = 0; o < nout; ++o) out[o] = PyTuple_GET_ITEM(v, o);
      } else {
        if (nout != 1) throw TypeError("'out' must be a tuple of arrays for a ufunc with several outputs");
        out[0] = v;
      }
    } else if (key == "dtype") {
      dtype = v;
    } else if (key == "casting") {
      casting = to_casting(v, false);
    } else if (key == "order") {
      order = to_order(v, 'K');
    } else if (key == "subok") {  // cuarray has no ndarray subclasses to keep
    } else if (key == "where" && v == Py_True) {
    } else {
      throw TypeError(u.def.name + "() got an unexpected keyword argument '" + key + "' (cuarray)");
    }
  }
  return call(self.index, in, std::min(n, nin), out, dtype, casting.c_str(), order);
}

// The ufunc type's tp_call (Note [Operator slots]).
PyObject* ufunc_slot(PyObject* self, PyObject* args, PyObject* kwargs) {
  return guarded([&] { return call_ufunc(py::handle(self).cast<const PyUfunc&>(), args, kwargs); });
}

constexpr char kDivmod[] = "divmod";
constexpr char kAdd[] = "add", kSub[] = "subtract", kMul[] = "multiply", kDiv[] = "divide",
               kFloorDiv[] = "floor_divide", kMod[] = "remainder", kAnd[] = "bitwise_and", kOr[] = "bitwise_or",
               kXor[] = "bitwise_xor", kLshift[] = "left_shift", kRshift[] = "right_shift", kNeg[] = "negative",
               kPos[] = "positive", kAbs[] = "absolute", kInvert[] = "invert";

void install_slots(py::handle type) {
  auto* t = reinterpret_cast<PyHeapTypeObject*>(type.ptr());
  PyNumberMethods& n = t->as_number;
  n.nb_add = binary_slot<kAdd>;
  n.nb_subtract = binary_slot<kSub>;
  n.nb_multiply = binary_slot<kMul>;
  n.nb_true_divide = binary_slot<kDiv>;
  n.nb_floor_divide = binary_slot<kFloorDiv>;
  n.nb_remainder = binary_slot<kMod>;
  n.nb_power = power_slot;
  n.nb_divmod = binary_slot<kDivmod>;
  n.nb_and = binary_slot<kAnd>;
  n.nb_or = binary_slot<kOr>;
  n.nb_xor = binary_slot<kXor>;
  n.nb_lshift = binary_slot<kLshift>;
  n.nb_rshift = binary_slot<kRshift>;
  n.nb_inplace_add = inplace_slot<kAdd>;
  n.nb_inplace_subtract = inplace_slot<kSub>;
  n.nb_inplace_multiply = inplace_slot<kMul>;
  n.nb_inplace_true_divide = inplace_slot<kDiv>;
  n.nb_inplace_floor_divide = inplace_slot<kFloorDiv>;
  n.nb_inplace_remainder = inplace_slot<kMod>;
  n.nb_inplace_power = inplace_power_slot;
  n.nb_inplace_and = inplace_slot<kAnd>;
  n.nb_inplace_or = inplace_slot<kOr>;
  n.nb_inplace_xor = inplace_slot<kXor>;
  n.nb_inplace_lshift = inplace_slot<kLshift>;
  n.nb_inplace_rshift = inplace_slot<kRshift>;
  n.nb_negative = unary_slot<kNeg>;
  n.nb_positive = unary_slot<kPos>;
  n.nb_absolute = unary_slot<kAbs>;
  n.nb_invert = unary_slot<kInvert>;
  t->ht_type.tp_richcompare = richcompare_slot;
  PyType_Modified(&t->ht_type);
}

}  // namespace

[[noreturn]] void unsupported(py::handle obj, const char* op) {
  std::string type = py::str(py::type::handle_of(obj).attr("__module__")).cast<std::string>() + "." +
                     py::str(py::type::handle_of(obj).attr("__qualname__")).cast<std::string>();
  if (py::isinstance<py::array>(obj))
    throw TypeError(std::string("Unsupported type ") + type + " in cuarray." + op +
                    ": cuarray operations take cuarray arrays and scalars; move the NumPy array to the GPU with "
                    "cuarray.asarray(x) (or bring the cuarray array back with .get())");
  throw TypeError(std::string("Unsupported type ") + type + " in cuarray." + op +
                  ": expected a cuarray.ndarray or a scalar");
}

bool takes(PyObject* p) {
  static py::handle generic = py::object(py::module_::import("numpy").attr("generic")).release();
  return PyLong_Check(p) || PyFloat_Check(p) || PyComplex_Check(p) || PyBool_Check(p) ||
         py::isinstance(p, ndarray_type()) || PyObject_IsInstance(p, generic.ptr()) == 1 ||
         py::isinstance<py::array>(p);
}

void init_ufunc(py::module_& m) {
  m.def("_set_ufunc_resolver", [](py::object f) { g_resolver = f; });
  // Tracing for cuarray.fuse: a ufunc called with a traced value hands the call to `hook`.
  m.def("_set_fusion_hook", [](py::object traced_type, py::object hook) {
    g_fusion_type = traced_type;
    g_fusion_hook = hook;
  });
  // The table row of a ufunc, for code generation outside the engine (fusion): (body, [loop signatures]).
  m.def("_ufunc_row", [](const std::string& name) {
    const Ufunc& u = ops::ufuncs()[ops::ufunc_index(name)];
    std::vector<std::string> loops;
    for (const auto& l : u.loops) loops.push_back(l.signature);
    return py::make_tuple(u.def.body, loops);
  });
  m.def("_ufunc_names", [] {
    std::vector<std::string> names;
    for (const auto& u : ops::ufuncs()) names.push_back(u.def.name);
    return names;
  });

  py::class_<PyUfunc> ufunc_type(m, "ufunc", py::dynamic_attr());
  ufunc_type.def(py::init([](const std::string& name) { return PyUfunc{ops::ufunc_index(name)}; }))
      .def("__call__", [](const PyUfunc& self, py::args args,
                          py::kwargs kwargs) { return call_ufunc(self, args.ptr(), kwargs.ptr()); })
      .def_property_readonly("nin", [](const PyUfunc& s) { return ops::ufuncs()[s.index].def.nin; })
      .def_property_readonly("nout", [](const PyUfunc& s) { return ops::ufuncs()[s.index].def.nout; })
      .def_property_readonly(
          "nargs", [](const PyUfunc& s) { return ops::ufuncs()[s.index].def.nin + ops::ufuncs()[s.index].def.nout; })
      .def_property_readonly("ntypes", [](const PyUfunc& s) { return ops::ufuncs()[s.index].loops.size(); })
      .def_property_readonly("types",
                             [](const PyUfunc& s) {
                               std::vector<std::string> t;
                               for (const auto& l : ops::ufuncs()[s.index].loops) t.push_back(l.signature);
                               return t;
                             })
      .def("__repr__", [](const PyUfunc& s) { return "<ufunc '" + ops::ufuncs()[s.index].def.name + "'>"; });
  // After every def: `__call__` above is for help() and explicit u.__call__(...); calls take this slot.
  reinterpret_cast<PyTypeObject*>(ufunc_type.ptr())->tp_call = ufunc_slot;

  py::object nd = py::reinterpret_borrow<py::object>(ndarray_type());
  // Python-level names for the operators (help(), reflected calls such as a.__radd__(b)); the slots below
  // are what `a + b` actually runs (Note [Operator slots]).
  const char* arithmetic[][2] = {{"add", "add"},         {"sub", "subtract"},          {"mul", "multiply"},
                                 {"truediv", "divide"},  {"floordiv", "floor_divide"}, {"mod", "remainder"},
                                 {"pow", "power"},       {"and", "bitwise_and"},       {"or", "bitwise_or"},
                                 {"xor", "bitwise_xor"}, {"lshift", "left_shift"},     {"rshift", "right_shift"}};
  for (auto& [op, uf] : arithmetic) {
    int u = index_of(uf);
    std::string plain = "__" + std::string(op) + "__", reflected = "__r" + std::string(op) + "__",
                inplace = "__i" + std::string(op) + "__";
    add_ndarray_member(plain.c_str(), py::cpp_function([u](py::handle a, py::handle b) { return call_binary(u, a, b); },
                                                       py::name(plain.c_str()), py::is_method(nd)));
    add_ndarray_member(reflected.c_str(),
                       py::cpp_function([u](py::handle a, py::handle b) { return call_binary(u, b, a); },
                                        py::name(reflected.c_str()), py::is_method(nd)));
    add_ndarray_member(inplace.c_str(),
                       py::cpp_function([u](py::handle a, py::handle b) { return call_inplace(u, a, b); },
                                        py::name(inplace.c_str()), py::is_method(nd)));
  }
  int divmod = index_of("divmod");
  add_ndarray_member("__divmod__",
                     py::cpp_function([divmod](py::handle a, py::handle b) { return call_binary(divmod, a, b); },
                                      py::name("__divmod__"), py::is_method(nd)));
  add_ndarray_member("__rdivmod__",
                     py::cpp_function([divmod](py::handle a, py::handle b) { return call_binary(divmod, b, a); },
                                      py::name("__rdivmod__"), py::is_method(nd)));
  const char* unary[][2] = {
      {"__neg__", "negative"}, {"__pos__", "positive"}, {"__abs__", "absolute"}, {"__invert__", "invert"}};
  for (auto& [op, uf] : unary) {
    int u = index_of(uf);
    add_ndarray_member(
        op, py::cpp_function([u](py::handle a) { return call_unary(u, a); }, py::name(op), py::is_method(nd)));
  }
  add_ndarray_member("__hash__", py::none());  // mutable arrays are unhashable, as in NumPy
  install_slots(nd);
}

}  // namespace cuarray::bind
