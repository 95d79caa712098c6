"""The on-disk NVRTC kernel cache, through the public surface: CUARRAY_CACHE_DIR, fresh processes,
`python -m cuarray cache` and `cache clear`."""

import json
import os
import re
import site

import pytest
from conftest import describe, run_python

pytestmark = pytest.mark.gpu

# Launches several fill / copy / cast kernels and checks their results in the child.
KERNELS = r"""
import numpy as np, cuarray as cp
x = cp.arange(10, dtype=np.float32)
assert cp.asnumpy(x).tolist() == list(range(10))
y = x.astype(np.complex64)
assert cp.asnumpy(y).tolist() == [complex(i) for i in range(10)]
z = cp.asarray(np.arange(12, dtype=np.int16).reshape(3, 4))[:, ::-2].copy()
assert cp.asnumpy(z).tolist() == np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::-2].tolist()
w = cp.zeros((2, 3), dtype=np.int8)
w.fill(7)
assert cp.asnumpy(w).tolist() == [[7, 7, 7], [7, 7, 7]]
print("KERNELS OK")
"""


def cache_files(d):
    """Regular files under d (recursively), as {relative path: bytes}."""
    out = {}
    if not os.path.isdir(d):
        return out
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, d)] = fh.read()
    return out


def run_kernels(env):
    proc = run_python(code=KERNELS, env=env, timeout=300)
    assert proc.returncode == 0, describe(proc)
    assert "KERNELS OK" in proc.stdout, describe(proc)
    return proc


@pytest.fixture
def cache_dir(tmp_path):
    return tmp_path / "cache" / "kernels"  # does not exist yet


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """The cache files written by one run of KERNELS into an empty CUARRAY_CACHE_DIR."""
    d = tmp_path_factory.mktemp("pristine") / "kernels"
    run_kernels({"CUARRAY_CACHE_DIR": d})
    return cache_files(d)


def write_files(d, files):
    for rel, data in files.items():
        path = os.path.join(d, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)


def test_kernels_are_written_to_cache_dir(pristine):
    assert pristine, "nothing written to CUARRAY_CACHE_DIR"
    assert all(len(b) > 0 for b in pristine.values())


def test_second_process_reuses_the_cache(cache_dir, pristine):
    write_files(cache_dir, pristine)
    run_kernels({"CUARRAY_CACHE_DIR": cache_dir})
    assert set(cache_files(cache_dir)) == set(pristine), "the same kernels were cached again under new names"


def test_default_cache_dir_is_under_home(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "HOME": home,
        "CUARRAY_CACHE_DIR": None,
        "XDG_CACHE_HOME": None,
        # keep packages installed with `pip install --user` importable under the new HOME
        "PYTHONUSERBASE": site.getuserbase(),
    }
    run_kernels(env)
    assert cache_files(home / ".cache" / "cuarray" / "kernels")
    proc = run_python("-m", "cuarray", "cache", env=env, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert str(home / ".cache" / "cuarray" / "kernels") in proc.stdout, proc.stdout


def corrupt_truncate(data):
    return data[: len(data) // 2]


def corrupt_empty(data):
    return b""


def corrupt_garbage(data):
    return bytes((i * 131 + 17) % 256 for i in range(len(data)))


def corrupt_flip_middle(data):
    mid = len(data) // 2
    return data[:mid] + bytes([data[mid] ^ 0xFF]) + data[mid + 1 :]


@pytest.mark.parametrize(
    "corrupt",
    [corrupt_truncate, corrupt_empty, corrupt_garbage, corrupt_flip_middle],
    ids=["truncated", "empty", "garbage", "flipped_byte"],
)
def test_corrupt_cache_files_are_recompiled(cache_dir, pristine, corrupt):
    assert pristine
    write_files(cache_dir, {rel: corrupt(data) for rel, data in pristine.items()})
    env = {"CUARRAY_CACHE_DIR": cache_dir}
    run_kernels(env)  # correct results: the bad files were not trusted
    if corrupt is corrupt_truncate:
        run_kernels(env)  # and whatever that run left behind is usable too


def test_unwritable_cache_dir_warns_once_and_works(tmp_path):
    blocker = tmp_path / "not_a_directory"
    blocker.write_text("a file where the cache directory's parent should be")
    bad_dir = blocker / "kernels"
    code = (
        "import json, warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        + "".join("    " + line + "\n" for line in KERNELS.strip().splitlines())
        + "    import numpy as np, cuarray as cp\n"
        "    v = cp.arange(20, dtype=np.int16).astype(np.float64)[::3]\n"
        "    assert cp.asnumpy(v).tolist() == [float(i) for i in range(0, 20, 3)]\n"
        "print(json.dumps([[w.category.__name__, str(w.message)] for w in caught\n"
        "                  if issubclass(w.category, UserWarning)]))\n"
    )
    proc = run_python(code=code, env={"CUARRAY_CACHE_DIR": bad_dir}, timeout=300)
    assert proc.returncode == 0, describe(proc)
    assert "KERNELS OK" in proc.stdout
    warned = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(warned) == 1, f"expected exactly one UserWarning, got {warned}"
    assert "cache" in warned[0][1].lower() or str(bad_dir) in warned[0][1], warned
    assert blocker.read_text().startswith("a file")


# ---- python -m cuarray cache / cache clear -------------------------------------------------------


def kernel_count(text, cache_dir):
    """The number of kernels reported by `python -m cuarray cache` ("N kernels" or "kernels: N")."""
    text = text.replace(str(cache_dir), "<dir>")
    m = re.search(r"(\d[\d,_]*)\s+(?:cached\s+)?kernels?\b", text, re.IGNORECASE) or re.search(
        r"kernels?\b[^\d\n]{0,20}?(\d[\d,_]*)", text, re.IGNORECASE
    )
    assert m, f"no kernel count found in:\n{text}"
    return int(re.sub(r"[,_]", "", m.group(1)))


def test_cache_command_on_empty_dir(cache_dir):
    env = {"CUARRAY_CACHE_DIR": cache_dir}
    proc = run_python("-m", "cuarray", "cache", env=env, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert str(cache_dir) in proc.stdout, proc.stdout
    assert kernel_count(proc.stdout, cache_dir) == 0


def test_cache_command_shows_dir_count_and_size_then_clear_empties(cache_dir, pristine):
    env = {"CUARRAY_CACHE_DIR": cache_dir}
    write_files(cache_dir, pristine)
    assert cache_files(cache_dir)

    proc = run_python("-m", "cuarray", "cache", env=env, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert str(cache_dir) in proc.stdout, proc.stdout
    assert kernel_count(proc.stdout, cache_dir) >= 1
    assert re.search(r"\d\s*(B|bytes|KB|KiB|kB|MB|MiB|GB|GiB)\b", proc.stdout), f"no size in:\n{proc.stdout}"

    proc = run_python("-m", "cuarray", "cache", "clear", env=env, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert not cache_files(cache_dir), "cache clear left files behind"

    proc = run_python("-m", "cuarray", "cache", env=env, timeout=120)
    assert proc.returncode == 0, describe(proc)
    assert kernel_count(proc.stdout, cache_dir) == 0

    run_kernels(env)  # the cleared cache fills up again
    assert cache_files(cache_dir)


# cuarray.cuda.compiler.warmup and the "cuarray" logger, through a user's kernel: compiled in the first
# process, from the disk cache in the second, from memory (neither counted nor logged) on the second warm-up.
WARMUP = r"""
import json, logging, sys
logging.basicConfig(level=logging.DEBUG, format="%(name)s %(message)s", stream=sys.stdout)
import cuarray as cp
from cuarray.cuda import compiler
kernel = cp.ElementwiseKernel("float32 x", "float32 y", "y = x * 3.0f", "warmup_triple")
x = cp.arange(5, dtype=cp.float32)
first = compiler.warmup(kernel, x)
second = compiler.warmup(kernel, x)
print(json.dumps([first, second, kernel(x).get().tolist()]))
"""


def test_warmup_counts_and_logs_the_kernels_a_function_needs(cache_dir):
    def run():
        proc = run_python(code=WARMUP, env={"CUARRAY_CACHE_DIR": cache_dir}, timeout=300)
        assert proc.returncode == 0, describe(proc)
        lines = proc.stdout.strip().splitlines()
        return [line for line in lines[:-1] if "warmup_triple" in line], json.loads(lines[-1])

    logged, (first, second, result) = run()
    assert result == [0.0, 3.0, 6.0, 9.0, 12.0]
    assert first["compiled"] >= 1 and second == {"compiled": 0, "from_disk": 0}, (first, second)
    assert len(logged) == 1 and re.fullmatch(
        r"cuarray compiled kernel \S*warmup_triple\S* \(key [0-9a-f]{12}\) "
        r"in [0-9.]+ ms",
        logged[0],
    ), logged
    logged, (first, second, _) = run()
    assert first == {"compiled": 0, "from_disk": first["from_disk"]} and first["from_disk"] >= 1, first
    assert second == {"compiled": 0, "from_disk": 0}
    assert len(logged) == 1 and re.fullmatch(
        r"cuarray loaded kernel \S*warmup_triple\S* \(key [0-9a-f]{12}\) "
        r"from the disk cache in [0-9.]+ ms",
        logged[0],
    ), logged
