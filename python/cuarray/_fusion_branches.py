"""Branches of elementwise functions (cuarray.vectorize): every path through a function's `if`s on element
values is traced, and the results are selected per element by the conditions.

Note [Branches]
NumPy's vectorize calls the function on each element, so `if x > 0:` may go either way per element. A traced
element cannot answer bool(); instead the function is run once per path: each run takes the decisions of its
path and records each condition it meets (Tracer.decide); a decision past the path's end is False, and the
run with True there is queued. The results then combine as where(path 1's conditions, result 1, where(...)):
the paths' conditions are exclusive and cover every element, so each element gets the result of the path its
own values take. Every path is computed for every element (a branch not taken costs time, not correctness:
its values are discarded). A loop whose end depends on element values has unboundedly many paths: past
MAX_PATHS the function is refused with a TypeError.
"""

from cuarray._fusion_values import FusionError, where

MAX_PATHS = 64


def explore(tracer, run):
    """run()'s result over all its paths, selected per element by their conditions."""
    pending, outcomes = [[]], []
    while pending:
        tracer.path, tracer.taken = pending.pop(), []
        result = run()
        for i in range(len(tracer.path), len(tracer.taken)):
            pending.append([d for _, d in tracer.taken[:i]] + [True])
        outcomes.append((tracer.taken, result))
        if len(outcomes) > MAX_PATHS:
            raise FusionError(
                f"cuarray.vectorize: the function takes more than {MAX_PATHS} paths through its branches on "
                f"element values (a loop whose end depends on them?) at {where()}"
            )
    combined = outcomes[-1][1]
    for taken, result in reversed(outcomes[:-1]):
        combined = _select(tracer, _condition(tracer, taken), result, combined)
    return combined


def _condition(tracer, taken):
    """Whether an element takes the path of these (condition, decision) pairs."""
    condition = None
    for value, decision in taken:
        term = value if decision else tracer.apply("logical_not", (value,), {})
        condition = term if condition is None else tracer.apply("logical_and", (condition, term), {})
    return condition


def _select(tracer, condition, a, b):
    if isinstance(a, tuple) != isinstance(b, tuple) or (isinstance(a, tuple) and len(a) != len(b)):
        raise FusionError("cuarray.vectorize: the function's branches return different numbers of values")
    if isinstance(a, tuple):
        return tuple(_select(tracer, condition, x, y) for x, y in zip(a, b))
    return tracer.apply("_where", (condition, a, b), {})
