"""cuarray.scipy.special: SciPy's special functions on device arrays, as cupyx.scipy.special gives them.

The functions of one variable or two are ufuncs, rows of the core's ufunc table (cpp/cuarray/ops/ufuncs.def)
with SciPy's real loops: they take SciPy's loop for every input dtype (Note [Legacy loop search] in
cuarray/_ufuncs.py), fuse, and accept out=, dtype=, casting= and where=True. Complex inputs raise TypeError, as
in CuPy. softmax, log_softmax and logsumexp, and zeta and polygamma (Python functions in SciPy too) follow
SciPy's steps with cuarray's operations."""

from cuarray import _ufuncs
from cuarray.scipy.special._logsumexp import log_softmax, logsumexp, softmax
from cuarray.scipy.special._zeta import polygamma, zeta

erf = _ufuncs._special_erf
erfc = _ufuncs._special_erfc
erfcx = _ufuncs._special_erfcx
erfinv = _ufuncs._special_erfinv
erfcinv = _ufuncs._special_erfcinv
gamma = _ufuncs._special_gamma
gammaln = _ufuncs._special_gammaln
ndtr = _ufuncs._special_ndtr
ndtri = _ufuncs._special_ndtri
log_ndtr = _ufuncs._special_log_ndtr
expit = _ufuncs._special_expit
logit = _ufuncs._special_logit
log_expit = _ufuncs._special_log_expit
i0 = _ufuncs._special_i0
i1 = _ufuncs._special_i1
j0 = _ufuncs._special_j0
j1 = _ufuncs._special_j1
y0 = _ufuncs._special_y0
y1 = _ufuncs._special_y1
xlogy = _ufuncs._special_xlogy
xlog1py = _ufuncs._special_xlog1py
entr = _ufuncs._special_entr
rel_entr = _ufuncs._special_rel_entr
kl_div = _ufuncs._special_kl_div
huber = _ufuncs._special_huber
exp10 = _ufuncs._special_exp10
exp2 = _ufuncs._special_exp2
cbrt = _ufuncs._special_cbrt
psi = _ufuncs._special_psi
digamma = psi  # SciPy's other name for psi
i0e = _ufuncs._special_i0e
i1e = _ufuncs._special_i1e
rgamma = _ufuncs._special_rgamma
gammasgn = _ufuncs._special_gammasgn
gammainc = _ufuncs._special_gammainc
gammaincc = _ufuncs._special_gammaincc
beta = _ufuncs._special_beta
betaln = _ufuncs._special_betaln
zetac = _ufuncs._special_zetac
k0 = _ufuncs._special_k0
k1 = _ufuncs._special_k1
k0e = _ufuncs._special_k0e
k1e = _ufuncs._special_k1e

__all__ = [
    "beta",
    "betaln",
    "cbrt",
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfcinv",
    "erfcx",
    "erfinv",
    "exp2",
    "exp10",
    "expit",
    "gamma",
    "gammainc",
    "gammaincc",
    "gammaln",
    "gammasgn",
    "huber",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "j0",
    "j1",
    "k0",
    "k0e",
    "k1",
    "k1e",
    "kl_div",
    "log_expit",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "ndtr",
    "ndtri",
    "polygamma",
    "psi",
    "rel_entr",
    "rgamma",
    "softmax",
    "xlog1py",
    "xlogy",
    "y0",
    "y1",
    "zeta",
    "zetac",
]
