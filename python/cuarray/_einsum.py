"""einsum: Einstein summation reduced to views, matrix products and sums against ones.

Each operand first loses its repeated subscripts (diagonal views) and the subscripts that no other operand
and not the output use (summed by a matrix-vector product with ones). Operands are then contracted left to
right: the subscripts both share and something later needs are stack dimensions of one broadcasting matmul,
those only they share are its inner dimension. A last transpose puts the result in the output's order; an
expression that sums nothing (a transpose, a diagonal) returns a view, as NumPy's does.
"""

import math
import operator
import string

import numpy

from cuarray._core import ndarray
from cuarray._creation import ones
from cuarray._manipulation import copyto
from cuarray._products import _array, matmul

__all__ = ["einsum"]

_LETTERS = string.ascii_uppercase + string.ascii_lowercase


def _interleaved(args):
    """einsum(op0, sublist0, op1, sublist1, ..., [sublistout]) as a subscripts string and operands."""
    args = list(args)
    out = args.pop() if len(args) % 2 else None

    def letters(sublist):
        text = ""
        for s in sublist:
            if s is Ellipsis:
                text += "..."
            else:
                s = operator.index(s)
                if not 0 <= s < len(_LETTERS):
                    raise ValueError(f"subscript is not within the valid range [0, {len(_LETTERS)})")
                text += _LETTERS[s]
        return text

    subscripts = ",".join(letters(s) for s in args[1::2])
    if out is not None:
        subscripts += "->" + letters(out)
    return subscripts, args[0::2]


def _parse_term(term, ndim, index):
    """Subscript labels of one operand: letters as themselves, the dimensions an ellipsis stands for as -1, -2,
    ... counted from the last (so that ellipses broadcast from the right)."""
    if term.count(".") not in (0, 3) or (term.count(".") == 3 and "..." not in term):
        raise ValueError(
            f"einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in "
            f"operand {index}"
        )
    for c in term.replace("...", ""):
        if c not in _LETTERS:
            raise ValueError(
                f"invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters"
            )
    head, ellipsis, tail = term.partition("...")
    named = len(head) + len(tail)
    if named > ndim:
        raise ValueError(f"einstein sum subscripts string contains too many subscripts for operand {index}")
    if not ellipsis and named < ndim:
        raise ValueError(
            "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
            "provided to broadcast the extra dimensions."
        )
    n_ellipsis = ndim - named
    return list(head) + [-(n_ellipsis - i) for i in range(n_ellipsis)] + list(tail)


def _parse(subscripts, operands, optimize=False):
    subscripts = subscripts.replace(" ", "")
    if "-" in subscripts or ">" in subscripts:
        if subscripts.count("->") != 1 or subscripts.count("-") != 1 or subscripts.count(">") != 1:
            raise ValueError("einstein sum subscript string does not contain proper '->' output specified")
        inputs, output = subscripts.split("->")
    else:
        inputs, output = subscripts, None
    terms = inputs.split(",")
    # NumPy's two messages, as NumPy words them (each names the other case).
    if len(terms) > len(operands):
        raise ValueError(
            "more operands provided to einstein sum function than specified in the subscripts string"
        )
    if len(terms) < len(operands):
        raise ValueError(
            "fewer operands provided to einstein sum function than specified in the subscripts string"
        )
    labels = [_parse_term(t, op.ndim, i) for i, (t, op) in enumerate(zip(terms, operands))]
    n_ellipsis = max(sum(isinstance(x, int) for x in ls) for ls in labels)
    if output is None:  # implicit: the ellipsis dimensions, then the letters used once, in ASCII order
        counts = {}
        for ls in labels:
            for x in ls:
                counts[x] = counts.get(x, 0) + 1
        out = list(range(-n_ellipsis, 0)) + sorted(x for x in counts if isinstance(x, str) and counts[x] == 1)
        return labels, out
    for c in output.replace("...", ""):
        if c not in _LETTERS:
            raise ValueError(
                f"invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters"
            )
        if output.count(c) > 1:
            raise ValueError(f"einstein sum subscripts string includes output subscript '{c}' multiple times")
        if not any(c in ls for ls in labels):
            raise ValueError(
                f"einstein sum subscripts string included output subscript '{c}' which never appeared "
                "in an input"
            )
    if n_ellipsis and "..." not in output:
        if optimize is not False:  # NumPy's einsum_path names those dimensions with letters, which it sums
            return labels, list(output)
        raise ValueError(
            "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
            "provided to broadcast the extra dimensions."
        )
    head, _, tail = output.partition("...")
    return labels, list(head) + list(range(-n_ellipsis, 0)) + list(tail)


def _take_diagonals(x, labels, index):
    """Views x so that no label repeats: a repeated label keeps the diagonal, as the last axis."""
    labels = list(labels)
    while True:
        repeated = next((x_ for x_ in labels if labels.count(x_) > 1), None)
        if repeated is None:
            return x, labels
        p = labels.index(repeated)
        q = labels.index(repeated, p + 1)
        if x.shape[p] != x.shape[q]:
            raise ValueError(
                f"dimensions in operand {index} for collapsing index '{repeated}' don't match "
                f"({x.shape[p]} != {x.shape[q]})"
            )
        x = x.diagonal(0, p, q)
        labels = [lb for i, lb in enumerate(labels) if i not in (p, q)] + [repeated]


def _sum_axes(x, labels, drop):
    """Sums x over the axes whose labels are in `drop`: moves them last and multiplies by ones."""
    keep = [i for i, lb in enumerate(labels) if lb not in drop]
    summed = [i for i, lb in enumerate(labels) if lb in drop]
    if not summed:
        return x, labels
    k = math.prod(x.shape[i] for i in summed)
    kept_shape = tuple(x.shape[i] for i in keep)
    x = x.transpose(keep + summed).reshape(kept_shape + (k,))
    return matmul(x, ones(k, x.dtype)), [labels[i] for i in keep]


def _sizes(operands, labels, mismatch):
    """The size of every label, with NumPy's broadcasting of length-1 dimensions; where two sizes differ,
    raises mismatch(label, operand index, earlier size, size)."""
    sizes = {}
    for i, (x, ls) in enumerate(zip(operands, labels)):
        for lb, n in zip(ls, x.shape):
            m = sizes.get(lb, 1)
            if n != 1 and m != 1 and n != m:
                raise mismatch(lb, i, m, n)
            sizes[lb] = n if m == 1 else m  # a length-0 dimension wins over a length-1 one
    return sizes


def _not_broadcast(operands, labels, order_of_labels):
    """NumPy's iterator's ValueError for einsum operands (and `out`, with the output's labels, last) whose
    shapes do not broadcast: each shape, and its dimensions remapped onto the iterator's axes (the output's
    labels, then the others in order of appearance), newaxis where it lacks a label, leading ones left out."""

    def remapped(shape, names):
        parts = [str(shape[names.index(lb)]) if lb in names else "newaxis" for lb in order_of_labels]
        while parts and parts[0] == "newaxis":
            parts.pop(0)
        return f"{str(shape).replace(' ', '')}->({','.join(parts)}) "

    return ValueError(
        "operands could not be broadcast together with remapped shapes [original->remapped]: "
        + "".join(remapped(x.shape, ls) for x, ls in zip(operands, labels))
    )


def _contract(a, la, b, lb, needed, sizes):
    """a and b combined: shared labels in `needed` become stack dimensions, other shared labels are summed."""
    batch = [x for x in la if x in lb and x in needed]
    inner = [x for x in la if x in lb and x not in needed]
    a_only = [x for x in la if x not in lb]
    b_only = [x for x in lb if x not in la]

    def arrange(x, labels, order, shape):
        x = x.transpose([labels.index(lb_) for lb_ in order])
        # Length-1 dimensions that another operand broadcasts are expanded here, except the stack dimensions,
        # which matmul broadcasts itself.
        full = tuple(n if lb_ in batch else sizes[lb_] for lb_, n in zip(order, x.shape))
        if full != x.shape:
            x = x._broadcast_to(full)
        return x.reshape(shape)

    def size(ls):
        return math.prod(sizes[x] for x in ls)

    a_batch = tuple(a.shape[la.index(x)] for x in batch)
    b_batch = tuple(b.shape[lb.index(x)] for x in batch)
    a2 = arrange(a, la, batch + a_only + inner, a_batch + (size(a_only), size(inner)))
    b2 = arrange(b, lb, batch + inner + b_only, b_batch + (size(inner), size(b_only)))
    product = matmul(a2, b2)
    shape = product.shape[: len(batch)] + tuple(sizes[x] for x in a_only + b_only)
    return product.reshape(shape), batch + a_only + b_only


# Note [A view ignores dtype=]
# NumPy's einsum first tries to answer one operand without `out` by a view: when no subscript is summed (a
# transpose, a diagonal, the identity, a 0-d scalar with '->') it returns that view in the operand's own
# dtype, whatever `dtype=` and `casting=` ask for; only expressions that sum cast the operand. CuPy does the
# same. A copy cast to `dtype` would differ from both in dtype and in sharing memory.


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """NumPy's einsum: explicit ('ij,jk->ik') and implicit ('ij,jk') subscripts, ellipses, repeated subscripts
    (diagonals), and the interleaved form einsum(a, [0, 1], b, [1, 2])."""
    if not operands:
        raise ValueError("must specify the einstein sum subscripts string and at least one operand")
    if isinstance(operands[0], str):
        subscripts, arrays = operands[0], list(operands[1:])
    else:
        subscripts, arrays = _interleaved(operands)
    if not arrays:
        raise ValueError("must specify the einstein sum subscripts string and at least one operand")
    arrays = [_array(x, "einsum") for x in arrays]
    labels, output = _parse(subscripts, arrays, optimize)
    strict_out = out is not None and (optimize is False or len(arrays) == 1)  # Note [einsum's out]
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("out must be a cuarray.ndarray")
    if strict_out and out.ndim != len(output):
        raise ValueError(
            "out parameter does not have the correct number of dimensions, has "
            f"{out.ndim} but should have {len(output)}"
        )

    if len(arrays) == 1 and out is None:
        view, view_labels = _take_diagonals(arrays[0], labels[0], 0)
        if set(view_labels) <= set(output):  # see Note [A view ignores dtype=]
            return view.transpose([view_labels.index(x) for x in output])

    order_of_labels = list(dict.fromkeys(output + [lb for ls in labels for lb in ls]))  # NumPy's iterator's
    pairs = [_take_diagonals(x, ls, i) for i, (x, ls) in enumerate(zip(arrays, labels))]
    arrays, labels = [p[0] for p in pairs], [p[1] for p in pairs]
    iterated = arrays + [out] if strict_out else arrays  # what NumPy's iterator would show, out last
    iterated_labels = labels + [output] if strict_out else labels

    def mismatch(label, index, earlier, size):
        if optimize is False:  # NumPy's iterator
            return _not_broadcast(iterated, iterated_labels, order_of_labels)
        name = "..." if isinstance(label, int) else label  # NumPy's einsum_path (which names it a letter)
        return ValueError(
            f"Size of label '{name}' for operand {index} ({earlier}) does not match previous terms ({size})."
        )

    sizes = _sizes(arrays, labels, mismatch)
    if strict_out:
        _check_out_shape(
            out, output, sizes, lambda: _not_broadcast(iterated, iterated_labels, order_of_labels)
        )

    t = numpy.result_type(*(x.dtype for x in arrays)) if dtype is None else numpy.dtype(dtype)
    out_casting = casting
    if optimize is not False and len(arrays) > 1:
        # NumPy's contractions through einsum_path are matmuls and multiplies, which cast the operands to
        # dtype= by their own rule (same_kind), and its result is assigned into out (Note [einsum's out]).
        casting, out_casting = "same_kind", "unsafe"
    for i, x in enumerate(arrays):
        if not numpy.can_cast(x.dtype, t, casting):
            raise TypeError(
                f"Iterator operand {i} dtype could not be cast from {x.dtype!r} to {t!r} according to "
                f"the rule '{casting}'"
            )
    if strict_out and not numpy.can_cast(t, out.dtype, casting):
        raise TypeError(
            f"Iterator requested dtype could not be cast from {t!r} to {out.dtype!r}, the operand "
            f"{len(arrays)} dtype, according to the rule '{casting}'"
        )
    arrays = [x.astype(t, copy=False) for x in arrays]

    for i, (x, ls) in enumerate(zip(arrays, labels)):
        elsewhere = set(output).union(*(set(o) for j, o in enumerate(labels) if j != i))
        arrays[i], labels[i] = _sum_axes(x, ls, {lb for lb in ls if lb not in elsewhere})

    result, result_labels = arrays[0], labels[0]
    for i in range(1, len(arrays)):
        needed = set(output).union(*(set(o) for o in labels[i + 1 :]))
        result, result_labels = _contract(result, result_labels, arrays[i], labels[i], needed, sizes)
    result = result.transpose([result_labels.index(x) for x in output])
    full = tuple(sizes[x] for x in output)
    if result.shape != full:  # a length-1 dimension another operand broadcast
        result = result._broadcast_to(full)
    if out is None:
        return result
    copyto(
        out, result, casting=out_casting
    )  # a result of length 1 where out is longer broadcasts, as NumPy's
    return out


# Note [einsum's out]
# NumPy's einsum without `optimize` (and with one operand, whatever `optimize` says) runs one iterator over
# the operands and `out`: `out` must have the output's number of dimensions (ValueError before anything else),
# each of its dimensions must equal the result's, or be broadcast to by a result of length 1 (a length-1
# dimension of `out` against a longer result is a reduction, which einsum does not enable), and the result's
# dtype must cast to out's under `casting`; all with the iterator's messages, checked before any work.
# Operands whose sizes of a label differ get the iterator's message too, which shows every operand's shape
# remapped onto its axes (`out` last). With `optimize` and several operands NumPy first checks the sizes in
# einsum_path, with a message of its own, and its last step is a matmul or multiply into `out`, or an
# assignment to out[...], which broadcast and cast the result as they do; cuarray then copies the result
# into `out` as copyto does (broadcasting, under `casting`).


def _check_out_shape(out, output, sizes, not_broadcast):
    """NumPy's iterator's checks of einsum's `out` against the result's shape (Note [einsum's out]), with its
    messages (not_broadcast() makes the one for shapes that do not broadcast)."""
    result = [sizes[lb] for lb in output]
    if any(o != r and o != 1 and r != 1 for o, r in zip(out.shape, result)):
        raise not_broadcast()
    for d, (o, r) in enumerate(zip(out.shape, result)):
        if o == 1 and r != 1:
            raise ValueError(
                f"output operand requires a reduction along dimension {d}, but the reduction is not enabled. "
                "The dimension size of 1 does not match the expected output shape."
            )
