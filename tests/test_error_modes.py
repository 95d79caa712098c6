"""seterr, geterr and errstate keep NumPy's floating-point error modes as NumPy does (Note [Error modes] in
python/cuarray/_cupyx.py): the same answers for the same calls, per thread, restored after errstate. No GPU."""

import threading

import cuarray as cp
import numpy as np
import pytest


def _same_after(steps):
    """Runs steps(xp) on NumPy and on cuarray from the default modes; their answers must be equal."""
    answers = []
    for xp in (np, cp):
        saved = xp.seterr(all="warn", under="ignore")
        try:
            answers.append(steps(xp))
        finally:
            xp.seterr(**saved)
    assert answers[0] == answers[1]
    return answers[1]


def test_defaults_and_seterr_as_numpy():
    _same_after(lambda xp: [xp.geterr()])
    _same_after(lambda xp: [xp.seterr(all="ignore", over="raise"), xp.geterr(), xp.seterr(), xp.geterr()])
    _same_after(lambda xp: [xp.seterr(divide="print", under="log"), xp.geterr()])


def test_errstate_sets_the_modes_for_its_block_and_restores_them():
    def steps(xp):
        seen = []
        with xp.errstate(divide="ignore", all="raise"):
            seen.append(xp.geterr())
            with xp.errstate(invalid="warn"):
                seen.append(xp.geterr())
            seen.append(xp.geterr())
        seen.append(xp.geterr())
        return seen

    _same_after(steps)


def test_errstate_as_a_decorator_restores_the_modes_of_nested_calls():
    state = cp.errstate(over="raise")

    @state
    def inner(n):
        return cp.geterr()["over"] if n == 0 else inner(n - 1)

    assert inner(3) == "raise"
    assert cp.geterr()["over"] == "warn"


def test_each_thread_starts_from_the_defaults():
    seen = {}
    with cp.errstate(all="ignore"):
        t = threading.Thread(target=lambda: seen.update(cp.geterr()))
        t.start()
        t.join()
        assert cp.geterr()["divide"] == "ignore"
    assert seen == np.geterr() or seen == {
        "divide": "warn",
        "over": "warn",
        "under": "ignore",
        "invalid": "warn",
    }


def _enter_errstate(xp, **modes):
    with xp.errstate(**modes):
        pass


@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.seterr(divide="foo"),
        lambda xp: xp.seterr(all=1),
        lambda xp: _enter_errstate(xp, over="bad"),  # cuarray checks when made, NumPy when entered
    ],
)
def test_bad_modes_raise_value_error_as_numpy(call):
    for xp in (np, cp):
        with pytest.raises(ValueError):
            call(xp)


def test_cupyx_linalg_mode_is_accepted_and_checked():
    old = cp.seterr(linalg="raise")
    assert "linalg" not in old and "linalg" not in cp.geterr()  # NumPy's four keys
    cp.seterr(linalg="ignore")
    with pytest.raises(ValueError, match="linalg"):
        cp.seterr(linalg="warn")
