"""The disk kernel cache without a device: cuarray._core.jit.cached_binary goes through the same disk cache as
every kernel launch (Note [Kernel cache key]) but stops before loading, so NVRTC alone is needed and these run
in CI. Each case runs in fresh processes, as users meet the cache: CUARRAY_CACHE_DIR, damaged or foreign files,
processes compiling at once, directories that cannot be written. tests/cuda/test_compiler_cache.py checks the
same through real kernel launches on a GPU."""

import hashlib
import json
import os
import pathlib
import re
import subprocess
import sys
import time

import pytest
from conftest import describe, run_python, subprocess_env

# Compiles the kernels numbered in argv[1] ("1" or "1,3"; kernels differ by a constant), after the file argv[2]
# exists if given; prints where the first binary came from, its hash, and the warnings raised.
CHILD = r"""
import hashlib, json, os, sys, time, warnings
from cuarray import _core
if len(sys.argv) > 2:
    while not os.path.exists(sys.argv[2]):
        time.sleep(0.001)
results = []
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for k in sys.argv[1].split(","):
        source = 'extern "C" __global__ void k(float* x) { x[threadIdx.x] += %s.0f; }' % k
        results.append(_core.jit.cached_binary(source, "k", [], 90))
code, from_disk = results[0]
print(json.dumps({"from_disk": from_disk, "sha": hashlib.sha256(code).hexdigest(), "elf": code[:4] == b"\x7fELF",
                  "dir": _core.jit.cache_dir(),
                  "warnings": [str(w.message) for w in caught if issubclass(w.category, UserWarning)]}))
"""


def compile_in_child(cache_dir, kernel=1, env=None):
    env = {"CUARRAY_CACHE_DIR": cache_dir, **(env or {})}
    proc = run_python(str(kernel), code=CHILD, env=env, timeout=180)
    assert proc.returncode == 0, describe(proc)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["elf"], out
    return out


def entries(d):
    """The cache's entry files (name -> bytes); other files are listed under their own names."""
    return (
        {f: open(os.path.join(d, f), "rb").read() for f in sorted(os.listdir(d))} if os.path.isdir(d) else {}
    )


@pytest.fixture
def cache_dir(tmp_path):
    return str(tmp_path / "missing" / "kernels")  # created by the first compilation


def test_cache_dir_env_is_honoured_and_created_and_reused(cache_dir):
    first = compile_in_child(cache_dir)
    assert not first["from_disk"]
    assert first["dir"] == cache_dir
    assert first["warnings"] == []
    files = entries(cache_dir)
    assert len(files) == 1 and all(n.endswith(".bin") for n in files), files
    second = compile_in_child(cache_dir)
    assert second["from_disk"], "a second process compiled again instead of reading the disk cache"
    assert second["sha"] == first["sha"]
    assert entries(cache_dir) == files


@pytest.mark.parametrize("value", [None, ""], ids=["unset", "empty"])
def test_default_cache_dir_is_under_home(tmp_path, value):
    home = tmp_path / "home"
    home.mkdir()
    out = compile_in_child(None, env={"CUARRAY_CACHE_DIR": value, "HOME": home, "XDG_CACHE_HOME": None})
    expected = str(home / ".cache" / "cuarray" / "kernels")
    assert out["dir"] == expected
    assert len(entries(expected)) == 1


def _damage(kind, data, other):
    mid = len(data) // 2
    return {
        "truncated": data[:mid],
        "header_only": data[:64],
        "empty": b"",
        "payload_byte_flipped": data[:mid] + bytes([data[mid] ^ 0x01]) + data[mid + 1 :],
        "header_byte_flipped": data[:20] + bytes([data[20] ^ 0x80]) + data[21:],
        "bytes_appended": data + b"\x00" * 16,
        "garbage_same_length": (hashlib.sha256(data).digest() * (len(data) // 32 + 1))[: len(data)],
        "text": b"not a cuarray kernel\n",
        "another_kernels_entry": other,
        "size_claims_4_gib": _with_size(data, 1 << 32),
        "size_claims_2_to_the_64_minus_1": _with_size(data, 2**64 - 1),
        "size_one_short": _with_size(data, len(data) - _HEADER_BYTES - 1),
        "size_one_long_and_byte_appended": _with_size(data, len(data) - _HEADER_BYTES + 1) + b"\x00",
        "size_zero": _with_size(data, 0),
    }[kind]


# The entry's header (FileHeader in cpp/cuarray/jit/kernel_cache.cpp): magic, key, then the payload's size.
_HEADER_BYTES = 56
_SIZE_FIELD = slice(24, 32)


def _with_size(data, size):
    return data[: _SIZE_FIELD.start] + size.to_bytes(8, "little") + data[_SIZE_FIELD.stop :]


DAMAGE = [
    "truncated",
    "header_only",
    "empty",
    "payload_byte_flipped",
    "header_byte_flipped",
    "bytes_appended",
    "garbage_same_length",
    "text",
    "another_kernels_entry",
    "size_claims_4_gib",
    "size_claims_2_to_the_64_minus_1",
    "size_one_short",
    "size_one_long_and_byte_appended",
    "size_zero",
]


@pytest.fixture(scope="module")
def two_entries(tmp_path_factory):
    """(kernel 1's entry name and bytes, kernel 2's entry bytes, kernel 1's binary hash), each compiled alone."""
    d1, d2 = str(tmp_path_factory.mktemp("k1")), str(tmp_path_factory.mktemp("k2"))
    sha = compile_in_child(d1, 1)["sha"]
    compile_in_child(d2, 2)
    ((name1, data1),), ((_, data2),) = entries(d1).items(), entries(d2).items()
    return name1, data1, data2, sha


@pytest.mark.parametrize("kind", DAMAGE)
def test_damaged_or_foreign_entry_is_recompiled_and_replaced(tmp_path, two_entries, kind):
    name, data, other, sha = two_entries
    d = str(tmp_path / "kernels")
    os.makedirs(d)
    with open(os.path.join(d, name), "wb") as f:
        f.write(_damage(kind, data, other))
    out = compile_in_child(d, 1)
    assert not out["from_disk"], f"a {kind} entry was trusted"
    assert out["sha"] == sha
    assert out["warnings"] == []
    assert entries(d)[name] == data, "the bad entry was not replaced by a good one"
    assert compile_in_child(d, 1)["from_disk"]


def test_header_layout_the_size_cases_assume(two_entries):
    _, data, _, _ = two_entries
    assert len(data) > _HEADER_BYTES
    assert int.from_bytes(data[_SIZE_FIELD], "little") == len(data) - _HEADER_BYTES, "the header layout moved"


# Reads kernel 1 through the cache; prints the peak memory of the process (KiB) and how long the read took.
PEAK_CHILD = CHILD.replace(
    "print(json.dumps({",
    "import resource\nprint(json.dumps({'rss_kib': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, ",
)


@pytest.mark.parametrize("size", [1 << 32, 1 << 40])
def test_entry_claiming_a_huge_payload_costs_neither_memory_nor_time(tmp_path, two_entries, size):
    # A size field of 4 GiB made the next process allocate (and zero) 4 GiB before noticing the file was short.
    name, data, _, sha = two_entries
    d = tmp_path / "kernels"
    d.mkdir()
    (d / name).write_bytes(_with_size(data, size))
    t = time.monotonic()
    proc = run_python("1", code=PEAK_CHILD, env={"CUARRAY_CACHE_DIR": str(d)}, timeout=180)
    elapsed = time.monotonic() - t
    assert proc.returncode == 0, describe(proc)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert not out["from_disk"] and out["sha"] == sha
    # Against a child that compiles the same kernel into an empty cache: NVRTC's own peak differs between hosts.
    clean = tmp_path / "clean"
    clean.mkdir()
    ref = run_python("1", code=PEAK_CHILD, env={"CUARRAY_CACHE_DIR": str(clean)}, timeout=180)
    assert ref.returncode == 0, describe(ref)
    base = json.loads(ref.stdout.strip().splitlines()[-1])["rss_kib"]
    assert out["rss_kib"] < base + (256 << 10), (
        f"the child's peak memory was {out['rss_kib'] >> 10} MiB, against {base >> 10} MiB for a clean compile"
    )
    assert elapsed < 60, f"the child took {elapsed:.1f} s"
    assert (d / name).read_bytes() == data


def _place(kind, path):
    if kind == "empty_directory":
        os.mkdir(path)
    elif kind == "directory_with_a_file":
        os.mkdir(path)
        with open(os.path.join(path, "keep"), "w") as f:
            f.write("not ours")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dangling_symlink":
        os.symlink(path + ".nowhere", path)


@pytest.mark.parametrize("kind", ["empty_directory", "directory_with_a_file", "fifo", "dangling_symlink"])
def test_something_other_than_a_file_in_an_entrys_place_is_ignored(tmp_path, two_entries, kind):
    name, data, _, sha = two_entries
    d = tmp_path / "kernels"
    d.mkdir()
    _place(kind, str(d / name))
    out = compile_in_child(
        str(d), 1
    )  # a FIFO opened for reading would block: run_python's timeout catches it
    assert not out["from_disk"] and out["sha"] == sha
    assert out["warnings"] == [], "one odd entry turned the whole disk cache off"
    if kind == "directory_with_a_file":
        assert (d / name / "keep").read_text() == "not ours"
        assert not compile_in_child(str(d), 1)["from_disk"]
    else:  # replaced by the fresh compile
        assert (d / name).read_bytes() == data
        assert compile_in_child(str(d), 1)["from_disk"]
    assert compile_in_child(str(d), 2)["warnings"] == []  # other kernels are still cached on disk
    assert len([f for f in os.listdir(d) if f.endswith(".bin")]) == 2


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_entry_is_recompiled_and_replaced(tmp_path, two_entries):
    name, data, _, sha = two_entries
    d = tmp_path / "kernels"
    d.mkdir()
    (d / name).write_bytes(data)
    (d / name).chmod(0)
    out = compile_in_child(str(d), 1)
    assert not out["from_disk"] and out["sha"] == sha and out["warnings"] == []
    assert (d / name).read_bytes() == data


def test_foreign_files_in_the_directory_are_left_alone(tmp_path):
    d = tmp_path / "kernels"
    (d / "subdir.bin").mkdir(parents=True)
    foreign = {"README.txt": b"notes", "0" * 32 + ".bin.tmp.1.0.2": b"half-written", "other.bin": b"junk"}
    for n, b in foreign.items():
        (d / n).write_bytes(b)
    out = compile_in_child(str(d))
    assert not out["from_disk"] and out["warnings"] == []
    assert compile_in_child(str(d))["from_disk"]
    for n, b in foreign.items():
        assert (d / n).read_bytes() == b


def test_processes_compiling_the_same_kernel_at_once_all_succeed(tmp_path):
    d = str(tmp_path / "kernels")
    go = str(tmp_path / "go")
    env = subprocess_env({"CUARRAY_CACHE_DIR": d})
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, "1", go],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    time.sleep(1.0)  # let every child import cuarray and wait at the start line
    open(go, "w").close()
    results = []
    for p in procs:
        out, err = p.communicate(timeout=180)
        assert p.returncode == 0, f"rc={p.returncode}\n{out}\n{err}"
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert len({r["sha"] for r in results}) == 1
    assert all(r["warnings"] == [] for r in results)
    files = entries(d)
    assert len(files) == 1 and all(n.endswith(".bin") for n in files), f"leftovers: {sorted(files)}"
    assert compile_in_child(d)["from_disk"]


@pytest.fixture
def unwritable_dir(tmp_path):
    """An existing directory this process cannot create files in. Root may write anywhere it can chmod, so
    root gets /proc, which no one can create files in."""
    if os.geteuid() == 0:
        yield "/proc"
        return
    d = tmp_path / "read_only"
    d.mkdir()
    d.chmod(0o555)
    yield str(d)
    d.chmod(0o755)


def _check_memory_only(d, out):
    assert out["elf"] and not out["from_disk"]
    assert len(out["warnings"]) == 1, f"expected one warning for two kernels, got {out['warnings']}"
    assert d in out["warnings"][0] and "memory" in out["warnings"][0], out["warnings"]


def test_read_only_cache_dir_means_memory_only_with_one_warning(unwritable_dir):
    _check_memory_only(unwritable_dir, compile_in_child(unwritable_dir, "1,2"))
    assert not [f for f in os.listdir(unwritable_dir) if ".bin" in f]


def test_cache_dir_that_cannot_be_created_means_memory_only_with_one_warning(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("a file where the cache directory's parent should be")
    d = str(blocker / "kernels")
    _check_memory_only(d, compile_in_child(d, "1,2"))
    assert blocker.read_text().startswith("a file")


def test_cache_command_counts_and_clears_without_a_gpu(tmp_path):
    d = str(tmp_path / "kernels")
    compile_in_child(d, "1,2")
    (tmp_path / "kernels" / "README.txt").write_text("not a kernel")
    env = {"CUARRAY_CACHE_DIR": d}
    proc = run_python("-m", "cuarray", "cache", env=env, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert d in proc.stdout and "Kernels: 2" in proc.stdout, proc.stdout
    proc = run_python("-m", "cuarray", "cache", "clear", env=env, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert sorted(os.listdir(d)) == ["README.txt"]


def test_embedded_headers_are_the_source_trees():
    """The extension carries the kernel headers (jit/kernel_headers.h): the same files, byte for byte, as
    cpp/cuarray/kernels, so a build that missed a header change is caught here; then CuPy's four names for user
    kernels' headers (Note [User kernel headers] in jit/kernel_cache.cpp)."""
    from cuarray import _core

    d = os.path.join(os.path.dirname(__file__), "..", "cpp", "cuarray", "kernels")
    files = sorted(f for f in os.listdir(d) if f.endswith(".cuh"))
    expected = [("cuarray/" + f, pathlib.Path(d, f).read_text(encoding="utf-8")) for f in files]
    expected += [
        ("cupy/complex.cuh", "#include <cuarray/user_complex.cuh>\n"),
        ("cupy/float16.cuh", "#include <cuarray/user_float16.cuh>\n"),
        ("cupy/cuComplex_bridge.h", "#include <cuarray/user_cucomplex.cuh>\n"),
        ("cupy/atomics.cuh", "#include <cuarray/user_atomics.cuh>\n"),
    ]
    assert _core.jit.headers() == expected


# Note [Kernel cache log]: compiles and disk-cache reads on the "cuarray" logger at DEBUG level; argv[1] is the
# level the logging is configured at ("none": logging never imported).
LOGGED = r"""
import sys
if sys.argv[1] != "none":
    import logging
    logging.basicConfig(level=getattr(logging, sys.argv[1]), format="%(name)s %(levelname)s %(message)s",
                        stream=sys.stdout)
from cuarray import _core
_core.jit.cached_binary('extern "C" __global__ void logged(float* x) { x[0] = 1.0f; }', "logged", [], 90)
print("done")
"""


def test_compiles_and_disk_cache_loads_are_logged_at_debug_level(cache_dir):
    def run(level):
        proc = run_python(level, code=LOGGED, env={"CUARRAY_CACHE_DIR": cache_dir}, timeout=180)
        assert proc.returncode == 0, describe(proc)
        lines = proc.stdout.strip().splitlines()
        assert lines[-1] == "done", describe(proc)
        return lines[:-1]

    [compiled] = run("DEBUG")
    match = re.fullmatch(
        r"cuarray DEBUG compiled kernel logged \(key ([0-9a-f]{12})\) in [0-9.]+ ms", compiled
    )
    assert match, compiled
    [entry] = os.listdir(cache_dir)
    assert entry.startswith(match[1]), (entry, compiled)
    [loaded] = run("DEBUG")
    assert re.fullmatch(
        rf"cuarray DEBUG loaded kernel logged \(key {match[1]}\) from the disk cache in [0-9.]+ ms", loaded
    ), loaded
    assert run("INFO") == []
    assert run("none") == []
