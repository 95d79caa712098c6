"""New arrays and views, function by function, checked against NumPy (docs/views-and-copies.md).

NEW_ARRAYS lists calls that NumPy answers with new arrays: none of their results may share memory with an input,
be the input, or be a view of it. VIEWS lists calls that NumPy answers
with views of (or the very) input: each of their results must share memory with an input. Each table is first
checked against NumPy itself (these tests need no GPU, so a wrong table entry fails everywhere), then cuarray is
checked against the table on the GPU. Inputs are small, with size-1 axes, counts of 1, zero-size and 0-d arrays:
the degenerate cases where a shortcut could return the input or a reshape of it.
"""

import importlib
import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_strides_match


def _v(n, dtype=np.float64):
    return np.arange(n, dtype=dtype)


def _m(rows, cols, dtype=np.float64):
    return np.arange(rows * cols, dtype=dtype).reshape(rows, cols)


def _c(n):
    return (np.arange(n) + 1j * np.arange(n, 0, -1)).astype(np.complex128)


def _signal(xp):
    return importlib.import_module("scipy.signal" if xp is np else "cuarray.scipy.signal")


def _ix(xp, values):
    """Index (or other auxiliary) arrays made in the namespace under test; they are not inputs."""
    return xp.asarray(np.asarray(values))


def _deprecated(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return call()


# (id, inputs (host arrays; each test gets its own copy of them), call(xp, *inputs) -> result or results)
NEW_ARRAYS = [
    # tile and repeat: a reshaped broadcast view of the input is a view exactly in these cases.
    ("tile-size1-reps3", [_v(1)], lambda xp, x: xp.tile(x, 3)),
    ("tile-reps1", [_v(3)], lambda xp, x: xp.tile(x, 1)),
    ("tile-reps-ones-2d", [_m(2, 3)], lambda xp, x: xp.tile(x, (1, 1))),
    ("tile-size1-2d", [np.ones((1, 1))], lambda xp, x: xp.tile(x, (2, 1))),
    ("tile-new-leading-axis", [_v(3)], lambda xp, x: xp.tile(x, (1, 1))),
    ("tile-0d", [np.array(5.0)], lambda xp, x: xp.tile(x, 1)),
    ("tile-0d-reps-empty", [np.array(5.0)], lambda xp, x: xp.tile(x, ())),
    ("tile-empty", [_v(0)], lambda xp, x: xp.tile(x, 2)),
    ("tile-reps0", [_v(3)], lambda xp, x: xp.tile(x, 0)),
    ("repeat-size1-axis0", [np.ones((1, 1))], lambda xp, x: xp.repeat(x, 3, axis=0)),
    ("repeat-1", [np.zeros(2)], lambda xp, x: xp.repeat(x, 1)),
    ("repeat-1-axis1", [_m(2, 3)], lambda xp, x: xp.repeat(x, 1, axis=1)),
    ("repeat-1-size1", [_v(1)], lambda xp, x: xp.repeat(x, 1)),
    ("repeat-list-of-one", [_v(3)], lambda xp, x: xp.repeat(x, [1])),
    ("repeat-counts-ones", [_v(3)], lambda xp, x: xp.repeat(x, [1, 1, 1])),
    ("repeat-device-counts", [_v(3)], lambda xp, x: xp.repeat(x, _ix(xp, [1, 1, 1]))),
    ("repeat-0d", [np.array(2.0)], lambda xp, x: xp.repeat(x, 1)),
    ("repeat-empty", [_v(0)], lambda xp, x: xp.repeat(x, 2)),
    ("repeat-0", [_v(3)], lambda xp, x: xp.repeat(x, 0)),
    # joining
    ("concatenate-one", [_m(2, 3)], lambda xp, x: xp.concatenate([x])),
    ("concatenate-one-axis-none", [_m(2, 3)], lambda xp, x: xp.concatenate([x], axis=None)),
    ("concatenate-with-empty", [_v(3), _v(0)], lambda xp, x, y: xp.concatenate([x, y])),
    ("concat-one", [_m(2, 3)], lambda xp, x: xp.concat([x])),
    ("stack-one", [_v(3)], lambda xp, x: xp.stack([x])),
    ("vstack-one-2d", [_m(2, 3)], lambda xp, x: xp.vstack([x])),
    ("vstack-one-1d", [_v(3)], lambda xp, x: xp.vstack([x])),
    # NumPy 2.5 dropped row_stack (deprecated since 2.0); cuarray keeps it for CuPy's users.
    (
        "row_stack-one",
        [_m(2, 3)],
        lambda xp, x: _deprecated(lambda: getattr(xp, "row_stack", xp.vstack)([x])),
    ),
    ("hstack-one-1d", [_v(3)], lambda xp, x: xp.hstack([x])),
    ("hstack-one-2d", [_m(2, 3)], lambda xp, x: xp.hstack([x])),
    ("dstack-one-3d", [np.ones((1, 2, 3))], lambda xp, x: xp.dstack([x])),
    ("column_stack-one-2d", [_m(2, 3)], lambda xp, x: xp.column_stack([x])),
    ("append-nothing", [_v(3)], lambda xp, x: xp.append(x, [])),
    ("append-axis0", [_m(2, 3), _m(1, 3)], lambda xp, x, y: xp.append(x, y, axis=0)),
    ("insert-one", [_v(3)], lambda xp, x: xp.insert(x, 1, 5.0)),
    ("insert-axis1", [_m(2, 3)], lambda xp, x: xp.insert(x, 0, 1.0, axis=1)),
    ("insert-list-of-one", [_v(1)], lambda xp, x: xp.insert(x, [0], [7.0])),
    ("delete-nothing", [_v(3)], lambda xp, x: xp.delete(x, [])),
    ("delete-empty-slice", [_v(3)], lambda xp, x: xp.delete(x, slice(0, 0))),
    ("delete-int", [_v(3)], lambda xp, x: xp.delete(x, 0)),
    ("delete-axis1", [_m(2, 3)], lambda xp, x: xp.delete(x, 1, axis=1)),
    ("delete-mask-none", [_v(3)], lambda xp, x: xp.delete(x, _ix(xp, [False, False, False]))),
    ("resize-same-shape", [_m(2, 3)], lambda xp, x: xp.resize(x, (2, 3))),
    ("resize-smaller", [_v(3)], lambda xp, x: xp.resize(x, 2)),
    ("resize-larger", [_v(1)], lambda xp, x: xp.resize(x, 3)),
    ("resize-empty", [_v(0)], lambda xp, x: xp.resize(x, 2)),
    ("resize-to-empty", [_v(3)], lambda xp, x: xp.resize(x, 0)),
    # copies
    ("copy", [_m(2, 3)], lambda xp, x: xp.copy(x)),
    ("copy-empty", [_v(0)], lambda xp, x: xp.copy(x)),
    ("ndarray.copy", [_m(2, 3)], lambda xp, x: x.copy()),
    ("array", [_m(2, 3)], lambda xp, x: xp.array(x)),
    ("array-0d", [np.array(1.0)], lambda xp, x: xp.array(x)),
    ("asarray-copy-true", [_m(2, 3)], lambda xp, x: xp.asarray(x, copy=True)),
    ("astype-same-dtype", [_m(2, 3)], lambda xp, x: x.astype(x.dtype)),
    ("astype-function", [_m(2, 3)], lambda xp, x: xp.astype(x, x.dtype)),
    ("flatten", [_m(2, 3)], lambda xp, x: x.flatten()),
    ("flatten-1d", [_v(3)], lambda xp, x: x.flatten()),
    ("reshape-copy-true", [_m(2, 3)], lambda xp, x: xp.reshape(x, (3, 2), copy=True)),
    ("reshape-copy-true-same-shape", [_m(2, 3)], lambda xp, x: x.reshape((2, 3), copy=True)),
    ("ravel-transposed", [_m(2, 3)], lambda xp, x: xp.ravel(x.T)),
    ("ravel-strided-1d", [_v(6)], lambda xp, x: xp.ravel(x[::2])),
    ("ravel-strided-1d-order-a", [_v(6)], lambda xp, x: x[::2].ravel(order="A")),
    ("ravel-strided-1d-order-k", [_v(6)], lambda xp, x: xp.ravel(x[::-2], order="K")),
    ("ravel-row-of-columns", [_m(3, 4)], lambda xp, x: xp.ravel(x[:, ::2][1], order="A")),
    ("ascontiguousarray-transposed", [_m(2, 3)], lambda xp, x: xp.ascontiguousarray(x.T)),
    ("ascontiguousarray-other-dtype", [_v(3)], lambda xp, x: xp.ascontiguousarray(x, dtype=np.float32)),
    ("asfortranarray-c-order", [_m(2, 3)], lambda xp, x: xp.asfortranarray(x)),
    ("meshgrid-one", [_v(3)], lambda xp, x: xp.meshgrid(x)),
    ("meshgrid-two", [_v(2), _v(3)], lambda xp, x, y: xp.meshgrid(x, y)),
    ("meshgrid-sparse", [_v(2), _v(3)], lambda xp, x, y: xp.meshgrid(x, y, sparse=True)),
    # sorting, searching, set operations
    ("sort-size1", [_v(1)], lambda xp, x: xp.sort(x)),
    ("sort-axis-none", [_m(2, 3)], lambda xp, x: xp.sort(x, axis=None)),
    ("sort-size1-axis", [_m(2, 1)], lambda xp, x: xp.sort(x, axis=1)),
    ("sort-empty", [_v(0)], lambda xp, x: xp.sort(x)),
    ("sort_complex-size1", [_c(1)], lambda xp, x: xp.sort_complex(x)),
    ("partition-size1", [_v(1)], lambda xp, x: xp.partition(x, 0)),
    ("unique-size1", [_v(1)], lambda xp, x: xp.unique(x)),
    ("unique-empty", [_v(0)], lambda xp, x: xp.unique(x)),
    (
        "unique-all-outputs",
        [_v(3)],
        lambda xp, x: xp.unique(x, return_index=True, return_inverse=True, return_counts=True),
    ),
    ("unique-axis0", [_m(2, 3)], lambda xp, x: xp.unique(x, axis=0)),
    ("unique_values", [_v(1)], lambda xp, x: xp.unique_values(x)),
    ("unique_counts", [_v(1)], lambda xp, x: xp.unique_counts(x)),
    ("unique_inverse", [_v(1)], lambda xp, x: xp.unique_inverse(x)),
    ("unique_all", [_v(1)], lambda xp, x: xp.unique_all(x)),
    ("take-all", [_v(3)], lambda xp, x: xp.take(x, [0, 1, 2])),
    ("take-axis0", [_m(1, 3)], lambda xp, x: xp.take(x, [0], axis=0)),
    ("take_along_axis", [_m(2, 1)], lambda xp, x: xp.take_along_axis(x, _ix(xp, [[0], [0]]), 1)),
    ("compress-all", [_v(3)], lambda xp, x: xp.compress([True, True, True], x)),
    ("extract-all", [_v(3)], lambda xp, x: xp.extract(_ix(xp, [True, True, True]), x)),
    ("choose-one", [_v(3)], lambda xp, x: xp.choose(_ix(xp, [0, 0, 0]), [x])),
    ("select-one", [_v(3)], lambda xp, x: xp.select([_ix(xp, [True, True, True])], [x])),
    ("where-all-true", [_v(3)], lambda xp, x: xp.where(_ix(xp, [True, True, True]), x, 0.0)),
    # rearranging
    ("roll-0", [_v(3)], lambda xp, x: xp.roll(x, 0)),
    ("roll-size1", [_v(1)], lambda xp, x: xp.roll(x, 1)),
    ("roll-empty", [_v(0)], lambda xp, x: xp.roll(x, 1)),
    ("roll-axis-0", [_m(2, 3)], lambda xp, x: xp.roll(x, 0, axis=0)),
    ("roll-full-turn", [_m(2, 3)], lambda xp, x: xp.roll(x, (2, 3), (0, 1))),
    ("pad-0", [_v(3)], lambda xp, x: xp.pad(x, 0)),
    ("pad-0-edge", [_m(2, 3)], lambda xp, x: xp.pad(x, 0, mode="edge")),
    ("pad-empty", [_v(0)], lambda xp, x: xp.pad(x, 0)),
    ("diag-1d", [_v(3)], lambda xp, x: xp.diag(x)),
    ("diag-size1", [_v(1)], lambda xp, x: xp.diag(x)),
    ("diagflat", [_v(3)], lambda xp, x: xp.diagflat(x)),
    ("tril", [_m(2, 3)], lambda xp, x: xp.tril(x)),
    ("triu", [_m(2, 3)], lambda xp, x: xp.triu(x)),
    # elementwise and the like
    ("clip-no-op", [_v(3)], lambda xp, x: xp.clip(x, -10.0, 10.0)),
    ("round-int", [_v(3, np.int64)], lambda xp, x: xp.round(x)),
    ("around", [_v(3)], lambda xp, x: xp.around(x)),
    ("fix-int", [_v(3, np.int64)], lambda xp, x: xp.fix(x)),
    ("positive", [_v(3)], lambda xp, x: xp.positive(x)),
    ("conj-real", [_v(3)], lambda xp, x: xp.conj(x)),
    ("nan_to_num", [_v(3)], lambda xp, x: xp.nan_to_num(x)),
    ("nan_to_num-int", [_v(3, np.int64)], lambda xp, x: xp.nan_to_num(x)),
    ("imag-of-real", [_v(3)], lambda xp, x: xp.imag(x)),
    ("interp", [_v(3)], lambda xp, x: xp.interp(x, x, x)),
    ("piecewise", [_v(3)], lambda xp, x: xp.piecewise(x, [x > 5], [0.0])),
    ("ediff1d", [_v(2)], lambda xp, x: xp.ediff1d(x)),
    ("diff", [_v(2)], lambda xp, x: xp.diff(x)),
    ("diff-size1-axis", [_m(1, 3)], lambda xp, x: xp.diff(x, axis=1)),
    ("gradient", [_v(3)], lambda xp, x: xp.gradient(x)),
    ("unwrap", [_v(3)], lambda xp, x: xp.unwrap(x)),
    # scans and reductions
    ("cumsum-size1", [_v(1)], lambda xp, x: xp.cumsum(x)),
    ("cumsum-size1-axis", [_m(2, 1)], lambda xp, x: xp.cumsum(x, axis=1)),
    ("cumprod-size1", [_v(1)], lambda xp, x: xp.cumprod(x)),
    ("nancumsum-size1", [_v(1)], lambda xp, x: xp.nancumsum(x)),
    ("nancumprod-size1", [_v(1)], lambda xp, x: xp.nancumprod(x)),
    ("cumulative_sum-size1", [_v(1)], lambda xp, x: xp.cumulative_sum(x)),
    ("cumulative_prod-size1", [_v(1)], lambda xp, x: xp.cumulative_prod(x)),
    ("sum-axis-empty", [_m(2, 3)], lambda xp, x: xp.sum(x, axis=())),
    ("sum-size1-axis-keepdims", [_m(2, 1)], lambda xp, x: xp.sum(x, axis=1, keepdims=True)),
    ("max-size1-axis", [_m(2, 1)], lambda xp, x: xp.max(x, axis=1)),
    ("mean-size1-axis", [_m(2, 1)], lambda xp, x: xp.mean(x, axis=1)),
    ("median-size1-axis", [_m(2, 1)], lambda xp, x: xp.median(x, axis=1)),
    ("percentile-size1-axis", [_m(2, 1)], lambda xp, x: xp.percentile(x, 50, axis=1)),
    ("quantile-size1-axis", [_m(2, 1)], lambda xp, x: xp.quantile(x, 0.5, axis=1)),
    ("trace-3d", [np.ones((1, 1, 1))], lambda xp, x: xp.trace(x)),
    # products
    ("matmul-identity", [np.ones((1, 1))], lambda xp, x: xp.matmul(x, x)),
    ("dot-1x1", [np.ones((1, 1))], lambda xp, x: xp.dot(x, x)),
    ("outer-size1", [_v(1)], lambda xp, x: xp.outer(x, x)),
    ("kron-ones", [_m(2, 3)], lambda xp, x: xp.kron(x, _ix(xp, [[1.0]]))),
    ("einsum-sum", [_m(2, 1)], lambda xp, x: xp.einsum("ij->i", x)),
    ("vander", [_v(3)], lambda xp, x: xp.vander(x)),
    ("histogram", [_v(3)], lambda xp, x: xp.histogram(x, bins=2)),
    ("histogram2d", [_v(3)], lambda xp, x: xp.histogram2d(x, x, bins=2)),
    ("bincount", [_v(3, np.int64)], lambda xp, x: xp.bincount(x)),
    ("cov-size1", [_v(3)], lambda xp, x: xp.cov(x)),
    ("polyadd", [_v(2)], lambda xp, x: xp.polyadd(x, _ix(xp, [0.0]))),
    ("polymul-one", [_v(2)], lambda xp, x: xp.polymul(x, _ix(xp, [1.0]))),
    ("poly", [_v(2)], lambda xp, x: xp.poly(x)),
    ("poly-conjugate-roots", [np.array([1j, -1j])], lambda xp, x: xp.poly(x)),
    # linalg
    ("linalg.inv-1x1", [np.ones((1, 1))], lambda xp, x: xp.linalg.inv(x)),
    ("linalg.matrix_power-0", [np.ones((1, 1))], lambda xp, x: xp.linalg.matrix_power(x, 0)),
    ("linalg.matrix_power-2", [np.ones((1, 1))], lambda xp, x: xp.linalg.matrix_power(x, 2)),
    ("linalg.solve-1x1", [np.ones((1, 1)), np.ones(1)], lambda xp, a, b: xp.linalg.solve(a, b)),
    ("linalg.cholesky-1x1", [np.full((1, 1), 4.0)], lambda xp, x: xp.linalg.cholesky(x)),
    ("linalg.qr-1x1", [np.full((1, 1), 4.0)], lambda xp, x: xp.linalg.qr(x)),
    ("linalg.svd-1x1", [np.full((1, 1), 4.0)], lambda xp, x: xp.linalg.svd(x)),
    ("linalg.eigh-1x1", [np.full((1, 1), 4.0)], lambda xp, x: xp.linalg.eigh(x)),
    ("linalg.pinv-1x1", [np.full((1, 1), 4.0)], lambda xp, x: xp.linalg.pinv(x)),
    ("linalg.norm-axis", [_m(2, 1)], lambda xp, x: xp.linalg.norm(x, axis=1)),
    # fft
    ("fft.fft-size1", [_c(1)], lambda xp, x: xp.fft.fft(x)),
    ("fft.ifft-size1", [_c(1)], lambda xp, x: xp.fft.ifft(x)),
    ("fft.fftn-size1", [_c(1)], lambda xp, x: xp.fft.fftn(x)),
    ("fft.rfft-size1", [_v(1)], lambda xp, x: xp.fft.rfft(x)),
    ("fft.irfft-size1", [_c(1)], lambda xp, x: xp.fft.irfft(x, 1)),
    ("fft.fftshift-size1", [_v(1)], lambda xp, x: xp.fft.fftshift(x)),
    ("fft.fftshift-no-axes", [_v(3)], lambda xp, x: xp.fft.fftshift(x, axes=())),
    ("fft.ifftshift-size1", [_v(1)], lambda xp, x: xp.fft.ifftshift(x)),
    # random
    ("random.permutation-size1", [_v(1)], lambda xp, x: xp.random.permutation(x)),
    ("random.choice-size1", [_v(1)], lambda xp, x: xp.random.choice(x, 1)),
    # convolutions
    ("convolve-one-tap", [_v(3)], lambda xp, x: xp.convolve(x, _ix(xp, [1.0]))),
    ("correlate-one-tap", [_v(3)], lambda xp, x: xp.correlate(x, _ix(xp, [1.0]))),
    ("scipy.signal.convolve-one-tap", [_v(3)], lambda xp, x: _signal(xp).convolve(x, _ix(xp, [1.0]))),
    ("scipy.signal.correlate-one-tap", [_v(3)], lambda xp, x: _signal(xp).correlate(x, _ix(xp, [1.0]))),
    ("scipy.signal.fftconvolve-one-tap", [_v(3)], lambda xp, x: _signal(xp).fftconvolve(x, _ix(xp, [1.0]))),
    ("scipy.signal.oaconvolve-one-tap", [_v(3)], lambda xp, x: _signal(xp).oaconvolve(x, _ix(xp, [1.0]))),
    (
        "scipy.signal.convolve2d-one-tap",
        [_m(2, 3)],
        lambda xp, x: _signal(xp).convolve2d(x, _ix(xp, [[1.0]])),
    ),
    (
        "scipy.signal.correlate2d-one-tap",
        [_m(2, 3)],
        lambda xp, x: _signal(xp).correlate2d(x, _ix(xp, [[1.0]])),
    ),
    # indexing that NumPy answers with a copy
    ("getitem-int-list", [_m(2, 3)], lambda xp, x: x[[0]]),
    ("getitem-mask", [_v(3)], lambda xp, x: x[_ix(xp, [True, True, True])]),
    ("getitem-0d-int-array-host", [_m(2, 3)], lambda xp, x: x[np.array(0)]),
    ("getitem-0d-int-array", [_m(2, 3)], lambda xp, x: x[_ix(xp, 0)]),
]

# Calls NumPy answers with a view of an input (or the input itself).
VIEWS = [
    ("reshape", [_m(2, 3)], lambda xp, x: xp.reshape(x, (3, 2))),
    ("ndarray.reshape-same-shape", [_m(2, 3)], lambda xp, x: x.reshape(2, 3)),
    ("ravel-contiguous", [_m(2, 3)], lambda xp, x: xp.ravel(x)),
    ("ravel-order-k-transposed", [_m(2, 3)], lambda xp, x: x.T.ravel(order="K")),
    ("transpose", [_m(2, 3)], lambda xp, x: xp.transpose(x)),
    ("ndarray.T", [_m(2, 3)], lambda xp, x: x.T),
    ("permute_dims", [_m(2, 3)], lambda xp, x: xp.permute_dims(x, (1, 0))),
    ("matrix_transpose", [_m(2, 3)], lambda xp, x: xp.matrix_transpose(x)),
    ("swapaxes", [_m(2, 3)], lambda xp, x: xp.swapaxes(x, 0, 1)),
    ("moveaxis", [_m(2, 3)], lambda xp, x: xp.moveaxis(x, 0, 1)),
    ("rollaxis", [_m(2, 3)], lambda xp, x: xp.rollaxis(x, 1)),
    ("rollaxis-no-op", [_m(2, 3)], lambda xp, x: xp.rollaxis(x, 0)),
    ("squeeze", [np.ones((1, 3))], lambda xp, x: xp.squeeze(x)),
    ("squeeze-nothing", [_m(2, 3)], lambda xp, x: xp.squeeze(x)),
    ("expand_dims", [_v(3)], lambda xp, x: xp.expand_dims(x, 0)),
    ("broadcast_to", [_v(3)], lambda xp, x: xp.broadcast_to(x, (2, 3))),
    ("broadcast_arrays", [_v(3), _m(2, 3)], lambda xp, x, y: xp.broadcast_arrays(x, y)),
    ("atleast_1d", [_v(3)], lambda xp, x: xp.atleast_1d(x)),
    ("atleast_2d", [_v(3)], lambda xp, x: xp.atleast_2d(x)),
    ("atleast_3d", [_m(2, 3)], lambda xp, x: xp.atleast_3d(x)),
    ("diagonal", [_m(2, 3)], lambda xp, x: xp.diagonal(x)),
    ("ndarray.diagonal", [_m(2, 3)], lambda xp, x: x.diagonal(1)),
    ("diag-2d", [_m(2, 3)], lambda xp, x: xp.diag(x)),
    ("linalg.diagonal", [_m(2, 3)], lambda xp, x: xp.linalg.diagonal(x)),
    ("linalg.matrix_transpose", [_m(2, 3)], lambda xp, x: xp.linalg.matrix_transpose(x)),
    ("real-complex", [_c(3)], lambda xp, x: xp.real(x)),
    ("imag-complex", [_c(3)], lambda xp, x: xp.imag(x)),
    ("ndarray.real-complex", [_c(3)], lambda xp, x: x.real),
    ("ndarray.imag-complex", [_c(3)], lambda xp, x: x.imag),
    ("real-of-real", [_v(3)], lambda xp, x: xp.real(x)),
    ("real_if_close", [_c(3) * 0 + 1], lambda xp, x: xp.real_if_close(x)),
    ("flip", [_m(2, 3)], lambda xp, x: xp.flip(x)),
    ("fliplr", [_m(2, 3)], lambda xp, x: xp.fliplr(x)),
    ("flipud", [_m(2, 3)], lambda xp, x: xp.flipud(x)),
    ("rot90", [_m(2, 3)], lambda xp, x: xp.rot90(x)),
    ("rot90-0", [_m(2, 3)], lambda xp, x: xp.rot90(x, 0)),
    ("rot90-2", [_m(2, 3)], lambda xp, x: xp.rot90(x, 2)),
    ("rot90-3", [_m(2, 3)], lambda xp, x: xp.rot90(x, 3)),
    ("split", [_v(4)], lambda xp, x: xp.split(x, 2)),
    ("split-one", [_v(4)], lambda xp, x: xp.split(x, 1)),
    ("array_split", [_v(3)], lambda xp, x: xp.array_split(x, 2)),
    ("hsplit", [_m(2, 4)], lambda xp, x: xp.hsplit(x, 2)),
    ("vsplit", [_m(2, 4)], lambda xp, x: xp.vsplit(x, 2)),
    ("dsplit", [np.ones((1, 2, 4))], lambda xp, x: xp.dsplit(x, 2)),
    ("unstack", [_m(2, 3)], lambda xp, x: xp.unstack(x)),
    ("trim_zeros", [np.array([0.0, 1.0, 2.0, 0.0])], lambda xp, x: xp.trim_zeros(x)),
    ("asarray", [_m(2, 3)], lambda xp, x: xp.asarray(x)),
    ("asanyarray", [_m(2, 3)], lambda xp, x: xp.asanyarray(x)),
    ("asarray_chkfinite", [_m(2, 3)], lambda xp, x: xp.asarray_chkfinite(x)),
    ("array-copy-false", [_m(2, 3)], lambda xp, x: xp.array(x, copy=False)),
    ("astype-copy-false", [_m(2, 3)], lambda xp, x: x.astype(x.dtype, copy=False)),
    ("astype-function-copy-false", [_m(2, 3)], lambda xp, x: xp.astype(x, x.dtype, copy=False)),
    ("require", [_m(2, 3)], lambda xp, x: xp.require(x)),
    ("ascontiguousarray-contiguous", [_m(2, 3)], lambda xp, x: xp.ascontiguousarray(x)),
    ("ascontiguousarray-0d", [np.array(1.0)], lambda xp, x: xp.ascontiguousarray(x)),
    ("asfortranarray-1d", [_v(3)], lambda xp, x: xp.asfortranarray(x)),
    ("ndarray.view", [_m(2, 3)], lambda xp, x: x.view()),
    ("getitem-ellipsis", [_m(2, 3)], lambda xp, x: x[...]),
    ("getitem-slice", [_m(2, 3)], lambda xp, x: x[1:]),
    ("getitem-int-2d", [_m(2, 3)], lambda xp, x: x[0]),
    ("getitem-newaxis", [_m(2, 3)], lambda xp, x: x[None]),
    ("einsum-transpose", [_m(2, 3)], lambda xp, x: xp.einsum("ij->ji", x)),
    ("einsum-identity", [_m(2, 3)], lambda xp, x: xp.einsum("ij", x)),
    ("einsum-diagonal", [_m(3, 3)], lambda xp, x: xp.einsum("ii->i", x)),
    ("ix_", [_v(2, np.int64), _v(3, np.int64)], lambda xp, x, y: xp.ix_(x, y)),
    ("meshgrid-copy-false", [_v(2), _v(3)], lambda xp, x, y: xp.meshgrid(x, y, copy=False)),
    (
        "meshgrid-sparse-copy-false",
        [_v(2), _v(3)],
        lambda xp, x, y: xp.meshgrid(x, y, sparse=True, copy=False),
    ),
    ("nan_to_num-copy-false", [_v(3)], lambda xp, x: xp.nan_to_num(x, copy=False)),
    ("diff-n0", [_v(3)], lambda xp, x: xp.diff(x, n=0)),
    ("polyder-m0", [_v(3)], lambda xp, x: xp.polyder(x, 0)),
    ("polyint-m0", [_v(3)], lambda xp, x: xp.polyint(x, 0)),
    ("poly1d.coeffs", [_v(3)], lambda xp, x: xp.poly1d(x).coeffs),
    ("apply_over_axes-no-axes", [_m(2, 3)], lambda xp, x: xp.apply_over_axes(xp.sum, x, [])),
    ("histogram-bin-edges", [_v(3), np.array([0.0, 1.0, 2.0])], lambda xp, x, b: xp.histogram(x, bins=b)[1]),
    ("linalg.matrix_power-1", [np.ones((2, 2))], lambda xp, x: xp.linalg.matrix_power(x, 1)),
    ("fft.fftn-no-axes", [_c(3)], lambda xp, x: xp.fft.fftn(x, axes=())),
]

# Where cuarray deliberately differs, as CuPy does: integer indexing down to one element gives a 0-d device array
# that views the element (NumPy gives a scalar, which shares nothing).
ZERO_D_VIEWS = [
    ("getitem-int-1d", [_v(3)], lambda xp, x: x[0]),
    ("getitem-ints-2d", [_m(2, 3)], lambda xp, x: x[1, 2]),
    ("getitem-int-0d-of-1d", [_v(1)], lambda xp, x: x[-1]),
]


def _ids(table):
    return [case[0] for case in table]


def _run(xp, case):
    _, inputs, call = case
    inputs = [a.copy() for a in inputs] if xp is np else [cp.asarray(a) for a in inputs]
    return inputs, call(xp, *inputs)


def _arrays(result, xp):
    if isinstance(result, (tuple, list)):  # several results, namedtuples too
        return [a for r in result for a in _arrays(r, xp)]
    return [result] if isinstance(result, xp.ndarray) else []


def _owner(a):
    while a.base is not None and type(a.base) is type(a):
        a = a.base
    return a


def _inputs_and_results(xp, case):
    """The case's inputs and the arrays among its results (at least one)."""
    __tracebackhide__ = True
    inputs, result = _run(xp, case)
    arrays = _arrays(result, xp)
    assert arrays, f"{case[0]}: no array among the results"
    return inputs, arrays


def _assert_new(xp, case):
    __tracebackhide__ = True
    inputs, arrays = _inputs_and_results(xp, case)
    for r in arrays:
        for x in inputs:
            assert r is not x, f"{case[0]}: returned its input"
            if r.size:  # NumPy's tile of an empty array is a reshape of it: no memory, nothing to share
                assert _owner(r) is not _owner(x), f"{case[0]}: returned a view of its input"
            assert not xp.shares_memory(r, x), f"{case[0]}: result shares memory with its input"


def _assert_views(xp, case):
    __tracebackhide__ = True
    inputs, arrays = _inputs_and_results(xp, case)
    for r in arrays:
        assert any(xp.shares_memory(r, x) for x in inputs), f"{case[0]}: a result is not a view of an input"


# NumPy first: it checks the table itself, and needs no GPU.
_XP = [pytest.param(np, id="numpy"), pytest.param(cp, id="cuarray", marks=pytest.mark.gpu)]


@pytest.mark.parametrize("xp", _XP)
@pytest.mark.parametrize("case", NEW_ARRAYS, ids=_ids(NEW_ARRAYS))
def test_new_arrays(case, xp):
    _assert_new(xp, case)


@pytest.mark.parametrize("xp", _XP)
@pytest.mark.parametrize("case", VIEWS, ids=_ids(VIEWS))
def test_views(case, xp):
    _assert_views(xp, case)


@pytest.mark.parametrize("case", ZERO_D_VIEWS, ids=_ids(ZERO_D_VIEWS))
def test_numpy_gives_scalars_where_cuarray_gives_0d_views(case):
    _, result = _run(np, case)
    assert isinstance(result, np.generic)


@pytest.mark.gpu
@pytest.mark.parametrize("case", ZERO_D_VIEWS, ids=_ids(ZERO_D_VIEWS))
def test_integer_indexing_to_one_element_is_a_0d_view(case):
    inputs, result = _run(cp, case)
    assert isinstance(result, cp.ndarray) and result.ndim == 0
    assert cp.shares_memory(result, inputs[0])


def test_the_tables_do_not_overlap():
    ids = _ids(NEW_ARRAYS) + _ids(VIEWS) + _ids(ZERO_D_VIEWS)
    assert len(ids) == len(set(ids))


# ---- writing into a result, or into the input afterwards --------------------------------------------------


@pytest.mark.gpu
def test_writing_into_tile_leaves_the_input():
    x = cp.arange(1)
    t = cp.tile(x, 3)
    t[0] = 5
    assert x.get().tolist() == [0]
    assert t.get().tolist() == [5, 0, 0]


@pytest.mark.gpu
def test_writing_into_the_input_leaves_repeat():
    o = cp.ones((1, 1))
    r = cp.repeat(o, 3, axis=0)
    o += 1
    assert r.get().tolist() == [[1.0], [1.0], [1.0]]
    assert o.get().tolist() == [[2.0]]


@pytest.mark.gpu
def test_repeat_once_is_a_new_array():
    z = cp.zeros(2)
    r = cp.repeat(z, 1)
    assert not cp.shares_memory(r, z)
    assert r.base is None and r.flags.c_contiguous


@pytest.mark.gpu
@pytest.mark.parametrize("reps", [1, (1, 1), (2, 1), (1, 2), 3])
@pytest.mark.parametrize("shape", [(1,), (1, 1), (2, 3), (0, 2), ()])
def test_tile_values_and_independence(shape, reps):
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    x = cp.asarray(a)
    t, e = cp.tile(x, reps), np.tile(a, reps)
    assert t.shape == e.shape and t.dtype == e.dtype and t.flags.c_contiguous
    np.testing.assert_array_equal(t.get(), e)
    t[...] = -1
    np.testing.assert_array_equal(x.get(), a)


@pytest.mark.gpu
@pytest.mark.parametrize("reps", [1, (1, 1), (1, 1, 1, 1), 2])
def test_tile_keeps_numpys_layout(reps):
    """tile with every rep 1 is NumPy's order-K copy: F-like inputs stay F-like, so what later reshapes share
    with it is what NumPy's share."""
    a = np.arange(72, dtype=np.uint8).reshape(4, 6, 3)[2::-1, 4::-2, 0:3].transpose(0, 2, 1)
    x = cp.arange(72, dtype=np.uint8).reshape(4, 6, 3)[2::-1, 4::-2, 0:3].transpose(0, 2, 1)
    t, e = cp.tile(x, reps), np.tile(a, reps)
    assert t.strides == e.strides, (t.strides, e.strides)
    np.testing.assert_array_equal(t.get(), e)
    assert cp.shares_memory(t.reshape(-1), t) == np.shares_memory(e.reshape(-1), e)
    assert not cp.shares_memory(t, x)


@pytest.mark.gpu
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("repeats", [0, 1, 2, [1], np.int64(1)])
@pytest.mark.parametrize("shape", [(1,), (1, 1), (2, 3), (0, 2)])
def test_repeat_values_and_independence(shape, repeats, axis):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    x = cp.asarray(a)
    r, e = cp.repeat(x, repeats, axis), np.repeat(a, repeats, axis)
    assert r.shape == e.shape and r.dtype == e.dtype and r.flags.c_contiguous
    np.testing.assert_array_equal(r.get(), e)
    x[...] = -1
    np.testing.assert_array_equal(r.get(), e)


# ---- real and imag are views of complex arrays --------------------------------------------------------------


def _complex(shape, dtype):
    n = int(np.prod(shape))
    return (np.arange(n) - 1.5j * np.arange(n)[::-1]).astype(dtype).reshape(shape)


_LAYOUTS = {
    "contiguous": lambda a: a,
    "strided": lambda a: a[::2],
    "reversed": lambda a: a[::-1],
    "transposed": lambda a: a.T,
}


@pytest.mark.gpu
@pytest.mark.parametrize("layout", list(_LAYOUTS))
@pytest.mark.parametrize("shape", [(4, 3), (1, 1), (0, 3)])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_real_and_imag_views_match_numpy(dtype, shape, layout):
    base = _complex(shape, dtype)
    xb = cp.asarray(base)
    a, x = _LAYOUTS[layout](base), _LAYOUTS[layout](xb)
    for part in ("real", "imag"):
        got, want = getattr(cp, part)(x), getattr(np, part)(a)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert_strides_match(got, want)
        np.testing.assert_array_equal(got.get(), want)
        np.testing.assert_array_equal((got * 2).get(), want * 2)  # a kernel reads the strided view
        np.testing.assert_array_equal(got.copy().get(), want)
        np.testing.assert_array_equal(getattr(x, part).get(), want)
    x.real[...] = 7
    a.real[...] = 7
    x.imag[...] = x.real * 2
    a.imag[...] = a.real * 2
    np.testing.assert_array_equal(xb.get(), base)


@pytest.mark.gpu
def test_real_and_imag_of_0d():
    a = np.array(1.5 - 2.5j, np.complex64)
    x = cp.asarray(a)
    assert cp.shares_memory(x.real, x) and cp.shares_memory(x.imag, x)
    assert x.real.get() == a.real and x.imag.get() == a.imag
    x.imag[()] = 4
    assert x.get() == np.complex64(1.5 + 4j)


@pytest.mark.gpu
def test_real_and_imag_setters():
    a, x = _complex((3,), np.complex128), cp.asarray(_complex((3,), np.complex128))
    a.real, x.real = 5.0, 5.0
    a.imag = np.array([1.0, 2.0, 3.0])
    x.imag = cp.asarray([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(x.get(), a)
    f, y = np.arange(3.0), cp.arange(3.0)
    f.real, y.real = 2.0, 2.0  # a real array's real part is the array
    np.testing.assert_array_equal(y.get(), f)
    with pytest.raises(TypeError, match="imaginary part"):
        y.imag = 1.0
    with pytest.raises(TypeError, match="imaginary part"):
        f.imag = 1.0


@pytest.mark.gpu
def test_real_part_view_keeps_the_array_alive():
    x = cp.asarray(_complex((5,), np.complex64))
    r = x.imag
    want = x.get().imag
    del x
    cp.zeros(1024)  # reuse of freed memory would show here
    np.testing.assert_array_equal(r.get(), want)


# ---- other views NumPy gives, written through -------------------------------------------------------------


@pytest.mark.gpu
def test_diag_of_2d_sees_later_writes():
    a = np.arange(6.0).reshape(2, 3)
    x = cp.asarray(a)
    d, e = cp.diag(x, 1), np.diag(a, 1)
    a[0, 1] = x[0, 1] = 9
    np.testing.assert_array_equal(d.get(), e)


@pytest.mark.gpu
@pytest.mark.parametrize("device_index", [False, True])
def test_0d_integer_array_index_copies(device_index):
    a = np.arange(6.0).reshape(2, 3)
    x = cp.asarray(a)
    i = np.array(1)
    r = x[cp.asarray(i) if device_index else i]
    e = a[i]
    np.testing.assert_array_equal(r.get(), e)
    r[...] = -1
    np.testing.assert_array_equal(x.get(), a)
    x[cp.asarray(i) if device_index else i] = 3  # assignment still writes into the array
    a[i] = 3
    np.testing.assert_array_equal(x.get(), a)


@pytest.mark.gpu
def test_histogram_returns_the_device_bins():
    x, bins = cp.arange(3.0), cp.asarray([0.0, 1.0, 2.0])
    assert cp.histogram(x, bins=bins)[1] is bins
