// Bindings for the ndarray type and the array functions of the top-level cuarray module.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <new>
#include <numeric>
#include <optional>

#include "convert.h"
#include "cuarray/cuda/device.h"
#include "cuarray/error.h"
#include "cuarray/ops/copy.h"
#include "cuarray/ops/creation.h"
#include "cuarray/ops/indexing.h"
#include "cuarray/ops/shape_ops.h"
#include "cuarray/ops/transfer.h"
#include "gil.h"
#include "hooks.h"
#include "ndarray.h"
#include "operators.h"

using namespace py::literals;

namespace cuarray::bind {

namespace {

py::handle g_ndarray_type;

py::object numpy() {
  // Never released: a py::object destroyed after the interpreter has finalised crashes the process.
  static py::handle np = py::module_::import("numpy").release();
  return py::reinterpret_borrow<py::object>(np);
}

NdArray owner(Array a) { return NdArray{std::move(a), py::none()}; }

// A host NumPy array -> a new device array with the same values, dtype and (C or F) layout.
NdArray from_numpy(py::handle obj, py::handle dtype) {
  py::array host = dtype.is_none() && py::isinstance<py::array>(obj)
                       ? py::reinterpret_borrow<py::array>(obj)
                       : numpy().attr("asarray")(
                             obj, dtype.is_none() ? py::object(py::none()) : py::reinterpret_borrow<py::object>(dtype));
  // Data in the other byte order (read from a file, say) is swapped on the host: GPUs read native order.
  if (host.dtype().byteorder() == '>') host = host.attr("astype")(host.dtype().attr("newbyteorder")("="));
  // A structured type keeps its fields' byte order, as NumPy does: it is storage, and its bytes go over as they
  // are (a field in the other byte order is refused when it is read as a value).
  ElementType et = to_element_type(host.dtype());
  bool f_layout = host.ndim() > 1 && !(host.flags() & py::array::c_style) && (host.flags() & py::array::f_style);
  if (!f_layout && !(host.flags() & py::array::c_style)) host = numpy().attr("ascontiguousarray")(host);
  Shape shape(host.shape(), host.shape() + host.ndim());
  Array out = new_array(shape, et, f_layout ? Order::F : Order::C);
  const void* src = host.data();
  {
    ReleaseGil nogil;
    ops::copy_from_host(out, src);
  }
  return owner(std::move(out));
}

// The values of `self` in a new NumPy array laid out in `order` ('C', 'F'; 'A' and 'K': F when the array is F-
// but not C-contiguous, as CuPy's get()), or in `out` (any layout; `order` is then ignored, as in CuPy).
py::array to_numpy(const NdArray& self, py::handle out, char order) {
  const Array& a = self.array;
  cuda::DeviceGuard guard(a.device());  // an array of another device is read there, as CuPy's get() does
  py::array host;
  if (!out.is_none()) {
    if (!py::isinstance<py::array>(out)) throw TypeError("Only numpy.ndarray can be obtained from cuarray.ndarray");
    host = py::reinterpret_borrow<py::array>(out);
    Shape out_shape(host.shape(), host.shape() + host.ndim());
    // CuPy's checks and messages: the dtype first, then the shape.
    if (!numpy_dtype_of(a).equal(host.dtype()))
      throw TypeError(py::str(host.dtype()).cast<std::string>() + " array cannot be obtained from " + name(a.dtype()) +
                      " array");
    if (out_shape != a.shape())
      throw ValueError("Shape mismatch. Expected shape: " + shape_str(a.shape()) +
                       ", actual shape: " + shape_str(out_shape));
    if (host.flags() & py::array::c_style)
      order = 'C';
    else if (host.flags() & py::array::f_style)
      order = 'F';
    else {
      numpy().attr("copyto")(host, to_numpy(self, py::none(), 'C'));
      return host;
    }
  }
  const bool f_layout = order == 'F' || ((order == 'A' || order == 'K') && a.f_contiguous() && !a.c_contiguous());
  std::optional<Array> copied;
  const Array* src = &a;
  if (f_layout ? !a.f_contiguous() : !a.c_contiguous()) {
    src = &copied.emplace(Array::of_type(a, a.shape(), f_layout ? Order::F : Order::C));
    ops::copy_into(*copied, a);
  }
  if (out.is_none()) {
    Strides strides = f_layout ? f_strides(a.shape(), a.itemsize()) : c_strides(a.shape(), a.itemsize());
    host = py::array(numpy_dtype_of(a), a.shape(), strides);
  }
  void* dst = host.mutable_data();
  {
    ReleaseGil nogil;
    ops::copy_to_host(dst, *src);
  }
  return host;
}

// An integer index. Past int64 NumPy raises OverflowError where the value fits a C unsigned long (it tried
// one) and IndexError "only integers, slices, ..." beyond, where it gave up on the key: the same here.
std::int64_t index_value(py::handle k) {
  py::object v = py::reinterpret_steal<py::object>(PyNumber_Index(k.ptr()));
  if (!v) throw py::error_already_set();
  int overflow = 0;
  long long n = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (n == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (!overflow) return n;
  PyLong_AsUnsignedLongLong(v.ptr());
  if (!PyErr_Occurred()) raise_overflow("Python int too large to convert to C long");
  PyErr_Clear();
  throw IndexError(
      "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are "
      "valid indices");
}

// astype's casting rule, as NumPy's: TypeError naming the rule where the cast breaks it.
void check_astype_casting(DType from, DType to, const std::string& casting) {
  if (casting == "unsafe") return;
  if (casting == "same_value") {
    PyErr_SetString(PyExc_NotImplementedError,
                    "cuarray: astype(casting='same_value') is not supported; check the values with a round trip "
                    "(x.astype(t).astype(x.dtype) == x) instead");
    throw py::error_already_set();
  }
  py::dtype f = to_numpy_dtype(from), t = to_numpy_dtype(to);
  if (numpy().attr("can_cast")(f, t, casting).cast<bool>()) return;
  throw TypeError("Cannot cast array data from " + py::repr(f).cast<std::string>() + " to " +
                  py::repr(t).cast<std::string>() + " according to the rule '" + casting + "'");
}

// The items of a basic index (ints, slices, None, Ellipsis), or nothing when `key` holds anything else
// (arrays, lists, bools): advanced indexing, which cuarray._indexing handles (and rejects bad keys).
std::optional<std::vector<ops::IndexItem>> to_index(py::handle key) {
  std::vector<ops::IndexItem> items;
  auto add = [&](py::handle k) {
    ops::IndexItem it{ops::IndexItem::Integer};
    if (k.is_none()) {
      it.kind = ops::IndexItem::NewAxis;
    } else if (k.ptr() == Py_Ellipsis) {
      it.kind = ops::IndexItem::Ellipsis;
    } else if (PySlice_Check(k.ptr())) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(k.ptr(), &start, &stop, &step) < 0) throw py::error_already_set();
      it.kind = ops::IndexItem::Slice;
      it.start = start == PY_SSIZE_T_MIN ? INT64_MIN : start == PY_SSIZE_T_MAX ? INT64_MAX : start;
      it.stop = stop == PY_SSIZE_T_MIN ? INT64_MIN : stop == PY_SSIZE_T_MAX ? INT64_MAX : stop;
      it.step = step;
    } else if (!PyBool_Check(k.ptr()) &&
               (PyLong_Check(k.ptr()) || (!PyFloat_Check(k.ptr()) && !is_ndarray(k) && !py::isinstance<py::array>(k) &&
                                          py::hasattr(k, "__index__")))) {
      it.start = index_value(k);
    } else {
      return false;
    }
    items.push_back(it);
    return true;
  };
  if (PyTuple_Check(key.ptr())) {
    for (auto k : py::reinterpret_borrow<py::tuple>(key))
      if (!add(k)) return std::nullopt;
  } else if (!add(key)) {
    return std::nullopt;
  }
  return items;
}

// A diagonal's offset, which NumPy reads as a C int: OverflowError beyond it.
int to_c_int(py::handle obj) {
  std::int64_t v = to_int64(obj);
  if (v > INT_MAX) raise_overflow("signed integer is greater than maximum");
  if (v < INT_MIN) raise_overflow("signed integer is less than minimum");
  return static_cast<int>(v);
}

// `copy()` with `stream` (a cuarray Stream, or None: the current one) current, as CuPy's get and set queue their
// copies on the stream given.
template <class Copy>
auto on_stream(py::handle stream, Copy copy) {
  if (stream.is_none()) return copy();
  stream.attr("__enter__")();
  try {
    auto r = copy();
    stream.attr("__exit__")(py::none(), py::none(), py::none());
    return r;
  } catch (abi::__forced_unwind&) {
    throw;  // no GIL: Note [Exit while waiting] in gil.h
  } catch (...) {
    stream.attr("__exit__")(py::none(), py::none(), py::none());
    throw;
  }
}

// Whether `a` already has the layout astype's `order` asks for, so that copy=False may return it: 'K' any, 'A' C- or
// F-contiguous (it reads as F for an F-contiguous array, else C), 'C' and 'F' their own.
bool keeps_layout(const Array& a, char order) {
  return order == 'K' || (order == 'A' && (a.c_contiguous() || a.f_contiguous())) ||
         (order == 'C' && a.c_contiguous()) || (order == 'F' && a.f_contiguous());
}

// A new array's `order`: 'C' or 'F' in either case. 'K' and 'A' keep an existing array's layout, so NumPy's empty,
// zeros, ones, full and eye refuse them (read after the shape and the dtype, as NumPy reads them).
Order new_array_order(py::handle order) {
  const char o = to_order(order, 'C');
  if (o == 'K' || o == 'A') throw ValueError("only 'C' or 'F' order is permitted");
  return o == 'F' ? Order::F : Order::C;
}

// Uploads a host array of one or more dimensions into `dst`, broadcasting; the shape is checked before the upload,
// and leading length-1 axes beyond dst's rank drop (Note [Assignment shapes]).
void copy_host_into(const Array& dst, const py::array& host) {
  Shape shape(host.shape(), host.shape() + host.ndim());
  while (shape.size() > dst.shape().size() && shape.front() == 1) shape.erase(shape.begin());
  broadcast_strides(shape, Strides(shape.size(), 0), dst.shape());
  ops::copy_into(dst, from_numpy(host, py::none()).array);
}

// Note [Assigned values]
// NumPy converts an assigned host value by its kind. A NumPy array is cast unsafely, as any array cast
// (`a[:] = np.array([300])` wraps into int8). Anything else converts element by element through the element
// type's own conversion: Python numbers, NumPy scalars, strings and the elements of sequences alike, so 300 or
// np.int64(300) into int8 is an OverflowError, NaN into an integer type a ValueError, a complex into a real
// type a TypeError, '7' is parsed, and [2**64 - 1, 0] fills a uint64 array exactly (inferred alone, it would
// be float64). cuarray lets NumPy do that conversion on the host, into the destination's dtype, and uploads
// the result; device arrays and NumPy arrays are cast on the device.

// How deep an assigned sequence may be: NumPy's basic assignment (a[key] = seq) refuses one of more dimensions
// than the view it writes (it drops leading length-1 axes only from arrays), and a key that names one element
// sets it through the dtype's setitem, which refuses arrays and sequences; other callers take any depth.
enum class SequenceDepth { Any, View, Element };

// Writes `value` (scalar, NumPy array, sequence or ndarray) into the view `dst`, broadcasting.
void assign(const Array& dst, py::handle value, SequenceDepth depth = SequenceDepth::Any) {
  if (is_void(dst.dtype())) {
    // Note [Void storage]: NumPy's casts to a structured type (by field, in order) run on the host for host
    // values, and through field views (cuarray._structured) for device arrays of another type.
    if (is_ndarray(value)) {
      const Array& src = value.cast<const NdArray&>().array;
      if (is_void(src.dtype()) && src.descr() == dst.descr())
        ops::copy_into(dst, src);
      else
        hook(Hook::Structured).attr("assign")(NdArray{dst, py::none()}, value);
      return;
    }
    py::array host = numpy().attr("asarray")(value, numpy_dtype_of(dst));
    if (host.ndim() == 0) {
      std::string bytes = void_bytes(host, dst);
      ops::fill(dst, bytes.data());
    } else {
      broadcast_strides(Shape(host.shape(), host.shape() + host.ndim()), Strides(host.ndim(), 0), dst.shape());
      ops::copy_into(dst, from_numpy(host, py::none()).array);
    }
    return;
  }
  PyObject* p = value.ptr();
  if (PyFloat_CheckExact(p) || PyLong_CheckExact(p) || PyBool_Check(p) || PyComplex_CheckExact(p)) {
    std::string bytes = scalar_bytes(value, dst.dtype());  // Python numbers, the common case, first
    ops::fill(dst, bytes.data());
    return;
  }
  if (depth == SequenceDepth::Element) {
    // NumPy sets one element through its dtype's setitem, which refuses arrays and sequences in its own
    // words (TypeError from int(), ValueError for a float, truth values for bool).
    py::object host;
    if (is_ndarray(value) && value.cast<const NdArray&>().array.ndim() > 0)
      host = value.attr("get")();
    else if ((py::isinstance<py::array>(value) && py::reinterpret_borrow<py::array>(value).ndim() > 0) ||
             PyList_Check(p) || PyTuple_Check(p))
      host = py::reinterpret_borrow<py::object>(value);
    if (host) {
      std::string bytes = element_bytes(host, numpy_dtype_of(dst));
      ops::fill(dst, bytes.data());
      return;
    }
  }
  const bool real_dst = !is_complex(dst.dtype()) && dst.dtype() != DType::Bool;  // NumPy warns for these
  if (is_ndarray(value)) {
    const Array& src = value.cast<NdArray&>().array;
    if (real_dst && is_complex(src.dtype())) warn_complex_to_real();
    ops::copy_into(dst, src);
  } else if (py::isinstance<py::array>(value)) {
    // A NumPy array is cast as NumPy casts arrays in an assignment: unsafely (300 wraps into int8).
    py::array host = py::reinterpret_borrow<py::array>(value);
    // A datetime64 or timedelta64 destination converts units and dates on the host, as NumPy does.
    if (is_storage_only(dst.dtype())) host = numpy().attr("asarray")(value, numpy_dtype_of(dst));
    if (host.ndim() == 0) {
      std::string bytes = scalar_bytes(host, dst.dtype());  // NumPy's astype warns of a dropped imaginary part
      ops::fill(dst, bytes.data());
      return;
    }
    if (real_dst && host.dtype().kind() == 'c') warn_complex_to_real();  // the device cast does not
    copy_host_into(dst, host);
  } else if (is_numpy_scalar(value) || py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value)) {
    std::string bytes = element_bytes(value, numpy_dtype_of(dst));
    ops::fill(dst, bytes.data());
  } else if (py::isinstance<py::sequence>(value)) {
    // Note [Assigned values]: a sequence converts element by element as NumPy's assignment converts it.
    py::array host = numpy().attr("asarray")(value, numpy_dtype_of(dst));
    if (depth == SequenceDepth::View && host.ndim() > dst.ndim()) {
      throw ValueError(
          "setting an array element with a sequence. The requested array would exceed the maximum number of "
          "dimension of " +
          std::to_string(dst.ndim()) + ".");
    }
    if (host.ndim() == 0) {
      std::string bytes = scalar_bytes(host, dst.dtype());
      ops::fill(dst, bytes.data());
      return;
    }
    copy_host_into(dst, host);
  } else {
    // A CuPy-like object or another library's device array (a.fill(x), a[...] = x), read as a cuarray array.
    if (!PyFloat_Check(p) && !PyLong_Check(p) && !PyComplex_Check(p) && has_device_protocol(p)) {
      py::object device = device_operand(value);
      if (!device.is_none()) return assign(dst, device);
    }
    std::string bytes = scalar_bytes(value, dst.dtype());
    ops::fill(dst, bytes.data());
  }
}

// A view of a structured array's bytes as another type must meet the device's alignment, which a misaligned load
// would fault on (Note [Void storage]): ValueError unless the address and the strides are multiples of the
// itemsize (every type's alignment). Empty views are read by no kernel.
const Array& check_aligned(const Array& v) {
  if (is_void(v.dtype()) || v.size() == 0) return v;
  const int align = v.itemsize();
  bool ok = reinterpret_cast<std::uintptr_t>(v.data()) % static_cast<std::uintptr_t>(align) == 0;
  for (int i = 0; i < v.ndim(); ++i) ok = ok && (v.shape()[i] <= 1 || v.strides()[i] % align == 0);
  if (!ok)
    throw ValueError("the result array with dtype " + std::string(name(v.dtype())) + " and strides " +
                     shape_str(v.strides()) +
                     " is not sufficiently aligned for GPU access: its address and strides "
                     "must be multiples of " +
                     std::to_string(align) +
                     " bytes (cuarray.make_aligned_dtype pads "
                     "a structured type so)");
  return v;
}

// ndarray.reshape(*shape, order='C', copy=None), as NumPy's. A METH_FASTCALL method (Note [Operator slots]):
// views are taken in loops, and pybind11's dispatcher cost more than the view itself.
PyObject* reshape_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&]() -> py::object {
    PyObject* order_obj = Py_None;
    std::optional<bool> copy;
    for (Py_ssize_t k = 0, nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0; k < nkw; ++k) {
      const char* key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
      if (!key) throw py::error_already_set();
      PyObject* value = args[nargs + k];
      if (!std::strcmp(key, "order"))
        order_obj = value;
      else if (!std::strcmp(key, "copy")) {
        if (PyUnicode_Check(value))  // NumPy's refusal: 'never' and the like are not copy modes
          throw ValueError("strings are not allowed for 'copy' keyword. Use True/False/None instead.");
        copy = value == Py_None ? std::nullopt : std::optional<bool>(truth(value));
      } else
        throw TypeError(std::string("'") + key + "' is an invalid keyword argument for this function");
    }
    if (nargs == 0) throw TypeError("reshape() takes exactly 1 argument (0 given)");
    py::handle self_obj(self);
    const NdArray& s = self_obj.cast<const NdArray&>();
    char order = to_order(order_obj, 'C');
    if (order == 'K') throw ValueError("order 'K' is not permitted for reshaping");
    if (order == 'A') order = s.array.f_contiguous() && !s.array.c_contiguous() ? 'F' : 'C';
    Shape shape;
    if (nargs == 1)
      shape = to_shape(args[0]);
    else
      for (Py_ssize_t i = 0; i < nargs; ++i) shape.push_back(to_integer(args[i]));
    Array r = ops::reshape(s.array, std::move(shape), order, copy);
    if (r.buffer() != s.array.buffer()) {
      // NumPy returns a view of the copy it reshaped (base set, owndata False), as ravel does not.
      py::object copied = to_object(owner(Array(r)));
      return py::cast(NdArray::view_of(copied.cast<const NdArray&>(), copied, std::move(r)));
    }
    return py::cast(NdArray::view_of(s, self_obj, std::move(r)));
  });
}

PyMethodDef g_reshape_def = {"reshape", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(reshape_method)),
                             METH_FASTCALL | METH_KEYWORDS,
                             "reshape($self, /, *shape, order='C', copy=None)\n--\n\n"
                             "A view with a new shape where the strides allow, else a copy; copy=True always copies, "
                             "copy=False raises ValueError where a copy would be needed."};

// Note [Attribute slots]
// What user code reads in loops besides the operators (x.shape, x.dtype, x.ndim, x.size, len(x), x[k], x[k] = v)
// is C functions in the type's getset descriptors and mapping slots, as the operators are (Note [Operator slots]):
// pybind11's property and method dispatch costs several times the read itself. The pybind11 definitions of
// __getitem__, __setitem__ and __len__ stay, for help() and explicit calls; the slots, set after them, are what
// x[k] and len(x) run. Deleting an element is NumPy's ValueError.

PyObject* get_shape(PyObject* self, void*) {
  return guarded([&] { return to_tuple(ndarray_of(self).array.shape()); });
}

// Setting the shape is NumPy's in-place reshape: allowed only where a view can give the new shape.
int set_shape(PyObject* self, PyObject* value, void*) {
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "Cannot delete array shape");
    return -1;
  }
  return slot_call(
      [&] {
        // The holder's value: const only as ndarray_of hands it out.
        auto& s = const_cast<NdArray&>(ndarray_of(self));
        Shape target = ops::infer_shape(to_shape(value), s.array.size());  // NumPy's ValueErrors
        auto strides = target == s.array.shape() ? s.array.strides() : ops::reshape_strides(s.array, target, 'C');
        if (!strides)
          throw py::attribute_error(
              "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the desired "
              "shape.");
        s.array = s.array.view(std::move(target), std::move(*strides));
        return 0;
      },
      -1);
}

PyObject* get_dtype(PyObject* self, void*) {
  return slot_call([&] { return numpy_dtype_of(ndarray_of(self).array).release().ptr(); }, nullptr);
}

PyObject* get_ndim(PyObject* self, void*) {
  return slot_call([&] { return PyLong_FromLong(ndarray_of(self).array.ndim()); }, nullptr);
}

PyObject* get_size(PyObject* self, void*) {
  return slot_call([&] { return PyLong_FromLongLong(ndarray_of(self).array.size()); }, nullptr);
}

// `self` of a method called as a function (ndarray.__getitem__(obj, key)), which Python does not check; the
// slots' is always an ndarray.
py::handle checked_self(py::handle self) {
  if (!is_ndarray(self))
    throw TypeError(std::string("the method needs a cuarray.ndarray, not ") + Py_TYPE(self.ptr())->tp_name);
  return self;
}

// len(x), x[key] and x[key] = value, for the slots and the pybind11 methods alike.
Py_ssize_t length(py::handle self) {
  const Array& a = ndarray_of(self).array;
  if (a.ndim() == 0) throw TypeError("len() of unsized object");
  return static_cast<Py_ssize_t>(a.shape()[0]);
}

// A view for a basic index; cuarray._indexing's result for any other key.
py::object getitem(py::handle self, py::handle key) {
  const NdArray& s = ndarray_of(self);
  auto items = to_index(key);
  if (!items) return hook(Hook::Getitem)(self, key);
  return to_object(NdArray::view_of(s, self, ops::basic_index(s.array, *items)));
}

void setitem(py::handle self, py::handle key, py::handle value) {
  const NdArray& s = ndarray_of(self);
  auto items = to_index(key);
  if (!items) {
    hook(Hook::Setitem)(self, key, value);
    return;
  }
  // A key of one integer per axis names one element (z[()] too, for a 0-d array).
  bool element = static_cast<int>(items->size()) == s.array.ndim();
  for (const auto& it : *items) element = element && it.kind == ops::IndexItem::Integer;
  assign(ops::basic_index(s.array, *items), value, element ? SequenceDepth::Element : SequenceDepth::View);
}

Py_ssize_t length_slot(PyObject* self) {
  return slot_call([&] { return length(self); }, Py_ssize_t{-1});
}

PyObject* subscript_slot(PyObject* self, PyObject* key) {
  return guarded([&] { return getitem(self, key); });
}

int ass_subscript_slot(PyObject* self, PyObject* key, PyObject* value) {
  if (!value) {
    PyErr_SetString(PyExc_ValueError, "cannot delete array elements");
    return -1;
  }
  return slot_call(
      [&] {
        setitem(self, key, value);
        return 0;
      },
      -1);
}

PyGetSetDef g_getsets[] = {
    {"shape", get_shape, set_shape,
     "The length of each axis, a tuple; setting it reshapes the array in place where a view can.", nullptr},
    {"dtype", get_dtype, nullptr, "The element type, a `numpy.dtype`.", nullptr},
    {"ndim", get_ndim, nullptr, "The number of axes.", nullptr},
    {"size", get_size, nullptr, "The number of elements.", nullptr},
};

void install_attribute_slots(py::handle type) {
  auto* t = reinterpret_cast<PyHeapTypeObject*>(type.ptr());
  for (PyGetSetDef& def : g_getsets) {
    py::object descr = py::reinterpret_steal<py::object>(PyDescr_NewGetSet(&t->ht_type, &def));
    if (!descr) throw py::error_already_set();
    py::setattr(type, def.name, descr);
  }
  t->as_mapping.mp_length = length_slot;
  t->as_sequence.sq_length = length_slot;
  t->as_mapping.mp_subscript = subscript_slot;
  t->as_mapping.mp_ass_subscript = ass_subscript_slot;
  PyType_Modified(&t->ht_type);
}

}  // namespace

py::handle ndarray_type() { return g_ndarray_type; }

void uninitialised(py::handle h) {
  throw TypeError("this " + py::str(py::type::handle_of(h).attr("__name__")).cast<std::string>() +
                  " was made by ndarray.__new__ and never initialised: it has no shape, dtype or memory; call "
                  "ndarray.__init__(self, shape, dtype, ...) on it, or make arrays with cuarray.ndarray(shape, dtype)");
}

// Note [Recycled array objects]
// Making a result object and freeing it cost a small op about as much as the rest of its host work: the Python
// object's memory, the NdArray's, and the entry in pybind11's map of instances (a hash-table node) are allocated
// and freed once each. So the ndarray type's dealloc keeps up to kRecycled dead objects of the exact type as
// they are, their NdArray destroyed in place but its memory, holder and map entry kept, and to_object constructs
// the next NdArray in one of them: no allocation and no map update. Only an instance pybind11 would free in
// full is kept (simple layout, owned, constructed, registered, no weak references or kept-alive patients);
// subclasses' instances and everything else go through pybind11's dealloc. An object kept is unreachable
// (its count went to zero, and no C++ pointer maps to its NdArray's memory but its own), so the map's entry
// finds no one. A slot is reserved before the NdArray is destroyed: its destructor may free other arrays (its
// base) or run code that makes arrays, and must find the list consistent.
namespace {
#ifndef Py_GIL_DISABLED  // the list is guarded by Python's lock
constexpr int kRecycled = 64;
#else
constexpr int kRecycled = 0;
#endif
PyObject* g_recycled[kRecycled > 0 ? kRecycled : 1];
int g_n_recycled = 0, g_reserved = 0;
destructor g_pybind11_dealloc = nullptr;

void ndarray_dealloc(PyObject* self) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  if (Py_TYPE(self) != reinterpret_cast<PyTypeObject*>(g_ndarray_type.ptr()) ||
      g_n_recycled + g_reserved >= kRecycled || !inst->simple_layout || !inst->owned ||
      !inst->simple_holder_constructed || !inst->simple_instance_registered || inst->weakrefs || inst->has_patients) {
    g_pybind11_dealloc(self);
    return;
  }
  ++g_reserved;
  {
    py::error_scope keep;  // as pybind11's dealloc: the destructor runs with the error indicator set aside
    static_cast<NdArray*>(inst->simple_value_holder[0])->~NdArray();
  }
  --g_reserved;
  g_recycled[g_n_recycled++] = self;
  Py_DECREF(Py_TYPE(self));  // an instance holds a reference to its heap type; PyObject_Init takes it again
}
}  // namespace

py::object to_object(NdArray&& value) {
  // Note [New array objects]: what py::cast does for a moved value, past its look-ups.
  static const py::detail::type_info* type = py::detail::get_type_info(typeid(NdArray), true);
  if (g_n_recycled > 0) {  // Note [Recycled array objects]
    PyObject* self = g_recycled[--g_n_recycled];
    new (reinterpret_cast<py::detail::instance*>(self)->simple_value_holder[0]) NdArray(std::move(value));
    PyObject_Init(self, type->type);
    return py::reinterpret_steal<py::object>(self);
  }
  auto obj = py::reinterpret_steal<py::object>(py::detail::make_new_instance(type->type));
  auto* inst = reinterpret_cast<py::detail::instance*>(obj.ptr());
  inst->owned = true;
  inst->get_value_and_holder().value_ptr() = new NdArray(std::move(value));
  type->init_instance(inst, nullptr);
  return obj;
}

void add_ndarray_member(const char* name, py::handle value) {
  if (PyDict_GetItemString(reinterpret_cast<PyTypeObject*>(g_ndarray_type.ptr())->tp_dict, name) != nullptr)
    throw std::logic_error(std::string("cuarray._core: ndarray already has a member '") + name + "'");
  py::setattr(g_ndarray_type, name, value);
}

NdArray to_ndarray(py::handle obj) {
  if (is_ndarray(obj)) return obj.cast<NdArray>();
  return from_numpy(obj, py::none());
}

void init_array(py::module_& m) {
  py::class_<NdArray> cls(m, "ndarray");
  g_ndarray_type = cls;
  g_pybind11_dealloc = reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_dealloc;
  reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_dealloc = ndarray_dealloc;  // Note [Recycled array objects]
  {
    py::object reshape = py::reinterpret_steal<py::object>(
        PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), &g_reshape_def));
    if (!reshape) throw py::error_already_set();
    py::setattr(cls, "reshape", reshape);
  }
  // CuPy's ndarray(shape, dtype=float, memptr=None, strides=None, order='C'); memptr is a MemoryPointer
  // (x.data, or x.data + offset), whose array the new one is a view of.
  cls.def(py::init([](py::handle shape, py::handle dtype, py::handle memptr, py::handle strides, py::handle order) {
            char o = to_order(order, 'C');
            if (o != 'C' && o != 'F') throw ValueError("order must be 'C' or 'F'");
            std::shared_ptr<cuda::Buffer> buffer;
            std::int64_t offset = 0, limit = -1;
            py::object base = py::none();
            if (!memptr.is_none()) {
              // Only a missing _owner means "not ours": its own error (memory freed by free()) propagates.
              py::object src = py::none();
              if (PyObject* o = PyObject_GetAttrString(memptr.ptr(), "_owner"))
                src = py::reinterpret_steal<py::object>(o);
              else if (PyErr_ExceptionMatches(PyExc_AttributeError))
                PyErr_Clear();
              else
                throw py::error_already_set();
              if (!is_ndarray(src))
                throw TypeError("memptr must be a cuarray MemoryPointer (x.data, or x.data + offset) or None");
              const NdArray& a = src.cast<const NdArray&>();
              buffer = a.array.buffer();
              offset = memptr.attr("ptr").cast<std::int64_t>() - reinterpret_cast<std::int64_t>(buffer->ptr());
              base = a.base.is_none() ? src : a.base;
              // The buffer is the memory of the array that owns it, as NumPy's is the base's; an array over
              // another library's memory has that library's object as its base, and spans the memory itself.
              const Array& owner = is_ndarray(base) ? base.cast<const NdArray&>().array : a.array;
              limit = owner.offset() + byte_extent(owner.shape(), owner.strides(), owner.itemsize()).second;
            }
            std::optional<Strides> st;
            if (!strides.is_none()) st = to_shape(strides);
            ElementType et = to_element_type(dtype);
            Array r = Array::from_memory(std::move(buffer), offset, to_shape(shape), std::move(st), et.dtype,
                                         o == 'F' ? Order::F : Order::C, limit, et.itemsize, et.descr);
            return NdArray{std::move(r), base};
          }),
          "shape"_a, "dtype"_a = py::none(), "memptr"_a = py::none(), "strides"_a = py::none(), "order"_a = "C");
  cls.def_property_readonly("strides", [](const NdArray& s) { return to_tuple(s.array.strides()); })
      .def_property_readonly("itemsize", [](const NdArray& s) { return s.array.itemsize(); })
      .def_property_readonly("nbytes", [](const NdArray& s) { return s.array.nbytes(); })
      .def_property_readonly("base", [](const NdArray& s) { return s.base; })
      .def_property_readonly("_device_id", [](const NdArray& s) { return s.array.device(); })
      .def_property_readonly("_ptr", [](const NdArray& s) { return reinterpret_cast<std::uintptr_t>(s.array.data()); })
      // The whole allocation the array lives in (a cuda DeviceMemory; None for an array without one): x.data.mem.
      .def_property_readonly("_allocation", [](const NdArray& s) { return s.array.buffer(); })
      .def_property_readonly("_c_contiguous", [](const NdArray& s) { return s.array.c_contiguous(); })
      .def_property_readonly("_f_contiguous", [](const NdArray& s) { return s.array.f_contiguous(); })
      .def("__len__", [](py::handle self) { return length(checked_self(self)); })
      .def("__getitem__", [](py::handle self, py::handle key) { return getitem(checked_self(self), key); })
      .def("__setitem__",
           [](py::handle self, py::handle key, py::handle value) { setitem(checked_self(self), key, value); })
      .def("transpose",
           [](py::object self, py::args axes) {
             const NdArray& s = self.cast<const NdArray&>();
             std::vector<std::int64_t> ax;
             // NumPy reads the axes as it reads a shape: any sequence, ValueError past int64.
             const bool given = axes.size() > 1 || (axes.size() == 1 && !axes[0].is_none());
             if (axes.size() == 1 && given)
               ax = to_shape(axes[0]);
             else if (given)
               ax = to_shape(axes);
             // An empty permutation is the core's "reversed"; given for a 1-D or wider array, it is NumPy's error.
             if (given && ax.empty() && s.array.ndim() > 0) throw ValueError("axes don't match array");
             return NdArray::view_of(s, self, ops::transpose(s.array, ax));
           })
      .def_property_readonly("T",
                             [](py::object self) {
                               const NdArray& s = self.cast<const NdArray&>();
                               return NdArray::view_of(s, self, ops::transpose(s.array));
                             })
      .def("swapaxes",
           [](py::object self, py::handle a1, py::handle a2) {
             const NdArray& s = self.cast<const NdArray&>();
             return NdArray::view_of(s, self, ops::swapaxes(s.array, to_int64(a1), to_int64(a2)));
           })
      .def(
          "squeeze",
          [](py::object self, py::handle axis) {
            const NdArray& s = self.cast<const NdArray&>();
            std::optional<std::vector<std::int64_t>> axes;
            if (!axis.is_none()) axes = to_axes(axis);
            // NumPy's 0-d case: one integer axis, 0 or -1, is taken as the axis of a 1-D array (a tuple is not).
            if (axes && s.array.ndim() == 0 && !PyTuple_Check(axis.ptr()) && axes->size() == 1 &&
                ((*axes)[0] == 0 || (*axes)[0] == -1))
              axes->clear();
            return NdArray::view_of(s, self, ops::squeeze(s.array, axes));
          },
          "axis"_a = py::none())
      .def("_expand_dims",
           [](py::object self, py::handle axis) {
             const NdArray& s = self.cast<const NdArray&>();
             return NdArray::view_of(s, self, ops::expand_dims(s.array, to_axis_list(axis)));
           })
      .def(
          "diagonal",
          [](py::object self, py::handle offset, py::handle axis1, py::handle axis2) {
            const NdArray& s = self.cast<const NdArray&>();
            Array d = ops::diagonal(s.array, to_c_int(offset), to_int64(axis1), to_int64(axis2));
            return NdArray::view_of(s, self, std::move(d));
          },
          "offset"_a = 0, "axis1"_a = 0, "axis2"_a = 1)
      .def("_broadcast_to",
           [](py::object self, py::handle shape) {
             const NdArray& s = self.cast<const NdArray&>();
             return NdArray::view_of(s, self, ops::broadcast_to(s.array, to_shape(shape)));
           })
      .def("_view_as",
           [](py::object self, py::handle dtype) {
             const NdArray& s = self.cast<const NdArray&>();
             ElementType et = to_element_type(dtype);
             if (et.itemsize != s.array.itemsize())
               throw ValueError("view: dtypes must have the same itemsize in cuarray");
             Array v = is_void(et.dtype) ? s.array.view_void(et.itemsize, et.descr) : s.array.view(et.dtype);
             return NdArray::view_of(s, self, check_aligned(v));
           })
      // A view of the field at byte `offset` of a structured array, of element type `dtype` (Note [Void storage];
      // cuarray._structured checks the field's alignment).
      .def("_field_view",
           [](py::object self, std::int64_t offset, py::handle dtype) {
             const NdArray& s = self.cast<const NdArray&>();
             ElementType et = to_element_type(dtype);
             if (!is_void(s.array.dtype()) || offset < 0 || offset + et.itemsize > s.array.itemsize())
               throw ValueError("_field_view: the field lies outside the structured element");
             Array at = s.array.view(s.array.shape(), s.array.strides(), offset);
             Array v = is_void(et.dtype) ? at.view_void(et.itemsize, et.descr) : at.view(et.dtype);
             return NdArray::view_of(s, self, check_aligned(v));
           })
      // The real (imag=False) or imaginary part of a complex array: a view of the same memory with the float
      // dtype of half the itemsize, the imaginary part one float further on (NumPy's and CuPy's .real, .imag).
      .def(
          "_part",
          [](py::object self, bool imag) {
            const NdArray& s = self.cast<const NdArray&>();
            if (!is_complex(s.array.dtype())) throw TypeError("_part: the array must be complex");
            DType part = s.array.dtype() == DType::Complex64 ? DType::Float32 : DType::Float64;
            Array view = s.array.view(s.array.shape(), s.array.strides(), imag ? itemsize(part) : 0).view(part);
            return NdArray::view_of(s, self, std::move(view));
          },
          "imag"_a)
      .def(
          "astype",
          [](py::object self, py::handle dtype, py::handle order, py::handle casting, py::handle subok,
             py::handle copy_arg) {
            const NdArray& s = self.cast<const NdArray&>();
            // NumPy reads copy by its truth and subok as an integer.
            const int copy = PyObject_IsTrue(copy_arg.ptr());
            if (copy < 0) throw py::error_already_set();
            to_int64(subok);
            char o = to_order(order, 'K');
            const ElementType et = to_element_type(dtype);
            if (is_void(s.array.dtype()) || is_void(et.dtype)) {
              // Note [Void storage]: equal types copy bytes; casts go field by field in Python.
              if (is_void(et.dtype) && et.descr == s.array.descr()) {
                if (!copy && keeps_layout(s.array, o)) return self;
                return py::cast(owner(ops::astype(s.array, DType::Void, o)));
              }
              return hook(Hook::Structured).attr("astype")(self, dtype, py::str(std::string(1, o)), casting);
            }
            const DType dt = et.dtype;
            check_astype_casting(s.array.dtype(), dt, to_casting(casting, true));
            if (is_complex(s.array.dtype()) && !is_complex(dt) && dt != DType::Bool) warn_complex_to_real();
            if (!copy && dt == s.array.dtype() && keeps_layout(s.array, o)) return self;
            return py::cast(owner(ops::astype(s.array, dt, o)));
          },
          "dtype"_a, "order"_a = "K", "casting"_a = "unsafe", "subok"_a = true, "copy"_a = true)
      .def(
          "copy",
          [](const NdArray& s, py::handle order) {
            return owner(ops::astype(s.array, s.array.dtype(), to_order(order, 'C')));
          },
          "order"_a = "C")
      .def(
          "flatten",
          [](const NdArray& s, py::handle order) {
            char o = to_order(order, 'C');
            const Array& a = s.array;
            if (o == 'A') o = a.f_contiguous() && !a.c_contiguous() ? 'F' : 'C';
            if (o != 'K') return owner(ops::reshape(ops::astype(a, a.dtype(), o), {-1}, o));
            // NumPy's iterator's order 'K' (broadcast axes keep their C places), then a C-ordered copy.
            Array in_k_order = ops::transpose(a, k_order_axes(a.shape(), a.strides()));
            return owner(ops::reshape(ops::astype(in_k_order, a.dtype(), 'C'), {-1}, 'C'));
          },
          "order"_a = "C")
      .def(
          "fill",
          [](const NdArray& s, py::handle value) {
            // NumPy's fill takes one value: a 0-d array, never an array of values.
            if ((is_ndarray(value) && value.cast<NdArray&>().array.ndim() != 0) ||
                (py::isinstance<py::array>(value) && py::reinterpret_borrow<py::array>(value).ndim() != 0))
              throw ValueError("setting an array element with a sequence.");
            // Note [fill's value]: NumPy converts any other object by its scalar rules, not as an assignment
            // would (a sequence fills a bool array with its truth and is an error for numbers, where
            // `a[...] = (1, 2)` assigns two values); NumPy's own fill of one host element converts it, raising
            // NumPy's errors. Numbers, arrays and array-likes (one value each) go to the assignment, and so does
            // a tuple for a structured element.
            const auto numpy_converts = [&] {
              if (value.is_none() || py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value)) return true;
              if (s.array.dtype() == DType::Void || !PySequence_Check(value.ptr())) return false;
              for (const char* protocol :
                   {"__cuda_array_interface__", "__dlpack__", "__array_interface__", "__array__"})
                if (py::hasattr(value, protocol)) return false;
              return true;
            };
            if (numpy_converts()) {
              py::object host = numpy().attr("empty")(1, numpy_dtype_of(s.array));
              host.attr("fill")(value);
              assign(s.array, host[py::int_(0)]);
              return;
            }
            assign(s.array, value);
          },
          "value"_a)
      // blocking=False is accepted: the copy is complete on return, which a caller of either kind may rely on.
      .def(
          "get",
          [](const NdArray& s, py::handle stream, py::handle order, py::handle out, bool /*blocking*/) {
            char o = to_order(order, 'C');
            return on_stream(stream, [&] { return to_numpy(s, out, o); });
          },
          "stream"_a = py::none(), "order"_a = "C", "out"_a = py::none(), "blocking"_a = true)
      .def(
          "set",
          [](const NdArray& s, py::handle arr, py::handle stream) {
            if (!py::isinstance<py::array>(arr)) throw TypeError("Only numpy.ndarray can be set to cuarray.ndarray");
            py::array host = arr.cast<py::array>();
            Shape shape(host.shape(), host.shape() + host.ndim());
            // CuPy's checks and messages: the dtype first, then the shape.
            if (!numpy_dtype_of(s.array).equal(host.dtype()))
              throw TypeError(py::str(host.dtype()).cast<std::string>() + " array cannot be set to " +
                              name(s.array.dtype()) + " array");
            if (shape != s.array.shape())
              throw ValueError("Shape mismatch. Old shape: " + shape_str(s.array.shape()) +
                               ", new shape: " + shape_str(shape));
            on_stream(stream, [&] {
              ops::copy_into(s.array, from_numpy(host, py::none()).array);
              return 0;
            });
          },
          "arr"_a, "stream"_a = py::none());
  install_attribute_slots(cls);  // after the definitions above, which set the slots it replaces

  m.def("_from_numpy", &from_numpy, "obj"_a, "dtype"_a = py::none());
  // The axes in which NumPy's iterator reads `a` in order 'K' (ravel's and flatten's).
  m.def("_k_order_axes", [](const NdArray& a) { return k_order_axes(a.array.shape(), a.array.strides()); });
  m.def(
      "_copy_from_device",
      [](const NdArray& a) {
        return NdArray{ops::copy_from_device(a.array), py::none()};
      },
      "a"_a);
  m.def("_copyto", [](const NdArray& dst, const NdArray& src) {
    if (is_void(dst.array.dtype()) && src.array.descr() != dst.array.descr())
      assign(dst.array, py::cast(src));  // another type: cast by field (Note [Void storage])
    else
      ops::copy_into(dst.array, src.array);
  });
  m.def("_assign", [](const NdArray& dst, py::handle value) { assign(dst.array, value); });
  m.def(
      "empty",
      [](py::handle shape, py::handle dtype, py::handle order) {
        Shape s = to_shape(shape);
        ElementType et = to_element_type(dtype);
        return owner(new_array(std::move(s), et, new_array_order(order)));
      },
      "shape"_a, "dtype"_a = py::none(), "order"_a = "C");
  m.def("_empty_like", [](const NdArray& a, py::handle dtype) {
    ElementType et = to_element_type(dtype);
    if (!is_void(et.dtype)) return owner(Array::like(a.array, et.dtype));
    return owner(Array::like(a.array.view_void(et.itemsize, et.descr), DType::Void));
  });
  // A new array laid out in its inputs' common memory order (Note [Layout of new arrays]): np.concatenate's rule,
  // or with `iterator` NumPy's iterator's (a scan's result, laid out as its input with broadcast axes ignored).
  m.def(
      "_empty_like_all",
      [](py::handle shape, py::handle dtype, const std::vector<py::handle>& arrays, bool iterator) {
        Shape s = to_shape(shape);
        ElementType et = to_element_type(dtype);
        if (is_void(et.dtype)) return owner(new_array(std::move(s), et, Order::C));
        std::vector<const Array*> operands;
        for (py::handle a : arrays) {
          if (!is_ndarray(a)) throw TypeError("_empty_like_all takes cuarray arrays");
          operands.push_back(&ndarray_of(a).array);
        }
        return owner(Array::like_all(s, et.dtype, operands.data(), static_cast<int>(operands.size()),
                                     iterator ? LayoutRule::Iterator : LayoutRule::Concatenate));
      },
      "shape"_a, "dtype"_a, "arrays"_a, "iterator"_a = false);
  m.def(
      "zeros",
      [](py::handle shape, py::handle dtype, py::handle order) {
        Shape s = to_shape(shape);
        ElementType et = to_element_type(dtype);
        const Order o = new_array_order(order);
        if (!is_void(et.dtype)) return owner(ops::zeros(std::move(s), et.dtype, o));
        Array out = new_array(std::move(s), et, o);
        ops::fill(out, std::string(static_cast<std::size_t>(et.itemsize), '\0').data());
        return owner(std::move(out));
      },
      "shape"_a, "dtype"_a = py::none(), "order"_a = "C");
  m.def(
      "_full",
      [](py::handle shape, py::handle value, py::handle dtype, py::handle order) {
        Shape s = to_shape(shape);
        ElementType et = to_element_type(dtype);
        Array out = new_array(std::move(s), et, new_array_order(order));
        if (is_void(et.dtype))
          assign(out, value);
        else
          ops::fill(out, scalar_bytes(value, et.dtype).data());
        return owner(std::move(out));
      },
      "shape"_a, "value"_a, "dtype"_a, "order"_a = "C");
  m.def("_arange", [](std::int64_t n, py::handle first, py::handle second, py::handle dtype) {
    DType dt = to_dtype(dtype);
    std::string a = scalar_bytes(first, dt), b = scalar_bytes(second, dt);
    return owner(ops::arange(n, a.data(), b.data(), dt));
  });
  m.def("_linspace", [](std::complex<double> start, std::complex<double> stop, std::int64_t num, bool endpoint,
                        py::handle dtype, bool complex_bounds) {
    return owner(ops::linspace(start, stop, num, endpoint, to_dtype(dtype), complex_bounds));
  });
  m.def("_eye", [](std::int64_t n, std::int64_t m_, std::int64_t k, py::handle dtype, py::handle order) {
    DType dt = to_dtype(dtype);
    const Order o = new_array_order(order);
    if (n < 0 || m_ < 0) throw ValueError("negative dimensions are not allowed");
    return owner(ops::eye(n, m_, k, dt, o));
  });
}

}  // namespace cuarray::bind
