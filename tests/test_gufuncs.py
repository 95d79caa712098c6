"""Generalized ufuncs from Python functions (Note [Generalized ufuncs] in cuarray/_gufuncs.py), as CuPy's
_GUFunc: NumPy's rules for core dimensions, axes=, axis=, keepdims=, out=, dtype=, order=, type signatures,
optional (n?) and broadcastable (n|1) dimensions. Signature parsing needs no GPU."""

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing
from cuarray._gufuncs import _GUFunc, _parse_gufunc_signature


def shaped(shape, xp, dtype="f4"):
    """1, 2, ... in `shape`: every element differs, so a moved axis shows."""
    return xp.asarray(np.arange(1, 1 + int(np.prod(shape))).reshape(shape).astype(dtype))


# ---- no GPU needed ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "signature, inputs, outputs, n",
    [
        (
            "(i,j)->(i,j)",
            [(("i", False, False), ("j", False, False))],
            [(("i", False, False), ("j", False, False))],
            2,
        ),
        ("->(i)", [()], [(("i", False, False),)], 1),
        ("()->()", [()], [()], 0),
        (
            "(i?, j|1),(i?,j) -> (i?,j)",
            [(("i", True, False), ("j", False, True)), (("i", True, False), ("j", False, False))],
            [(("i", True, False), ("j", False, False))],
            2,
        ),
        (
            "(m,n),(n,p)->(m,p),()",
            [(("m", False, False), ("n", False, False)), (("n", False, False), ("p", False, False))],
            [(("m", False, False), ("p", False, False)), ()],
            3,
        ),
    ],
)
def test_signature_parsing(signature, inputs, outputs, n):
    assert _parse_gufunc_signature(signature) == (inputs, outputs, n)


@pytest.mark.parametrize(
    "signature",
    ["(i,j)(i,j)", "(i,j)-(i,j)", "(i,j)(i,j)->(i,j)", "j->(i", "", "()->()->", "(i?|1)->()", "(1)->()"],
)
def test_invalid_signatures(signature):
    with pytest.raises(ValueError):
        _parse_gufunc_signature(signature)


@pytest.mark.parametrize("sigs", [("i",), ("",), (("iii->i", None),), (("ii->", None),), (("i", None),)])
def test_invalid_type_signatures(sigs):
    with pytest.raises(ValueError):
        _GUFunc(lambda x, y: x + y, "(i),(i)->(i)", signatures=sigs)


# ---- GPU ----------------------------------------------------------------------------------------


def identity(x):
    return x


def total(x):
    return x.sum()


@pytest.mark.gpu
class TestAxes:
    @pytest.mark.parametrize(
        "axes", [((-1, -2), (-1, -2)), ((0, 1), (-1, -2)), ((1, 2), (2, 3)), ((0, 3), (2, 0))]
    )
    @testing.numpy_cuarray_array_equal()
    def test_axes(self, xp, axes):
        x = shaped((2, 3, 4, 5), xp)
        if xp is np:
            return np.moveaxis(x, axes[0], axes[1])
        return _GUFunc(identity, "(i,j)->(i,j)")(x, axes=list(axes))

    @pytest.mark.parametrize("axes", [(-1, -2), (0, 3), (2, 0)])
    @testing.numpy_cuarray_array_equal()
    def test_single_axes(self, xp, axes):
        x = shaped((2, 3, 4, 5), xp)
        if xp is np:
            return np.moveaxis(x, axes[0], axes[1])
        return _GUFunc(identity, "(i)->(i)")(x, axes=list(axes))

    @pytest.mark.parametrize("axis", [0, 2, -1])
    @pytest.mark.parametrize("keepdims", [True, False])
    @pytest.mark.parametrize("batched", [True, False])
    @testing.numpy_cuarray_array_equal()
    def test_axis_keepdims(self, xp, axis, keepdims, batched):
        x = shaped((2, 3, 4), xp)
        if xp is np:
            return x.sum(axis=axis, keepdims=keepdims)
        if batched:
            g = _GUFunc(
                lambda x, out=None: x.sum(axis=-1, out=out),
                "(i)->()",
                supports_batched=True,
                supports_out=True,
            )
        else:
            g = _GUFunc(total, "(i)->()")
        return g(x, axis=axis, keepdims=keepdims)

    def test_axis_needs_one_core_dimension(self):
        x = shaped((2, 3, 4), cp)
        with pytest.raises(ValueError):
            _GUFunc(identity, "(i,j)->(i,j)")(x, axis=((0, 1), (0, 1)))

    @pytest.mark.parametrize("batched", [True, False])
    def test_batched(self, batched):
        seen = []

        def func(x):
            seen.append(x.ndim)
            return x

        _GUFunc(func, "(i,j)->(i,j)", supports_batched=batched)(shaped((2, 3, 4, 5), cp))
        assert seen == ([4] if batched else [2] * 6)


@pytest.mark.gpu
class TestOutAndTypes:
    def test_out(self):
        x = shaped((2, 3, 4), cp)
        out = cp.empty((2, 3, 4))
        assert _GUFunc(identity, "(i,j)->(i,j)")(x, out=out) is out
        testing.assert_array_equal(out, x)

    def test_out_passed_to_func(self):
        x = shaped((2, 3, 4), cp)
        out = cp.empty((2, 3, 4))

        def func(x, out=None):
            assert out.base is out_base
            out[...] = x

        out_base = out
        _GUFunc(func, "(i,j)->(i,j)", supports_out=True)(x, out=out)
        testing.assert_array_equal(out, x)

    @pytest.mark.parametrize(
        "out_shape, out_dtype, error", [((3, 3, 4), "f8", ValueError), ((2, 3, 4), "h", TypeError)]
    )
    def test_bad_out(self, out_shape, out_dtype, error):
        x = shaped((2, 3, 4), cp, dtype="f8")
        with pytest.raises(error):
            _GUFunc(identity, "(i,j)->(i,j)")(x, out=cp.empty(out_shape, out_dtype))

    @pytest.mark.parametrize("dtype", ["f4", "i2", "u8"])
    def test_dtype(self, dtype):
        x = shaped((2, 3), cp, dtype="f8")
        z = _GUFunc(identity, "(i)->(i)")(x, dtype=dtype)
        assert z.dtype == dtype
        testing.assert_array_equal(z, x.get().astype(dtype))

    def test_type_signatures(self):
        called = []
        sigs = (
            ("ii->i", lambda x, y: called.append("i") or x + y),
            ("dd->d", lambda x, y: called.append("d") or x + y),
        )
        g = _GUFunc(lambda x, y: called.append("default") or x + y, "(i),(i)->(i)", signatures=sigs)
        for t in "fdihq":
            g(cp.array([10], t), cp.array([10], t), casting="no")
        assert called == ["default", "d", "i", "default", "default"]
        for sig in ("ii->i", "i", ("i", "i", "i")):
            z = g(cp.array([1.5]), cp.array([2.5]), casting="unsafe", signature=sig)
            assert z.dtype == np.int32
            testing.assert_array_equal(z, np.array([3], np.int32))
        for sig in ("i->i", "id->i", ""):
            with pytest.raises(TypeError):
                g(cp.array([1.0]), cp.array([2.0]), casting="unsafe", signature=sig)
        with pytest.raises(TypeError):  # a double does not cast to int under same_kind
            g(cp.array([1.0]), cp.array([2.0]), signature="ii->i")

    @pytest.mark.parametrize("order", ["C", "F", "K"])
    @testing.numpy_cuarray_array_equal(strides_check=True)
    def test_order(self, xp, order):
        x = shaped((2, 3, 4), xp)
        if xp is np:
            return np.asarray(x, order=order)
        return _GUFunc(identity, "(i,j,k)->(i,j,k)")(x, order=order)

    @pytest.mark.parametrize("orders", [("F", "C", "C"), ("F", "F", "F")])
    def test_order_a(self, orders):
        x = cp.asarray(shaped((2, 3, 4), np), order=orders[0])
        y = cp.asarray(shaped((2, 3, 4), np), order=orders[1])
        z = _GUFunc(lambda x, y: x, "(i,j,k),(i,j,k)->(i,j,k)")(x, y, order="A")
        assert z.flags.c_contiguous if orders[2] == "C" else z.flags.f_contiguous


@pytest.mark.gpu
class TestDimensions:
    @pytest.mark.parametrize("x_ndim, y_ndim", [(2, 2), (3, 2), (2, 3), (4, 3), (4, 4), (6, 6)])
    def test_optional(self, x_ndim, y_ndim):
        def func(x, y):  # omitted optional dimensions come as 1, outer ones one index at a time
            assert x.ndim == y.ndim == 4
            return cp.ones(x.shape[1:-1] + (x.shape[0], x.shape[-1]) + y.shape[2:] + (y.shape[1], y.shape[0]))

        g = _GUFunc(func, "(a?,b,c,d?),(i?,j?,k,l)->(b,c,a?,d?,k,l,j?,i?)")
        xs, ys = tuple(range(1, x_ndim + 1)), tuple(range(1, y_ndim + 1))
        res = g(cp.ones(xs), cp.ones(ys))
        outer = (1, 2) if x_ndim == 6 else ()
        xs, ys = (xs[2:], ys[2:]) if x_ndim == 6 else (xs, ys)
        core = {2: xs, 3: xs, 4: xs[1:-1] + (xs[0], xs[-1])}[len(xs)]
        core += {2: ys, 3: ys[1:] + (ys[0],), 4: ys[2:] + (ys[1], ys[0])}[len(ys)]
        assert res.shape == outer + core

    def test_optional_omitted_by_one_operand(self):
        g = _GUFunc(lambda x, y: x, "(a?,b?),(b,a?)->(a?,b?)")
        with pytest.raises(ValueError):
            g(cp.ones(2), cp.ones((2, 2)))
        with pytest.raises(ValueError):
            g(cp.ones((2, 2)), cp.ones(2))

    @pytest.mark.parametrize(
        "x_shape, y_shape", [((2, 1), (2, 3)), ((1, 1), (2, 1)), ((2, 3), (1, 3)), ((1, 1), (1, 1))]
    )
    def test_broadcastable(self, x_shape, y_shape):
        g = _GUFunc(lambda x, y: cp.ones(cp.broadcast_shapes(x.shape, y.shape)), "(i|1,j|1),(i|1,j)->(i,j)")
        assert g(cp.ones(x_shape), cp.ones(y_shape)).shape == np.broadcast_shapes(x_shape, y_shape)

    def test_not_broadcastable(self):
        g = _GUFunc(lambda x, y: x, "(i|1,j|1),(i|1,j)->(i,j)")
        with pytest.raises(ValueError):
            g(cp.ones((2, 3)), cp.ones((2, 1)))

    @testing.numpy_cuarray_allclose()
    def test_outer_dimensions_broadcast(self, xp):
        x = shaped((4, 1, 2, 3), xp)
        y = shaped((5, 3, 2), xp)
        if xp is np:
            return np.matmul(x, y)
        return _GUFunc(cp.matmul, "(m,n),(n,p)->(m,p)")(x, y)
