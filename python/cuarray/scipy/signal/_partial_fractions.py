"""SciPy's partial-fraction expansions of a transfer function (residue, residuez) and their inverses (invres,
invresz), with the grouping of nearly equal roots they rely on (unique_roots): host maths on a few coefficients, as
the other filter-design functions (Note [Filter design on the host] in _iir_forms.py). The private `_name` functions
take and return NumPy arrays."""

import numpy

from cuarray.scipy.signal._iir_forms import on_host

_REDUCERS = {
    **dict.fromkeys(("max", "maximum"), numpy.max),
    **dict.fromkeys(("min", "minimum"), numpy.min),
    **dict.fromkeys(("avg", "mean"), numpy.mean),
}


def _reducer(rtype):
    if rtype not in _REDUCERS:
        raise ValueError("`rtype` must be one of {'max', 'maximum', 'min', 'minimum', 'avg', 'mean'}")
    return _REDUCERS[rtype]


# Note [Greedy root groups]
# SciPy groups the roots greedily in input order: each root not yet taken starts a group of every root not yet
# taken within `tol` of it (Euclidean distance in the complex plane, found with a k-d tree). The groups depend on
# the order, not only on the set, so the same greedy pass is made here, with the distances computed directly (a
# filter has a few dozen roots at most).
def _unique_roots(p, tol=1e-3, rtype="min"):
    """Roots within `tol` of one another grouped (Note [Greedy root groups]): each group's min, max or mean and
    its size."""
    reduce = _reducer(rtype)
    p = numpy.asarray(p)
    points = numpy.stack((numpy.real(p), numpy.imag(p)), axis=-1).astype(numpy.float64).reshape(len(p), 2)
    unique, multiplicity = [], []
    used = numpy.zeros(len(p), dtype=bool)
    for i in range(len(p)):
        if used[i]:
            continue
        near = numpy.hypot(*(points - points[i]).T) <= tol
        group = numpy.flatnonzero(near & ~used)
        unique.append(reduce(p[group]))
        multiplicity.append(len(group))
        used[group] = True
    return numpy.asarray(unique), numpy.asarray(multiplicity)


def _group_poles(poles, tol, rtype):
    """Runs of consecutive poles within `tol` of each run's first one, reduced as _unique_roots reduces a group."""
    reduce = _reducer(rtype)
    unique, multiplicity = [], []
    first, block = poles[0], [poles[0]]
    for pole in poles[1:]:
        if abs(pole - first) <= tol:
            block.append(first)  # SciPy repeats the run's first pole, so a run reduces to it
        else:
            unique.append(reduce(block))
            multiplicity.append(len(block))
            first, block = pole, [pole]
    unique.append(reduce(block))
    multiplicity.append(len(block))
    return numpy.asarray(unique), numpy.asarray(multiplicity)


def _factors(roots, multiplicity, include_powers=False):
    """For each root r of multiplicity m, the denominator divided by (x - r)^j for j = m .. 1 (j = m alone
    without include_powers), and the whole denominator prod (x - r)^m."""
    current = numpy.array([1])
    suffixes = [current]  # suffixes[i]: the product over the roots after the i-th
    for pole, mult in zip(roots[-1:0:-1], multiplicity[-1:0:-1]):
        for _ in range(mult):
            current = numpy.polymul(current, numpy.array([1, -pole]))
        suffixes.append(current)
    suffixes = suffixes[::-1]
    factors = []
    current = numpy.array([1])
    for pole, mult, suffix in zip(roots, multiplicity, suffixes):
        block = []
        for i in range(mult):
            if i == 0 or include_powers:
                block.append(numpy.polymul(current, suffix))
            current = numpy.polymul(current, numpy.array([1, -pole]))
        factors.extend(reversed(block))
    return factors, current


def _residues(poles, multiplicity, numerator):
    """The residues of numerator / prod (x - pole)^mult: a simple pole's by evaluation, a repeated pole's by
    repeated division by (x - pole)."""
    factors, _ = _factors(poles, multiplicity)
    numerator = numerator.astype(poles.dtype)
    residues = []
    for pole, mult, factor in zip(poles, multiplicity, factors):
        if mult == 1:
            residues.append(numpy.polyval(numerator, pole) / numpy.polyval(factor, pole))
            continue
        numer = numerator.copy()
        monomial = numpy.array([1, -pole])
        factor, d = numpy.polydiv(factor, monomial)
        block = []
        for _ in range(mult):
            numer, n = numpy.polydiv(numer, monomial)
            r = n[0] / d[0]
            numer = numpy.polysub(numer, r * factor)
            block.append(r)
        residues.extend(reversed(block))
    return numpy.asarray(residues)


def _cmplx_sort(p):
    p = numpy.asarray(p)
    order = numpy.argsort(abs(p))
    return numpy.take(p, order, 0), order


def _as_float_or_complex(b, a):
    b, a = numpy.asarray(b), numpy.asarray(a)
    dtype = complex if numpy.iscomplexobj(b) or numpy.iscomplexobj(a) else float
    return b.astype(dtype), a.astype(dtype)


def _grouped(poles, tol, rtype):
    """The poles' groups sorted by magnitude, and the poles rewritten as each group's representative."""
    unique, multiplicity = _unique_roots(poles, tol=tol, rtype=rtype)
    unique, order = _cmplx_sort(unique)
    multiplicity = multiplicity[order]
    index = 0
    for pole, mult in zip(unique, multiplicity):
        poles[index : index + mult] = pole
        index += mult
    return unique, multiplicity


def _residue(b, a, tol=1e-3, rtype="avg"):
    """The partial-fraction expansion b(s)/a(s) = sum r_i / (s - p_i)^j + k(s): residues, poles and the direct
    polynomial."""
    b, a = _as_float_or_complex(b, a)
    b, a = numpy.trim_zeros(numpy.atleast_1d(b), "f"), numpy.trim_zeros(numpy.atleast_1d(a), "f")
    if a.size == 0:
        raise ValueError("Denominator `a` is zero.")
    poles = numpy.roots(a)
    if b.size == 0:
        return numpy.zeros(poles.shape), _cmplx_sort(poles)[0], numpy.array([])
    k = numpy.empty(0)
    if len(b) >= len(a):
        k, b = numpy.polydiv(b, a)
    unique, multiplicity = _grouped(poles, tol, rtype)
    return _residues(unique, multiplicity, b) / a[0], poles, k


def _residuez(b, a, tol=1e-3, rtype="avg"):
    """The partial-fraction expansion of b(z)/a(z) in powers of 1/z: sum r_i / (1 - p_i/z)^j + k(1/z)."""
    b, a = _as_float_or_complex(b, a)
    b, a = numpy.trim_zeros(numpy.atleast_1d(b), "b"), numpy.trim_zeros(numpy.atleast_1d(a), "b")
    if a.size == 0:
        raise ValueError("Denominator `a` is zero.")
    if a[0] == 0:
        raise ValueError("First coefficient of determinant `a` must be non-zero.")
    poles = numpy.roots(a)
    if b.size == 0:
        return numpy.zeros(poles.shape), _cmplx_sort(poles)[0], numpy.array([])
    b_rev, a_rev = b[::-1], a[::-1]
    k_rev = numpy.empty(0)
    if len(b_rev) >= len(a_rev):
        k_rev, b_rev = numpy.polydiv(b_rev, a_rev)
    unique, multiplicity = _grouped(poles, tol, rtype)
    residues = _residues(1 / unique, multiplicity, b_rev)
    powers = numpy.concatenate([numpy.empty(0, int)] + [1 + numpy.arange(m) for m in multiplicity]).astype(
        int
    )
    residues *= (-poles) ** powers / a_rev[0]
    return residues, poles, k_rev[::-1]


def _invres(r, p, k, tol=1e-3, rtype="avg"):
    """b(s) and a(s) from residues r, poles p and direct terms k (residue's inverse)."""
    r, p = numpy.atleast_1d(r), numpy.atleast_1d(p)
    k = numpy.trim_zeros(numpy.atleast_1d(k), "f")
    unique, multiplicity = _group_poles(p, tol, rtype)
    factors, denominator = _factors(unique, multiplicity, include_powers=True)
    numerator = 0 if len(k) == 0 else numpy.polymul(k, denominator)
    for residue, factor in zip(r, factors):
        numerator = numpy.polyadd(numerator, residue * factor)
    return numerator, denominator


def _invresz(r, p, k, tol=1e-3, rtype="avg"):
    """b(z) and a(z) from residues r, poles p and direct terms k in powers of 1/z (residuez's inverse)."""
    r, p = numpy.atleast_1d(r), numpy.atleast_1d(p)
    k = numpy.trim_zeros(numpy.atleast_1d(k), "b")
    unique, multiplicity = _group_poles(p, tol, rtype)
    factors, denominator = _factors(unique, multiplicity, include_powers=True)
    numerator = 0 if len(k) == 0 else numpy.polymul(k[::-1], denominator[::-1])
    for residue, factor in zip(r, factors):
        numerator = numpy.polyadd(numerator, residue * factor[::-1])
    return numerator[::-1], denominator


unique_roots = on_host(_unique_roots, "unique_roots")
residue = on_host(_residue, "residue")
residuez = on_host(_residuez, "residuez")
invres = on_host(_invres, "invres")
invresz = on_host(_invresz, "invresz")
