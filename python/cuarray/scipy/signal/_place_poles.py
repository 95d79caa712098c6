"""SciPy's place_poles: the state-feedback gain K that puts the eigenvalues of A - B K at the requested poles, by
Kautsky, Nichols and Van Dooren's method 0 ('KNV0') or Tits and Yang's ('YT'). Host maths on the system's few
coefficients, as SciPy computes them (Note [Filter design on the host] in _iir_forms.py): the QR, SVD, eigen and
least-squares steps are NumPy's, where SciPy calls the same LAPACK routines; the results are device arrays."""

import warnings

import numpy

from cuarray.scipy.signal._iir_forms import host, on_device


class Bunch:
    """place_poles's result: gain_matrix, computed_poles, requested_poles, X, rtol and nb_iter."""

    def __init__(self, **kwds):
        self.__dict__.update(kwds)


def _qr_complete(a):
    return numpy.linalg.qr(a, mode="complete")


def _order_complex_poles(poles):
    """The real poles sorted, then each complex pole with negative imaginary part (sorted) followed by its
    conjugate; a complex pole without its conjugate is an error."""
    ordered = numpy.sort(poles[numpy.isreal(poles)])
    complex_poles = []
    for p in numpy.sort(poles[numpy.imag(poles) < 0]):
        if numpy.conj(p) in poles:
            complex_poles.extend((p, numpy.conj(p)))
    ordered = numpy.hstack((ordered, complex_poles))
    if poles.shape[0] != len(ordered):
        raise ValueError("Complex poles must come with their conjugates")
    return ordered


def _valid_inputs(A, B, poles, method, rtol, maxiter):
    """SciPy's checks of place_poles's arguments, in its order: the update loop to use and the ordered poles."""
    poles = numpy.asarray(poles)
    if poles.ndim > 1:
        raise ValueError("Poles must be a 1D array like.")
    poles = _order_complex_poles(poles)
    if A.ndim > 2:
        raise ValueError("A must be a 2D array/matrix.")
    if B.ndim > 2:
        raise ValueError("B must be a 2D array/matrix")
    if A.shape[0] != A.shape[1]:
        raise ValueError("A must be square")
    if len(poles) > A.shape[0]:
        raise ValueError(f"maximum number of poles is {A.shape[0]} but you asked for {len(poles)}")
    if len(poles) < A.shape[0]:
        raise ValueError(f"number of poles is {len(poles)} but you should provide {A.shape[0]}")
    rank = numpy.linalg.matrix_rank(B)
    for p in poles:
        if sum(p == poles) > rank:
            raise ValueError("at least one of the requested pole is repeated more than rank(B) times")
    if method not in ("KNV0", "YT"):
        raise ValueError("The method keyword must be one of 'YT' or 'KNV0'")
    if method == "KNV0" and not all(numpy.isreal(poles)):
        raise ValueError("Complex poles are not supported by KNV0")
    if maxiter < 1:
        raise ValueError("maxiter must be at least equal to 1")
    if rtol > 1:  # a negative rtol is the user's way to force maxiter iterations
        raise ValueError("rtol can not be greater than 1")
    return (_KNV0_loop if method == "KNV0" else _YT_loop), poles


def _KNV0(ker_pole, transfer_matrix, j):
    """KNV's rank-one update of column j: the projection onto pole j's kernel of the direction orthogonal to the
    other columns."""
    Q, _ = _qr_complete(numpy.delete(transfer_matrix, j, axis=1))
    yj = numpy.dot(numpy.dot(ker_pole[j], ker_pole[j].T), Q[:, -1])
    if not numpy.allclose(yj, 0):  # else keep the column: nothing better is known
        transfer_matrix[:, j] = yj / numpy.linalg.norm(yj)


def _set_pair(transfer_matrix, i, j, values):
    rows = transfer_matrix.shape[0]
    transfer_matrix[:, i] = values[:rows]
    transfer_matrix[:, j] = values[rows:]


def _YT_real(ker_pole, Q, transfer_matrix, i, j):
    """YT's rank-two update of the columns of two real poles (section 6.1 of their report)."""
    u, v = Q[:, -2, None], Q[:, -1, None]
    m = numpy.dot(numpy.dot(ker_pole[i].T, numpy.dot(u, v.T) - numpy.dot(v, u.T)), ker_pole[j])
    um, sm, vm = numpy.linalg.svd(m)
    mu1, mu2 = um.T[:2, :, None]  # the first two left singular vectors
    nu1, nu2 = vm[:2, :, None]  # and right ones
    current = numpy.vstack((transfer_matrix[:, i, None], transfer_matrix[:, j, None]))
    if not numpy.allclose(sm[0], sm[1]):
        ker_pole_mu_nu = numpy.vstack((numpy.dot(ker_pole[i], mu1), numpy.dot(ker_pole[j], nu1)))
    else:  # the two largest singular values tie: span both singular pairs
        ker_pole_ij = numpy.vstack(
            (
                numpy.hstack((ker_pole[i], numpy.zeros(ker_pole[i].shape))),
                numpy.hstack((numpy.zeros(ker_pole[j].shape), ker_pole[j])),
            )
        )
        mu_nu = numpy.vstack((numpy.hstack((mu1, mu2)), numpy.hstack((nu1, nu2))))
        ker_pole_mu_nu = numpy.dot(ker_pole_ij, mu_nu)
    update = numpy.dot(numpy.dot(ker_pole_mu_nu, ker_pole_mu_nu.T), current)
    if not numpy.allclose(update, 0):
        _set_pair(transfer_matrix, i, j, (numpy.sqrt(2) * update / numpy.linalg.norm(update))[:, 0])
    else:  # the columns are orthogonal to the subspace: take its basis vector and iterate (SciPy's guess)
        _set_pair(transfer_matrix, i, j, ker_pole_mu_nu[:, 0])


def _YT_complex(ker_pole, Q, transfer_matrix, i, j):
    """YT's update of the real and imaginary parts of a complex pole's column (section 6.2 of their report)."""
    u = numpy.sqrt(2) * Q[:, -2, None] + 1j * (numpy.sqrt(2) * Q[:, -1, None])
    ker_pole_ij = ker_pole[i]
    m = numpy.dot(
        numpy.dot(numpy.conj(ker_pole_ij.T), numpy.dot(u, numpy.conj(u).T) - numpy.dot(numpy.conj(u), u.T)),
        ker_pole_ij,
    )
    e_val, e_vec = numpy.linalg.eig(m)
    order = numpy.argsort(numpy.abs(e_val))  # by modulus
    mu1, mu2 = e_vec[:, order[-1], None], e_vec[:, order[-2], None]
    current = transfer_matrix[:, i, None] + 1j * transfer_matrix[:, j, None]
    if not numpy.allclose(numpy.abs(e_val[order[-1]]), numpy.abs(e_val[order[-2]])):
        ker_pole_mu = numpy.dot(ker_pole_ij, mu1)
    else:
        ker_pole_mu = numpy.dot(ker_pole_ij, numpy.hstack((mu1, mu2)))
    update = numpy.dot(numpy.dot(ker_pole_mu, numpy.conj(ker_pole_mu.T)), current)
    chosen = update / numpy.linalg.norm(update) if not numpy.allclose(update, 0) else ker_pole_mu
    transfer_matrix[:, i] = numpy.real(chosen[:, 0])
    transfer_matrix[:, j] = numpy.imag(chosen[:, 0])


def _YT_update_order(poles):
    """The (i, j) column pairs YT updates, in the order of the IEEE edition of its paper (p. 1442); (0, 0) is a
    KNV0 update of a single real pole."""
    nb_real = poles[numpy.isreal(poles)].shape[0]
    hnb = nb_real // 2  # half the number of real poles
    lone_real = hnb == 0 and numpy.isreal(poles[0])
    # Indices from 1, as in the paper; 1 is taken away at the end.
    first, second = ([nb_real], [1]) if nb_real > 0 else ([], [])
    r_comp = numpy.arange(nb_real + 1, len(poles) + 1, 2)

    def add_complex():
        first.extend(r_comp)
        second.extend(r_comp + 1)

    def add_lone_real():
        if lone_real:
            first.append(1)
            second.append(1)

    r_p = numpy.arange(1, hnb + nb_real % 2)  # step 1.a
    first.extend(2 * r_p)
    second.extend(2 * r_p + 1)
    add_complex()  # 1.b
    r_p = numpy.arange(1, hnb + 1)  # 1.c
    first.extend(2 * r_p - 1)
    second.extend(2 * r_p)
    add_lone_real()  # 1.d
    add_complex()
    for j in numpy.arange(2, hnb + nb_real % 2):  # 2.a
        for i in range(1, hnb + 1):
            first.append(i)
            second.append(i + j)
    add_lone_real()  # 2.b
    add_complex()
    for j in numpy.arange(2, hnb + nb_real % 2):  # 2.c
        for i in range(hnb + 1, nb_real + 1):
            idx = i + j
            first.append(i)
            second.append(idx - nb_real if idx > nb_real else idx)
    add_lone_real()  # 2.d
    add_complex()
    for i in range(1, hnb + 1):  # 3.a
        first.append(i)
        second.append(i + hnb)
    add_lone_real()  # 3.b
    add_complex()
    return numpy.array([first, second]).T - 1


def _converged(det_before, transfer_matrix, rtol, floor):
    """(stop, cur_rtol): the relative change of |det X| over a sweep, and whether it is below rtol (YT p. 21)."""
    det_now = numpy.max((floor, numpy.abs(numpy.linalg.det(transfer_matrix))))
    cur_rtol = numpy.abs((det_now - det_before) / det_now)
    return bool(cur_rtol < rtol and det_now > floor), cur_rtol


def _YT_loop(ker_pole, transfer_matrix, poles, B, maxiter, rtol):
    """Tits and Yang's sweeps of rank-two updates until |det X| settles: (stop, cur_rtol, nb_try)."""
    update_order = _YT_update_order(poles)
    stop, nb_try, cur_rtol = False, 0, None
    while nb_try < maxiter and not stop:
        det_before = numpy.abs(numpy.linalg.det(transfer_matrix))
        for i, j in update_order:
            if i == j:  # a single real pole: KNV0
                _KNV0(ker_pole, transfer_matrix, i)
                continue
            Q, _ = _qr_complete(numpy.delete(transfer_matrix, (i, j), axis=1))
            if numpy.isreal(poles[i]):
                _YT_real(ker_pole, Q, transfer_matrix, i, j)
            else:
                _YT_complex(ker_pole, Q, transfer_matrix, i, j)
        stop, cur_rtol = _converged(det_before, transfer_matrix, rtol, numpy.sqrt(numpy.spacing(1)))
        nb_try += 1
    return stop, cur_rtol, nb_try


def _KNV0_loop(ker_pole, transfer_matrix, poles, B, maxiter, rtol):
    """KNV0 sweeps over the poles one by one until |det X| settles: (stop, cur_rtol, nb_try)."""
    stop, nb_try, cur_rtol = False, 0, None
    while nb_try < maxiter and not stop:
        det_before = numpy.abs(numpy.linalg.det(transfer_matrix))
        for j in range(B.shape[0]):
            _KNV0(ker_pole, transfer_matrix, j)
        stop, cur_rtol = _converged(det_before, transfer_matrix, rtol, numpy.sqrt(numpy.spacing(1)))
        nb_try += 1
    return stop, cur_rtol, nb_try


def _place_poles(A, B, poles, method="YT", rtol=1e-3, maxiter=30):
    """SciPy's place_poles on host arrays: a Bunch of host results."""
    A, B = numpy.asarray(A), numpy.asarray(B)
    update_loop, poles = _valid_inputs(A, B, poles, method, rtol, maxiter)
    cur_rtol, nb_iter = 0, 0
    u, z = _qr_complete(B)  # step A of KNV, p. 1132
    rank_b = numpy.linalg.matrix_rank(B)
    u0, u1, z = u[:, :rank_b], u[:, rank_b:], z[:rank_b, :]
    if B.shape[0] == rank_b:
        # B of full row rank: X = I, and K solves B K = diag(poles) - A (least squares where B is wide). A
        # conjugate pair a +- bi goes in as the real block [[a, -b], [b, a]], which has those eigenvalues.
        diag_poles = numpy.zeros(A.shape)
        idx = 0
        while idx < poles.shape[0]:
            p = poles[idx]
            diag_poles[idx, idx] = numpy.real(p)
            if not numpy.isreal(p):
                diag_poles[idx, idx + 1] = -numpy.imag(p)
                diag_poles[idx + 1, idx + 1] = numpy.real(p)
                diag_poles[idx + 1, idx] = numpy.imag(p)
                idx += 1
            idx += 1
        gain_matrix = numpy.linalg.lstsq(B, diag_poles - A, rcond=-1)[0]
        transfer_matrix = numpy.eye(A.shape[0])
        cur_rtol, nb_iter = numpy.nan, numpy.nan
    else:
        # A basis of each pole's admissible eigenvectors (the null space of u1^T (A - p I)), and a first X whose
        # columns are the sums of those bases: no zero rows, and complex parts for complex poles.
        ker_pole, columns = [], []
        skip_conjugate = False
        for j in range(B.shape[0]):
            if skip_conjugate:
                skip_conjugate = False
                continue
            pole_space_j = numpy.dot(u1.T, A - poles[j] * numpy.eye(B.shape[0])).T
            Q, _ = _qr_complete(pole_space_j)
            ker_pole_j = Q[:, pole_space_j.shape[1] :]
            column = numpy.sum(ker_pole_j, axis=1)[:, None]
            column = column / numpy.linalg.norm(column)
            if not numpy.isreal(poles[j]):  # the pair's real and imaginary parts, one basis for both
                column = numpy.hstack([numpy.real(column), numpy.imag(column)])
                ker_pole.extend([ker_pole_j, ker_pole_j])
                skip_conjugate = True
            else:
                ker_pole.append(ker_pole_j)
            columns.append(column)
        transfer_matrix = numpy.hstack(columns)
        if rank_b > 1:  # otherwise there is nothing to optimize
            stop, cur_rtol, nb_iter = update_loop(ker_pole, transfer_matrix, poles, B, maxiter, rtol)
            if not stop and rtol > 0:  # a nonpositive rtol asks for maxiter sweeps on purpose
                warnings.warn(
                    "Convergence was not reached after maxiter iterations.\n"
                    f"You asked for a tolerance of {rtol}, we got {cur_rtol}.",
                    stacklevel=3,
                )
        # The real and imaginary columns of each complex pair back to the pair's two complex eigenvectors.
        transfer_matrix = transfer_matrix.astype(complex)
        idx = 0
        while idx < poles.shape[0] - 1:
            if not numpy.isreal(poles[idx]):
                real, imag = transfer_matrix[:, idx].copy(), transfer_matrix[:, idx + 1].copy()
                transfer_matrix[:, idx] = real - 1j * imag
                transfer_matrix[:, idx + 1] = real + 1j * imag
                idx += 1
            idx += 1
        try:
            m = numpy.linalg.solve(transfer_matrix.T, numpy.dot(numpy.diag(poles), transfer_matrix.T)).T
            gain_matrix = numpy.linalg.solve(z, numpy.dot(u0.T, m - A))
        except numpy.linalg.LinAlgError as e:
            raise ValueError(
                "The poles you've chosen can't be placed. Check the controllability matrix and try another set "
                "of poles"
            ) from e
    # KNV solve for A + B K; the usual form is A - B K. K's imaginary parts are rounding: dropped.
    gain_matrix = numpy.real(-gain_matrix)
    computed = _order_complex_poles(numpy.linalg.eig(A - numpy.dot(B, gain_matrix))[0])
    return Bunch(
        gain_matrix=gain_matrix,
        computed_poles=computed,
        requested_poles=poles,
        X=transfer_matrix,
        rtol=cur_rtol,
        nb_iter=nb_iter,
    )


def place_poles(A, B, poles, method="YT", rtol=1e-3, maxiter=30):
    """The gain K placing the eigenvalues of A - B K at `poles` (real ones and conjugate pairs; complex ones
    with method 'YT' only): a Bunch of gain_matrix, computed_poles and requested_poles (real ones sorted, then
    conjugate pairs), the transfer matrix X (device arrays), and the achieved rtol and the number of sweeps
    nb_iter (NaN where B has full row rank, 0 where it has one column and nothing is optimized)."""
    fsf = _place_poles(host(A), host(B), host(poles), method=method, rtol=rtol, maxiter=maxiter)
    for name in ("gain_matrix", "computed_poles", "requested_poles", "X"):
        setattr(fsf, name, on_device(getattr(fsf, name)))
    return fsf


__all__ = ["place_poles"]
