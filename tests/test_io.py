"""save, load, savez, savez_compressed, savetxt, loadtxt, genfromtxt, fromfile, frombuffer, fromstring and
fromiter (cuarray._io): NumPy's file formats, read and written on the host, against NumPy."""

import io
import pickle

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, assert_same, dtype_id, make_data, make_pair

gpu = pytest.mark.gpu

TEXT = "# values\n1.5,2,3\n4,-5.25,6\n7,8,9.125\n"
MISSING = "1,2,3\n4,,6\n7,8,\n"


# ---- without a GPU ----------------------------------------------------------------------------------------


def test_npz_mapping_reads_nothing_until_an_item_is_looked_up(tmp_path):
    path = tmp_path / "a.npz"
    np.savez(path, a=np.arange(3), b=np.ones((2, 2)))
    with cp.load(path) as f:
        assert f.files == ["a", "b"] and list(f) == ["a", "b"] and len(f) == 2
        assert "a" in f and "c" not in f
        assert "a.npz" in repr(f)


@pytest.mark.parametrize(
    "name, args",
    [("binary_repr", a) for a in [(0,), (3,), (-3,), (0, 0), (3, 5), (-3, 5), (2**70,)]]
    + [("base_repr", a) for a in [(0,), (-5,), (5, 36, 3), (-5, 2, 1), (2**70, 7)]],
)
def test_base_n_strings_are_numpys(name, args):
    assert getattr(cp, name)(*args) == getattr(np, name)(*args)


@pytest.mark.parametrize("name, bad", [("binary_repr", (5, -1)), ("base_repr", (5, 37))])
def test_base_n_functions_are_documented_as_cuarrays(name, bad):
    import inspect

    ours, theirs = getattr(cp, name), getattr(np, name)
    assert inspect.signature(ours) == inspect.signature(theirs)
    assert ours.__doc__ and ours.__doc__ is not theirs.__doc__
    with pytest.raises(ValueError) as expected:
        theirs(*bad)
    with pytest.raises(ValueError, match=str(expected.value)):  # NumPy's error and message
        ours(*bad)


def test_load_pickled_object_as_numpy_does(tmp_path):
    path = tmp_path / "obj.pkl"
    path.write_bytes(pickle.dumps({"k": [1, 2]}))
    assert cp.load(path, allow_pickle=True) == np.load(path, allow_pickle=True) == {"k": [1, 2]}
    with pytest.raises(ValueError, match="allow_pickle"):
        cp.load(path)


def test_dtypes_the_device_lacks_are_refused(tmp_path):
    path = tmp_path / "s.npy"
    np.save(path, np.array(["a", "b"]))
    with pytest.raises(TypeError, match="does not support the data type"):
        cp.load(path)
    with pytest.raises(TypeError, match="does not support the data type"):
        cp.loadtxt(io.StringIO("a b\nc d\n"), dtype=str)
    with pytest.raises(TypeError, match="does not support the data type"):
        cp.frombuffer(b"abcd", dtype="S2")


@pytest.mark.gpu
def test_genfromtxt_of_mixed_columns_is_a_structured_array():
    """Columns of several types are NumPy's structured array, held on the device as storage."""
    text = "1,x\n2,y\n"
    got = cp.genfromtxt(io.StringIO(text), delimiter=",", dtype=None, encoding="utf-8")
    want = np.genfromtxt(io.StringIO(text), delimiter=",", dtype=None, encoding="utf-8")
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.get().tobytes() == want.tobytes()


def test_genfromtxt_masked_result_not_supported():
    with pytest.raises(NotImplementedError, match="usemask"):
        cp.genfromtxt(io.StringIO(MISSING), delimiter=",", usemask=True)


def test_numpy_arrays_are_written_as_numpy_writes_them(tmp_path):
    a = make_data((3, 4), "float32")
    cp.save(tmp_path / "a.npy", a)
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), a)
    got, want = io.StringIO(), io.StringIO()
    cp.savetxt(got, a, fmt="%.3f", delimiter=",", header="h")
    np.savetxt(want, a, fmt="%.3f", delimiter=",", header="h")
    assert got.getvalue() == want.getvalue()


def test_numpy_errors_pass_through(tmp_path):
    for xp in (np, cp):
        with pytest.raises(ValueError, match="binary mode"):
            xp.fromstring("1 2")
        with pytest.raises(FileNotFoundError):
            xp.load(tmp_path / "missing.npy")


# ---- on the device ----------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "3d_permuted", "0d", "empty"])
def test_save_load_round_trip(tmp_path, layout, dtype):
    x, a = make_pair(layout, dtype)
    cp.save(tmp_path / "x.npy", x)
    np.testing.assert_array_equal(np.load(tmp_path / "x.npy"), a, strict=True)
    assert_same(cp.load(tmp_path / "x.npy"), a)
    buf = io.BytesIO()
    cp.save(buf, x)
    buf.seek(0)
    assert_same(cp.load(buf), a)


@gpu
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "3d_permuted"])
@pytest.mark.parametrize("name", ["save", "savez"])
def test_saved_files_are_numpys_byte_for_byte(layout, name):
    # An F-contiguous array is written as NumPy writes it (fortran_order: True), and loads F-contiguous.
    x, a = make_pair(layout, "float32")
    files = []
    for xp, arr in ((np, a), (cp, x)):
        buf = io.BytesIO()
        getattr(xp, name)(buf, arr)
        files.append(buf.getvalue())
    assert files[0] == files[1] or name == "savez"  # a zip archive holds timestamps
    loaded = cp.load(io.BytesIO(files[1]))
    if name == "save":
        np_loaded = np.load(io.BytesIO(files[0]))
        assert loaded.flags.f_contiguous == np_loaded.flags.f_contiguous
        assert loaded.flags.c_contiguous == np_loaded.flags.c_contiguous
    else:
        with loaded as f, np.load(io.BytesIO(files[0])) as g:
            assert f["arr_0"].flags.f_contiguous == g["arr_0"].flags.f_contiguous


@gpu
def test_load_mmap_and_other_byte_order(tmp_path):
    a = make_data((5, 3), "int32")
    np.save(tmp_path / "a.npy", a)
    assert_same(cp.load(tmp_path / "a.npy", mmap_mode="r"), a)
    np.save(tmp_path / "big.npy", a.astype(">f8"))
    assert_same(cp.load(tmp_path / "big.npy"), a.astype("float64"))


@gpu
@pytest.mark.parametrize("name", ["savez", "savez_compressed"])
def test_savez_and_npz_items_on_the_device(tmp_path, name):
    a, b = make_data((3, 4), "float16"), make_data(5, "complex64")
    x, y = cp.asarray(a), cp.asarray(b)
    getattr(cp, name)(tmp_path / "f.npz", x[:, ::-1], second=y, host=a)
    want = np.load(tmp_path / "f.npz")
    assert sorted(want.files) == ["arr_0", "host", "second"]
    with cp.load(tmp_path / "f.npz") as f:
        assert sorted(f.files) == sorted(want.files)
        assert_same(f["arr_0"], a[:, ::-1])
        assert_same(f["second"], b)
        assert_same(f["host"], a)
        assert all(isinstance(v, cp.ndarray) for v in f.values())


@gpu
def test_numpy_functions_dispatch_here(tmp_path):
    a = make_data((2, 3), "int64")
    x = cp.asarray(a)
    np.save(tmp_path / "x.npy", x)
    np.testing.assert_array_equal(np.load(tmp_path / "x.npy"), a, strict=True)
    np.savez(tmp_path / "m.npz", dev=x, host=a[::-1])
    with cp.load(tmp_path / "m.npz") as f:
        assert_same(f["dev"], a)
        assert_same(f["host"], a[::-1])
    got = np.loadtxt(io.StringIO(TEXT), delimiter=",", like=x)
    assert_same(got, np.loadtxt(io.StringIO(TEXT), delimiter=","))


@gpu
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"fmt": "%d", "delimiter": ","},
        {"fmt": "%.2f", "header": "a b c", "footer": "end", "comments": "// "},
        {"newline": ";\n"},
    ],
    ids=repr,
)
@pytest.mark.parametrize("layout", ["c2d", "negative", "1d"])
def test_savetxt(layout, kwargs):
    x, a = make_pair(layout, "float64")
    got, want = io.StringIO(), io.StringIO()
    cp.savetxt(got, x, **kwargs)
    np.savetxt(want, a, **kwargs)
    assert got.getvalue() == want.getvalue()


@gpu
@pytest.mark.parametrize(
    "kwargs",
    [
        {"delimiter": ","},
        {"delimiter": ",", "dtype": "float32"},
        {"delimiter": ",", "usecols": (0, 2), "skiprows": 1},
        {"delimiter": ",", "unpack": True},
        {"delimiter": ",", "ndmin": 2, "skiprows": 1, "max_rows": 1},
        {"delimiter": ",", "dtype": "int16", "converters": float},
    ],
    ids=repr,
)
def test_loadtxt(kwargs):
    got = cp.loadtxt(io.StringIO(TEXT), **kwargs)
    want = np.loadtxt(io.StringIO(TEXT), **kwargs)
    assert_same(got, want)


@gpu
def test_loadtxt_unpack_structured_gives_a_list():
    kwargs = {
        "delimiter": ",",
        "dtype": [("a", "f8"), ("b", "i4"), ("c", "f4")],
        "converters": float,
        "unpack": True,
    }
    got, want = cp.loadtxt(io.StringIO(TEXT), **kwargs), np.loadtxt(io.StringIO(TEXT), **kwargs)
    assert isinstance(got, list) and len(got) == len(want) == 3
    for g, w in zip(got, want):
        assert_same(g, w)


@gpu
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"filling_values": -1},
        {"filling_values": 0, "dtype": "int32"},
        {"skip_header": 1},
        {"skip_footer": 1, "usecols": (1, 2)},
        {"missing_values": "", "filling_values": 9.5, "unpack": True},
    ],
    ids=repr,
)
def test_genfromtxt(kwargs):
    got = cp.genfromtxt(io.StringIO(MISSING), delimiter=",", **kwargs)
    want = np.genfromtxt(io.StringIO(MISSING), delimiter=",", **kwargs)
    assert_same(got, want)


@gpu
@pytest.mark.parametrize("dtype", ["uint8", "int32", "float16", "complex128"])
def test_fromfile_and_frombuffer(tmp_path, dtype):
    a = make_data(12, dtype)
    a.tofile(tmp_path / "raw")
    for kwargs in ({}, {"count": 5}, {"offset": 2 * a.itemsize, "count": -1}):
        want = np.fromfile(tmp_path / "raw", dtype, **kwargs)
        assert_same(cp.fromfile(tmp_path / "raw", dtype, **kwargs), want)
    raw = a.tobytes()
    for kwargs in ({}, {"count": 3, "offset": a.itemsize}):
        assert_same(cp.frombuffer(raw, dtype, **kwargs), np.frombuffer(raw, dtype, **kwargs))
    assert_same(cp.frombuffer(memoryview(raw), dtype), a)


@gpu
def test_fromfile_text_and_default_dtype(tmp_path):
    (tmp_path / "t.txt").write_text("1.5, 2, 3.25, 4")
    for kwargs in ({"sep": ","}, {"sep": ",", "dtype": "float32", "count": 2}):
        assert_same(cp.fromfile(tmp_path / "t.txt", **kwargs), np.fromfile(tmp_path / "t.txt", **kwargs))
    assert_same(cp.frombuffer(np.arange(3.0).tobytes()), np.arange(3.0))


@gpu
@pytest.mark.parametrize(
    "kwargs", [{"sep": " "}, {"sep": ",", "dtype": "int64"}, {"sep": ",", "count": 2}], ids=repr
)
def test_fromstring(kwargs):
    text = "1, 2, 3, 4" if kwargs["sep"] == "," else "1.5 2 -3"
    assert_same(cp.fromstring(text, **kwargs), np.fromstring(text, **kwargs))


@gpu
@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64", "bool"])
def test_fromiter(dtype):
    want = np.fromiter((i % 3 for i in range(10)), dtype)
    assert_same(cp.fromiter((i % 3 for i in range(10)), dtype), want)
    assert_same(cp.fromiter(iter(range(10)), dtype, count=4), np.fromiter(iter(range(10)), dtype, count=4))
    assert_same(cp.fromiter([], dtype), np.fromiter([], dtype))
