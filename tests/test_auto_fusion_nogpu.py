"""Automatic fusion without a device: the ufuncs it records compile to the same machine code with FMA contraction
on and off (so a fused kernel, compiled with it off, rounds every step as the eager kernels do: Note [Automatic
fusion]), and its switch."""

import os
import struct
import subprocess
import sys

import cuarray as cp
from cuarray import _core


def text_sections(elf):
    """The machine code of each kernel of a cubin: its .text.<name> sections."""
    shoff = struct.unpack_from("<Q", elf, 0x28)[0]
    entsize, count, names_index = struct.unpack_from("<HHH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQ", elf, shoff + i * entsize) for i in range(count)]
    names = sections[names_index][4]
    out = {}
    for name, _type, _flags, _addr, offset, size in sections:
        label = elf[names + name : elf.index(b"\0", names + name)].decode()
        if label.startswith(".text."):
            out[label[6:]] = elf[offset : offset + size]
    return out


def fusable_loops(kinds):
    """(ufunc, signature) of every recorded ufunc's loops whose types include one of `kinds` (NumPy's type
    characters), where automatic fusion records that loop."""
    for name, loops in _core._fusable_ufuncs().items():
        for sig in _core._ufunc_row(name)[1]:
            if not any(k in sig for k in kinds) or loops == "integer":
                continue
            if any(c in sig for c in "FD") and loops != "complex":
                continue
            yield name, sig.replace("q", "l").replace("Q", "L")


def test_recorded_loops_compile_alike_with_and_without_contraction():
    sources = {}
    for name, sig in fusable_loops("fD"):
        nin = len(sig.split("->")[0])
        src, kernel = _core.jit.sources.ufunc(name, sig, [False] * nin, True, 0, True, False, 0, 0)[:2]
        sources[kernel] = src
    assert len(sources) > 60
    program = "\n".join(sources.values())
    headers = _core.jit.headers()
    on = text_sections(_core.jit.compile(program, "contraction_on", [], 90, headers))
    off = text_sections(_core.jit.compile(program, "contraction_off", ["-fmad=false"], 90, headers))
    assert set(on) == set(sources)
    differ = sorted(k for k in sources if on[k] != off[k])
    assert not differ, (
        f"these loops change with FMA contraction, so fusing them could change results: {differ}"
    )


def test_a_loop_with_contraction_is_not_recorded():
    # arctan2's float32 loop compiles differently with contraction off (the check above would catch it).
    assert "arctan2" not in _core._fusable_ufuncs()
    assert "add" in _core._fusable_ufuncs()


def test_switch_is_per_thread_and_nests():
    import threading

    default = _core._auto_fuse_min_size()
    seen = []
    with cp.auto_fuse(False):
        assert _core._auto_fuse_min_size() is None
        with cp.auto_fuse():
            assert _core._auto_fuse_min_size() == 1
        assert _core._auto_fuse_min_size() is None
        t = threading.Thread(target=lambda: seen.append(_core._auto_fuse_min_size()))
        t.start()
        t.join()
    assert _core._auto_fuse_min_size() == default
    assert seen == [default]


def test_environment_variable_sets_the_default():
    code = "import cuarray as cp; from cuarray import _core; print(_core._auto_fuse_min_size())"
    for value, want in (
        ("off", "None"),
        ("1", "1"),
        (None, str(1 << 20)),
        ("large", str(1 << 20)),
        ("auto", str(1 << 20)),
    ):
        env = dict(os.environ)
        env.pop("CUARRAY_AUTO_FUSE", None)
        if value is not None:
            env["CUARRAY_AUTO_FUSE"] = value
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        assert r.stdout.strip() == want, (value, r.stdout, r.stderr)


def test_documented():
    doc = cp.auto_fuse.__doc__
    assert "CUARRAY_AUTO_FUSE" in doc and "cuarray.fusion" in doc and "2**20" in doc
