"""Every exercise has a starter, a solution and a test, and its Python files compile (no GPU needed)."""

import pathlib

import pytest

HERE = pathlib.Path(__file__).resolve().parent
NAMES = sorted(
    p.stem[len("test_") :] for p in HERE.glob("test_*.py") if p.name != pathlib.Path(__file__).name
)


def test_there_are_exercises():
    assert NAMES == ["convolution_speedup", "data_transfer", "numpy_to_gpu"], NAMES


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("variant", ["starter", "solution"])
def test_exercise_file_compiles(name, variant):
    path = HERE / f"{name}_{variant}.py"
    assert path.is_file(), f"exercise {name} has no {path.name}"
    compile(path.read_text(encoding="utf-8"), str(path), "exec")
