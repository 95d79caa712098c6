"""Checks for the lessons' exercises. `pytest examples/exercises` checks the solutions (*_solution.py);
`EXERCISE=starter pytest examples/exercises` runs the same checks on the starters (*_starter.py), which fail
with a hint until they are fixed. Tests marked gpu skip where cuarray finds no GPU."""

import importlib.util
import os
import pathlib

import pytest

HERE = pathlib.Path(__file__).resolve().parent

# The `gpu` marker (and `requires_gpus(n)`, and the `xp` fixture) from cuarray's pytest plugin.
pytest_plugins = ["cuarray.pytest_plugin"]


@pytest.fixture
def exercise_path():
    """exercise_path(name): the file of exercise `name` that $EXERCISE selects (solution by default)."""
    variant = os.environ.get("EXERCISE", "solution")

    def path(name):
        found = HERE / f"{name}_{variant}.py"
        if not found.is_file():
            pytest.fail(
                f"EXERCISE={variant}: no file {found.name}; use EXERCISE=solution or EXERCISE=starter",
                pytrace=False,
            )
        return found

    return path


@pytest.fixture
def load_exercise(exercise_path):
    """load_exercise(name): the module of exercise `name` that $EXERCISE selects, freshly imported."""

    def load(name):
        path = exercise_path(name)
        spec = importlib.util.spec_from_file_location(f"exercise_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load
