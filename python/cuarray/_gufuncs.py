"""Generalized ufuncs from Python functions: ``_GUFunc(func, '(i,j),(j,k)->(i,k)')``, as CuPy's
``cupy._core._gufuncs._GUFunc``.

Note [Generalized ufuncs]
A call follows NumPy's gufunc rules. Each operand's last dimensions are its core dimensions (``axes=`` or ``axis=``
choose others, which are moved to the end first, and an output's are moved back); the other (outer) dimensions
broadcast. A dimension name has one size across the operands; ``n|1`` lets an operand have 1 there, and ``n?``
lets operands omit it: the leftmost optional dimensions an operand lacks are taken as omitted, every operand must
then omit the same names, ``func`` sees them as dimensions of size 1 and the outputs drop them. ``func`` takes the
inputs with their core dimensions last and returns the outputs; with ``supports_batched=False`` it is called once
for each outer index with the core parts alone. The outputs are allocated (or ``out=``) in the result type and
written from what ``func`` returns, or passed to it as ``out=`` with ``supports_out=True``. Type signatures
(``signatures=(('ii->i', f), ...)``) choose another function for the inputs' types, the first whose types the
inputs cast to under ``casting``; ``signature=`` asks for one by its types, and ``dtype=`` casts the inputs.
"""

import re

import numpy

from cuarray import _core

__all__ = ["GeneralizedUFunc"]

_DIMENSION = re.compile(r"^(\w+)(\?|\|1)?$")
_GROUPS = re.compile(r"^\(([^()]*)\)(?:,\(([^()]*)\))*$")


def _parse_groups(text, signature):
    if text == "":
        return [()]
    if not _GROUPS.match(text):
        raise ValueError(f"not a gufunc signature: {signature!r}")
    groups = []
    for body in re.findall(r"\(([^()]*)\)", text):
        dims = []
        for part in body.split(",") if body else []:
            m = _DIMENSION.match(part)
            if m is None or m.group(1).isdigit():  # NumPy's fixed sizes ('(3)->()') are not supported
                raise ValueError(f"not a gufunc signature: {signature!r} (dimension {part!r})")
            dims.append((m.group(1), m.group(2) == "?", m.group(2) == "|1"))
        groups.append(tuple(dims))
    return groups


def _parse_gufunc_signature(signature):
    """'(i,j),(j,k)->(i,k)' -> ([((name, optional, broadcastable), ...) for each input], [... for each
    output], the number of distinct dimension names); ValueError for anything else."""
    if not isinstance(signature, str):
        raise TypeError("the gufunc signature must be a str")
    text = re.sub(r"\s+", "", signature)
    if text.count("->") != 1:
        raise ValueError(f"not a gufunc signature: {signature!r}")
    left, right = text.split("->")
    inputs, outputs = _parse_groups(left, signature), _parse_groups(right, signature)
    names = {d[0] for group in inputs + outputs for d in group}
    return inputs, outputs, len(names)


def _type_signature(sig, nin, nout):
    """A type signature ('ii->i', 'i' for every operand, or a tuple of types) -> (input dtypes, output dtypes)."""
    if isinstance(sig, str):
        if "->" in sig:
            left, right = sig.split("->")
            types = [*left, "->", *right]
            ins, outs = list(left), list(right)
        elif len(sig) == 1:
            ins, outs = [sig] * nin, [sig] * nout
        else:
            ins, outs, types = [], [], None
    else:
        types = list(sig)
        ins, outs = types[:nin], types[nin:]
        if len(types) == 1:
            ins, outs = types * nin, types * nout
    if len(ins) != nin or len(outs) != nout:
        raise ValueError(f"type signature {sig!r} does not have {nin} inputs and {nout} outputs")
    return tuple(numpy.dtype(t) for t in ins), tuple(numpy.dtype(t) for t in outs)


class _GUFunc:
    """A generalized ufunc calling `func` (Note [Generalized ufuncs])."""

    def __init__(
        self,
        func,
        signature,
        *,
        name=None,
        doc=None,
        supports_batched=False,
        supports_out=False,
        signatures=(),
        **kwargs,
    ):
        self._func = func
        self._signature = signature
        self.__name__ = name or getattr(func, "__name__", "gufunc")
        self.__doc__ = doc if doc is not None else getattr(func, "__doc__", None)
        self._supports_batched = supports_batched
        self._supports_out = supports_out
        self._inputs, self._outputs, _ = _parse_gufunc_signature(signature)
        self._nin, self._nout = len(self._inputs), len(self._outputs)
        self._signatures = []
        for entry in signatures:
            try:
                sig, f = entry
            except (TypeError, ValueError):
                raise ValueError(
                    f"signatures= takes (type signature, function) pairs, not {entry!r}"
                ) from None
            if not isinstance(sig, str) or "->" not in sig:
                raise ValueError(f"type signature {sig!r} is not of the form 'ii->i'")
            self._signatures.append((_type_signature(sig, self._nin, self._nout), f))

    # ---- dimensions -------------------------------------------------------------------------------

    def _core_axes(self, axes, axis, keepdims, ndims):
        """Each operand's core axes (inputs then outputs), as lists of ints; None where they are the last."""
        groups = self._inputs + self._outputs
        if axis is not None:
            if axes is not None:
                raise TypeError("only one of axis= and axes= may be given")
            if any(len(g) > 1 for g in groups) or isinstance(axis, (tuple, list)):
                raise ValueError("axis= needs a gufunc whose operands have one core dimension or none")
            axes = [
                (axis,) if len(g) == 1 or (keepdims and k >= self._nin) else () for k, g in enumerate(groups)
            ]
        if axes is None:
            return [None] * len(groups)
        axes = list(axes)
        if len(axes) == self._nin and all(len(g) == 0 for g in self._outputs):
            axes += [()] * self._nout
        if len(axes) != len(groups):
            raise ValueError(f"axes= needs {len(groups)} entries, one for each operand; got {len(axes)}")
        out = []
        for k, (group, entry) in enumerate(zip(groups, axes)):
            entry = (entry,) if isinstance(entry, int) else tuple(entry)
            want = len(group) + (1 if keepdims and k >= self._nin and not group else 0)
            if len(entry) != want:
                raise ValueError(f"axes= entry {k} gives {len(entry)} axes for {want} core dimensions")
            out.append(list(entry))
        return out

    def _present(self, group, ndim, k):
        """The names of `group` an operand of `ndim` dimensions has (the leftmost optional ones go first)."""
        missing = max(0, len(group) - ndim)
        optional = [d[0] for d in group if d[1]]
        if missing > len(optional):
            raise ValueError(
                f"{self.__name__}: operand {k} has {ndim} dimensions, fewer than the core dimensions of "
                f"{self._signature!r}"
            )
        omitted = set(optional[:missing])
        return [d for d in group if d[0] not in omitted], omitted

    # ---- types -------------------------------------------------------------------------------------

    def _choose(self, args, signature, dtype, casting):
        """(function, input dtypes or None, output dtypes)."""
        if signature is not None:
            try:
                ins, outs = _type_signature(signature, self._nin, self._nout)
            except (ValueError, TypeError):
                raise TypeError(f"{self.__name__}: no loop for the type signature {signature!r}") from None
            for (s_ins, s_outs), f in self._signatures:
                if s_ins == ins and s_outs == outs:
                    return f, ins, outs
            raise TypeError(f"{self.__name__}: no loop for the type signature {signature!r}")
        if dtype is not None:
            # The output type; a type signature of that type alone is its loop (CuPy's rule).
            dtype = numpy.dtype(dtype)
            for (ins, outs), f in self._signatures:
                if all(t == dtype for t in ins + outs):
                    return f, ins, outs
            return self._func, None, (dtype,) * self._nout
        for (ins, outs), f in self._signatures:
            if all(numpy.can_cast(a.dtype, t, casting) for a, t in zip(args, ins)):
                return f, ins, outs
        result = numpy.result_type(*[a.dtype for a in args]) if args else numpy.dtype(float)
        return self._func, None, (result,) * self._nout

    # ---- the call ----------------------------------------------------------------------------------

    def __call__(
        self,
        *args,
        axes=None,
        axis=None,
        keepdims=False,
        casting="same_kind",
        dtype=None,
        signature=None,
        out=None,
        order="K",
        **kwargs,
    ):
        from cuarray._manipulation import moveaxis
        from cuarray._transfer import asarray

        if len(args) != self._nin:
            raise TypeError(f"{self.__name__} takes {self._nin} arguments ({len(args)} given)")
        args = [asarray(a) for a in args]
        if out is not None:
            out = list(out) if isinstance(out, (tuple, list)) else [out]
            if len(out) != self._nout:
                raise ValueError(f"{self.__name__} has {self._nout} outputs, out= gives {len(out)}")
        func, in_types, out_types = self._choose(args, signature, dtype, casting)
        if in_types is not None:
            for k, (a, t) in enumerate(zip(args, in_types)):
                if not numpy.can_cast(a.dtype, t, casting):
                    raise TypeError(
                        f"Cannot cast {self.__name__} input {k} from {a.dtype} to {t} with casting rule {casting!r}"
                    )
            args = [a.astype(t, copy=False) if a.dtype != t else a for a, t in zip(args, in_types)]
        core_axes = self._core_axes(axes, axis, keepdims, [a.ndim for a in args])
        moved = []
        for k, a in enumerate(args):
            ax = core_axes[k]
            if ax is not None and ax:
                a = moveaxis(a, ax, list(range(-len(ax), 0)))
            moved.append(a)

        # Core dimension sizes, with omitted optional dimensions and broadcastable ones.
        sizes, strict, omitted_by = {}, {}, []
        full_inputs = []
        for k, (a, group) in enumerate(zip(moved, self._inputs)):
            present, omitted = self._present(group, a.ndim, k)
            omitted_by.append(omitted)
            core = a.shape[a.ndim - len(present) :] if present else ()
            for (name, _, broadcastable), n in zip(present, core):
                if broadcastable and n == 1:
                    sizes.setdefault(name, 1)
                    continue
                if name in strict and strict[name] != n:
                    raise ValueError(
                        f"{self.__name__}: core dimension {name!r} is {strict[name]} in one operand and {n} in "
                        "another"
                    )
                strict[name] = n
                sizes[name] = n
            full_inputs.append((a, present, group))
        names_optional = {d[0] for g in self._inputs for d in g if d[1]}
        for name in names_optional:
            states = {name in o for o, g in zip(omitted_by, self._inputs) if any(d[0] == name for d in g)}
            if len(states) > 1:
                raise ValueError(
                    f"{self.__name__}: optional dimension {name!r} is omitted by some operands only"
                )
        omitted_all = set().union(*omitted_by) if omitted_by else set()

        # Inputs as func sees them: omitted optional dimensions as 1, core dimensions last.
        inputs, outer_shapes = [], []
        for a, present, group in full_inputs:
            outer = a.shape[: a.ndim - len(present)]
            outer_shapes.append(outer)
            full = list(outer)
            it = iter(a.shape[len(outer) :])
            for d in group:
                full.append(1 if d[0] in omitted_all else next(it))
            inputs.append(a.reshape(tuple(full)) if tuple(full) != a.shape else a)
        outer = numpy.broadcast_shapes(*outer_shapes) if outer_shapes else ()

        for group in self._outputs:
            for name, optional, _ in group:
                if name not in sizes and not (optional and name in omitted_all):
                    raise ValueError(f"{self.__name__}: output core dimension {name!r} is given by no input")
        out_cores = [tuple(1 if d[0] in omitted_all else sizes[d[0]] for d in g) for g in self._outputs]

        # Outputs: core dimensions last (and all of them), in the result types.
        results = []
        for j, (core, t) in enumerate(zip(out_cores, out_types)):
            k = self._nin + j
            ax = core_axes[k]
            kept = keepdims and not self._outputs[j]
            final_shape = outer + core
            if out is not None:
                o = out[j]
                if not isinstance(o, _core.ndarray):
                    raise TypeError("out= must hold cuarray arrays")
                if not numpy.can_cast(t, o.dtype, casting):
                    raise TypeError(f"Cannot cast the result {t} to the output's {o.dtype} under {casting!r}")
                view = o
                if ax is not None and ax:
                    view = moveaxis(o, ax, list(range(-len(ax), 0)))
                if kept:
                    view = view[..., 0]
                expected = outer + tuple(n for n, d in zip(core, self._outputs[j]) if d[0] not in omitted_all)
                if view.shape != expected:
                    raise ValueError(f"out= has shape {o.shape}, the result {expected}")
                view = view.reshape(final_shape) if view.shape != final_shape else view[...]
            else:
                view = _core.empty(final_shape, t, "C")
            results.append(view)

        self._run(func, inputs, results, outer, batched=self._supports_batched)

        finals = []
        for j, r in enumerate(results):
            k = self._nin + j
            group = self._outputs[j]
            keep = [i for i, d in enumerate(group) if d[0] not in omitted_all]
            shape = outer + tuple(r.shape[len(outer) + i] for i in keep)
            r = r.reshape(shape) if r.shape != shape else r
            if keepdims and not group:
                r = r[..., None]
            ax = core_axes[k]
            if ax is not None and ax:
                r = moveaxis(r, list(range(-len(ax), 0)), ax)
            if out is not None:
                r = out[j]
            else:
                r = self._ordered(r, order, args)
            finals.append(r)
        return finals[0] if self._nout == 1 else tuple(finals)

    def _run(self, func, inputs, results, outer, batched):
        if batched:
            self._call(func, inputs, results)
            return
        for index in numpy.ndindex(*outer):
            parts = []
            for k, a in enumerate(inputs):
                lead = a.ndim - len(self._inputs[k])  # its outer dimensions, the last ones of `outer`
                sub = index[len(index) - lead :] if lead else ()
                sub = tuple(0 if a.shape[i] == 1 else s for i, s in enumerate(sub))
                parts.append(a[(*sub, Ellipsis)] if sub else a)
            self._call(func, parts, [r[(*index, Ellipsis)] for r in results])  # views, even of no dimension

    def _call(self, func, inputs, outputs):
        """func on `inputs`, its results written to `outputs` (or written there by func, with supports_out)."""
        if self._supports_out:
            got = func(*inputs, out=outputs[0] if self._nout == 1 else tuple(outputs))
            if got is None:
                return
        else:
            got = func(*inputs)
        for view, value in zip(outputs, (got,) if self._nout == 1 else tuple(got)):
            if value is not view:
                _core._assign(view, value)

    @staticmethod
    def _ordered(r, order, args):
        if order in ("K", None):
            return r
        if order == "A":
            f = bool(args) and all(a.flags.f_contiguous and not a.flags.c_contiguous for a in args)
            order = "F" if f else "C"
        return r.astype(r.dtype, order=order, copy=False)


GeneralizedUFunc = _GUFunc  # cupyx's public name for it
