"""SciPy's forward-backward (zero-phase) filters on device arrays: filtfilt (methods 'pad' and 'gust') and
sosfiltfilt, through lfilter and sosfilt and their steady states (lfilter_zi, sosfilt_zi) with SciPy's states
(_lfilter.py's; Note [CuPy's initial conditions] in _lfilter_past.py). As CuPy's, both take the signal through
cupy.asarray: a host array or list is copied to the device (lfilter and sosfilt, whose CuPy forms convert
nothing, take device signals only)."""

import operator

from numpy.lib.array_utils import normalize_axis_index

from cuarray import _creation, _joining
from cuarray._transfer import asarray as _to_device
from cuarray._transfer import ascontiguousarray
from cuarray.linalg import lstsq
from cuarray.scipy.signal._iir_forms import atleast_1d, host, validate_sos
from cuarray.scipy.signal._lfilter import lfilter_state, lfilter_zi_state, sosfilt_state, sosfilt_zi_state


def _take(a, axis, start=None, stop=None, step=None):
    index = [slice(None)] * a.ndim
    index[axis] = slice(start, stop, step)
    return a[tuple(index)]


def _extend(x, n, axis, padtype):
    """`x` with `n` values added at each end along `axis`: its reflection about the end values ('odd'), its mirror
    image ('even') or the end values repeated ('constant'), as SciPy's odd_ext, even_ext and const_ext."""
    first, last = _take(x, axis, 0, 1), _take(x, axis, -1, None)
    if padtype == "constant":
        shape = list(x.shape)
        shape[axis] = n
        ones = _creation.ones(shape, x.dtype)
        return _joining.concatenate((ones * first, x, ones * last), axis=axis)
    left, right = _take(x, axis, n, 0, -1), _take(x, axis, -2, -(n + 2), -1)
    if padtype == "odd":
        left, right = 2 * first - left, 2 * last - right
    return _joining.concatenate((left, x, right), axis=axis)


def _validate_pad(padtype, padlen, x, axis, ntaps):
    """SciPy's: the extension's length (3 ntaps by default, 0 without padding) and the extended signal."""
    if padtype not in ["even", "odd", "constant", None]:
        raise ValueError(
            f"Unknown value '{padtype}' given to padtype. padtype must be 'even', 'odd', 'constant', or None."
        )
    if padtype is None:
        padlen = 0
    edge = ntaps * 3 if padlen is None else padlen
    if x.shape[axis] <= edge:
        raise ValueError(f"The length of the input vector x must be greater than padlen, which is {edge}.")
    return edge, (_extend(x, edge, axis, padtype) if padtype is not None and edge > 0 else x)


def _steady_state(zi, x, axis, lead=()):
    """The initial state zi * x[0] for every signal: zi's delays along `axis` (after `lead` axes)."""
    shape = [1] * x.ndim
    shape[axis] = zi.shape[-1]
    return _to_device(zi.reshape(lead + tuple(shape)))


def filtfilt(b, a, x, axis=-1, padtype="odd", padlen=None, method="pad", irlen=None):
    """`x` filtered forwards and backwards along `axis` with b/a (zero phase, the gain squared): from the steady
    state, over `x` extended at both ends (method 'pad'), or from Gustafsson's initial conditions ('gust')."""
    x = _to_device(x)
    b, a = atleast_1d(host(b)), atleast_1d(host(a))
    if method not in ["pad", "gust"]:
        raise ValueError("method must be 'pad' or 'gust'.")
    axis = normalize_axis_index(operator.index(axis), x.ndim)
    if method == "gust":
        return _filtfilt_gust(b, a, x, axis, irlen)
    edge, ext = _validate_pad(padtype, padlen, x, axis, ntaps=max(len(a), len(b)))
    zi = _steady_state(lfilter_zi_state(b, a), x, axis)
    y, _ = lfilter_state(b, a, ext, axis=axis, zi=zi * _take(ext, axis, 0, 1))
    y, _ = lfilter_state(b, a, _take(y, axis, step=-1), axis=axis, zi=zi * _take(y, axis, -1, None))
    y = _take(y, axis, step=-1)
    return ascontiguousarray(_take(y, axis, edge, -edge) if edge > 0 else y)


def sosfiltfilt(sos, x, axis=-1, padtype="odd", padlen=None):
    """`x` filtered forwards and backwards along `axis` through the sections `sos`, from their steady state over
    `x` extended at both ends (SciPy's sosfiltfilt)."""
    sos, n_sections = validate_sos(host(sos))
    x = _to_device(x)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    axis = normalize_axis_index(operator.index(axis), x.ndim)
    # A section whose b2 and a2 are both zero is of first order: it needs fewer taps of padding.
    ntaps = 2 * n_sections + 1 - min((sos[:, 2] == 0).sum(), (sos[:, 5] == 0).sum())
    edge, ext = _validate_pad(padtype, padlen, x, axis, ntaps=ntaps)
    zi = _steady_state(sosfilt_zi_state(sos), x, axis, (n_sections,))
    y, _ = sosfilt_state(sos, ext, axis=axis, zi=zi * _take(ext, axis, 0, 1))
    y, _ = sosfilt_state(sos, _take(y, axis, step=-1), axis=axis, zi=zi * _take(y, axis, -1, None))
    y = _take(y, axis, step=-1)
    return ascontiguousarray(_take(y, axis, edge, -edge) if edge > 0 else y)


def _filtfilt_gust(b, a, x, axis, irlen):
    """Gustafsson's forward-backward filter (SciPy's _filtfilt_gust): the initial conditions of both passes are
    those that make the forward-backward and backward-forward results agree, by least squares."""
    order = max(len(b), len(a)) - 1
    if order == 0:  # a scalar multiplication, without state
        return x * (b[0] / a[0]) ** 2
    x = x.swapaxes(axis, -1)
    n = x.shape[-1]
    m = n if irlen is None or n <= 2 * irlen else irlen
    # Obs propagates an initial state to the output (zero input); S filters that, reversed, once more. Obs
    # (and M and W for a truncated response) is float64 whatever the coefficients, as SciPy makes it:
    # Note [Gustafsson's real matrices].
    zi = _creation.zeros(order)
    zi[0] = 1
    obs = _creation.zeros((m, order))
    obs[:, 0] = lfilter_state(b, a, _creation.zeros(m), zi=zi)[0]
    for k in range(1, order):
        obs[k:, k] = obs[: max(m - k, 0), 0]
    s = lfilter_state(b, a, obs[::-1], axis=0)
    if m == n:
        matrix = _joining.hstack((s[::-1] - obs, obs[::-1] - s))
        w = _joining.hstack((s[::-1], obs[::-1]))
    else:  # the truncated impulse response: only the ends are adjusted
        matrix = _creation.zeros((2 * m, 2 * order))
        matrix[:m, :order] = s[::-1] - obs
        matrix[m:, order:] = obs[::-1] - s
        w = _creation.zeros((2 * m, 2 * order))
        w[:m, :order] = s[::-1]
        w[m:, order:] = obs[::-1]
    y_fb = lfilter_state(b, a, lfilter_state(b, a, x)[..., ::-1])[..., ::-1]
    y_bf = lfilter_state(b, a, lfilter_state(b, a, x[..., ::-1])[..., ::-1])
    delta = y_bf - y_fb
    if m != n:
        delta = _joining.concatenate((delta[..., :m], delta[..., -m:]), axis=-1)
    rhs = delta.reshape(-1, delta.shape[-1]).T  # one column per signal
    ic_opt = lstsq(matrix, rhs)[0].T
    wic = (ic_opt @ w.T).reshape(delta.shape[:-1] + (w.shape[0],))
    y = y_fb.copy()
    if m == n:
        y += wic
    else:
        y[..., :m] += wic[..., :m]
        y[..., -m:] += wic[..., -m:]
    return ascontiguousarray(y.swapaxes(axis, -1))


# Note [Gustafsson's real matrices]
# SciPy's _filtfilt_gust makes Obs with np.zeros((m, order)), float64, and assigns the zero-input response
# into its first column; with complex coefficients (b or a) that response is complex, and NumPy's assignment
# keeps its real part with a ComplexWarning. S is then complex (the coefficients filter the real Obs);
# M = [S^R - O, O^R - S] and W = [S^R, O^R] stay complex through hstack, but for a truncated response
# (irlen) M and W are float64 arrays again, filled by three more such assignments. NumPy warns by dtype, so
# a complex b with a real a warns too (its response has zero imaginary parts). The results are SciPy's (not
# the true Gustafsson filter for complex coefficients); CuPy's port also builds a float64 Obs, and CuPy's
# tests, which turn warnings into errors, expect the warning. cuarray's assignment of a complex array into a
# real one gives NumPy's ComplexWarning, so the same steps here give SciPy's values and warnings.
