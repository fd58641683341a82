r"""Solvers of :math:`\min_{\lambda\in\Delta_{\mathcal X}}\max_{y\in\mathcal Y}\|y\|^2_{A(\lambda)^{-1}}`.

:func:`solve_design`
    the book's fast solver: a log-barrier interior-point method (Boyd & Vandenberghe, Ch. 11) on
    a working set of directions (and, for very many arms, of arms) with column generation,
    returning a certificate: the relative duality gap of the returned design (the equivalence
    theorem; Kiefer 1974).
:func:`solve_design_cvxpy`
    the independent reference (cvxpy + Clarabel) through Elfving's second-order-cone form.
:func:`frank_wolfe_design`
    the Frank--Wolfe solver of Fiez et al. (2019), Appendix F, kept for fidelity to the RAGE code.

Part of :mod:`bai.designs`.
"""

from __future__ import annotations

import numpy as np

from ..validation import check_arms, check_in_interval, check_int, check_optional_int, check_positive
from ..validation import constraints
from .objective import DesignResult, as_directions, design_value


# --------------------------------------------------------------------------------------------
# The fast solver: log-barrier interior point with column generation
# --------------------------------------------------------------------------------------------


def _inv_spd(A: np.ndarray) -> np.ndarray:
    try:
        L = np.linalg.cholesky(A)
        Linv = np.linalg.solve(L, np.eye(A.shape[0]))
        return Linv.T @ Linv
    except np.linalg.LinAlgError:
        return np.linalg.pinv(A, hermitian=True)


#: a Newton decrement below this is accepted as centred once floating-point noise stops Newton's
#: method: phi - phi* <= decrement for a decrement below 0.68^2 (Boyd & Vandenberghe, Sec. 9.6.3),
#: such a point is close to the central path, and the certificate of solve_design does not rely on
#: centrality anyway. Measured: with a random relative jitter of 1e-13 (~500 ulps) on A^-1, 1e-5
#: left 3 of 114 small problems above tol = 1e-7, 1e-2 none; below 1e-2 Newton's steps are full
#: and the decrement falls quadratically, so without noise this rule never triggers.
_CENTERING_NOISE = 1e-2


def _barrier_restricted(X, Ys, lam0, rel_gap, *, mu_factor=20.0, max_newton=400):
    r"""Solve min_{lam in simplex, t} t  s.t.  y^T A(lam)^{-1} y <= t  for the rows of Ys.

    Log-barrier method (Boyd & Vandenberghe, Ch. 11) with equality-constrained Newton steps.
    Returns (lam, t, lower_bound, mu, newton_steps, Ainv).

    Centering stops when the Newton decrement :math:`\lambda^2` is below ``2e-10``, or -- as
    the barrier tightens -- when it reaches the floor set by floating point: the slacks
    :math:`t - y^\top A^{-1}y` are differences of numbers ~``t`` that must resolve ~``gap * t``,
    so the computed gradient, Newton direction and barrier differences carry a noise that grows
    with the barrier weight ``s`` and depends on the BLAS kernel's rounding (the same problem
    gave a floor of 2e-9 under OpenBLAS's SkylakeX kernel and below 1e-10 under Haswell). A
    decrement below ``_CENTERING_NOISE`` that has stopped shrinking quadratically (or whose
    step the Armijo test can no longer verify) means the point is as central as the arithmetic
    allows (:math:`\phi-\phi^*\approx\lambda^2/2`): the method moves on to the next ``s``.
    Only a failed line search with a larger decrement stops the method (``stalled``).
    """
    K, d = X.shape
    m = Ys.shape[0]
    n_ineq = m + K
    lam = lam0.copy()

    def evaluate(lam_):
        A = (X.T * lam_) @ X
        Ainv = _inv_spd(A)
        XA = X @ Ainv
        W = XA @ Ys.T  # (K, m): x^T Ainv y
        H = XA @ X.T  # (K, K)
        g = np.einsum("ij,jk,ik->i", Ys, Ainv, Ys)
        return Ainv, W, H, g

    Ainv, W, H, g = evaluate(lam)
    t = g.max() * 1.05 + 1e-12
    s = n_ineq / t  # barrier weight; the duality gap of a central point is n_ineq / s

    def dphi(lam_, t_, g_):
        """phi(new) - phi(current), summed term by term (phi itself ~ s t loses precision)."""
        r_ = t_ - g_
        if np.any(lam_ <= 0) or np.any(r_ <= 0):
            return np.inf
        return (s * (t_ - t) - np.sum(np.log(r_ / (t - g)))
                - np.sum(np.log(lam_ / lam)))

    steps = 0
    stalled = False
    a = np.concatenate((np.ones(K), [0.0]))
    while True:
        # ---- centering by Newton's method ----
        previous = np.inf  # the decrement of the previous Newton step
        for _ in range(max_newton):
            r = t - g
            W2 = W * W
            ir = 1.0 / r
            ir2 = ir * ir
            grad = np.concatenate((-(W2 @ ir) - 1.0 / lam, [s - ir.sum()]))
            Hll = (W2 * ir2) @ W2.T + 2.0 * H * ((W * ir) @ W.T) + np.diag(1.0 / lam**2)
            Hlt = W2 @ ir2
            Htt = ir2.sum()
            Hz = np.empty((K + 1, K + 1))
            Hz[:K, :K] = Hll
            Hz[:K, K] = Hlt
            Hz[K, :K] = Hlt
            Hz[K, K] = Htt
            # scale for conditioning (lambda can be tiny): Jacobi preconditioning of the KKT system
            D = 1.0 / np.sqrt(np.diag(Hz))
            KKT = np.zeros((K + 2, K + 2))
            KKT[: K + 1, : K + 1] = Hz * D[:, None] * D[None, :]
            KKT[: K + 1, K + 1] = a * D
            KKT[K + 1, : K + 1] = a * D
            rhs = np.concatenate((-grad * D, [0.0]))
            try:
                sol = np.linalg.solve(KKT, rhs)
            except np.linalg.LinAlgError:
                sol = np.linalg.lstsq(KKT, rhs, rcond=None)[0]
            dz = sol[: K + 1] * D
            decrement = -grad @ dz
            steps += 1
            if decrement / 2.0 <= 1e-10:
                break
            if decrement <= _CENTERING_NOISE and decrement > 0.25 * previous:
                break  # Newton no longer converges quadratically: the floating-point floor
            previous = decrement
            dl, dt = dz[:K], dz[K]
            # largest step keeping lam > 0
            alpha = 1.0
            neg = dl < 0
            if np.any(neg):
                alpha = min(1.0, 0.99 * np.min(-lam[neg] / dl[neg]))
            accepted = False
            while alpha >= 1e-10:
                lam_new = lam + alpha * dl
                t_new = t + alpha * dt
                new = evaluate(lam_new)
                if dphi(lam_new, t_new, new[3]) <= -0.25 * alpha * decrement:
                    accepted = True
                    break
                alpha *= 0.5
            if not accepted:
                # the decrease the Armijo test asks for is below the noise of phi's differences:
                # with a small decrement the point is central to working precision (go on to
                # the next s); with a large one the method cannot progress at all (stop here)
                stalled = decrement > _CENTERING_NOISE
                break
            lam, t = lam_new, t_new
            Ainv, W, H, g = new
        if stalled or n_ineq / s <= rel_gap * t:
            break
        s *= mu_factor
    r = t - g
    mu = 1.0 / (s * r)
    lower = t - n_ineq / s
    return lam, t, lower, mu, steps, Ainv


def spanning_arms(X):
    """Indices of ``d`` arms spanning R^d (QR with column pivoting)."""
    from scipy.linalg import qr

    _, _, piv = qr(X.T, pivoting=True, mode="economic")
    return np.sort(piv[: X.shape[1]]).astype(np.int64)


#: above this many arms, the certificate's LP is solved by constraint generation over the arms
_CERT_ALL_ARMS = 1000


def _certificate(X, Ys, Ainv, start_arms=None):
    r"""Lower bound on the optimal value, valid whatever the current design.

    For weights :math:`\mu` on directions, :math:`h(\lambda)=\sum_y\mu_y\|y\|^2_{A(\lambda)^{-1}}`
    is convex and below :math:`f(\lambda)=\max_y\|y\|^2_{A(\lambda)^{-1}}`; its gradient is
    :math:`-D_x` with :math:`D_x=\sum_y\mu_y(x^\top A^{-1}y)^2`, and
    :math:`\sum_x\lambda_xD_x=h(\lambda)`. Convexity over the simplex gives
    :math:`f^*\ge h^*\ge 2h(\lambda)-\max_xD_x` (the gap of the equivalence theorem). The best
    such bound at the current design is a small linear program in :math:`(\mu, s)`:
    maximise :math:`2\sum_y\mu_y g_y - s` subject to :math:`\sum_y\mu_y(x^\top A^{-1}y)^2\le s`
    for every arm, :math:`\mu` on the simplex. (Solving for :math:`\mu` exactly matters: the
    barrier's own dual estimates lose accuracy to cancellation as the barrier tightens.)

    With more than ``_CERT_ALL_ARMS`` arms and ``start_arms`` (the solver's working arms) given,
    the LP sees only those arms, each direction's best arm and, once, the arms its solution
    violates; the bound is still evaluated over all arms, so it stays a valid lower bound.

    Returns the bound and the optimal weights ``mu``.
    """
    from scipy.optimize import linprog

    YA = Ys @ Ainv
    g = np.einsum("ij,ij->i", YA, Ys)
    W2 = (X @ YA.T) ** 2  # (K, m)
    K, m = W2.shape
    scale = g.max()
    c = np.concatenate((-2.0 * g / scale, [1.0]))
    A_eq = np.concatenate((np.ones(m), [0.0]))[None, :]

    def lp(rows):
        A_ub = np.hstack((W2[rows] / scale, -np.ones((rows.size, 1))))
        return linprog(c, A_ub=A_ub, b_ub=np.zeros(rows.size), A_eq=A_eq, b_eq=[1.0],
                       bounds=[(0, None)] * m + [(None, None)], method="highs")

    if K <= _CERT_ALL_ARMS or start_arms is None:
        res = lp(np.arange(K))
    else:
        # many arms: the LP over the solver's working arms (where the optimal design lives)
        # and each direction's best arm, refined once by the arms it violates; the bound below
        # is evaluated over all arms, so it stays valid whatever rows the LP saw
        rows = np.union1d(np.unique(np.argmax(W2, axis=0)), np.asarray(start_arms, np.int64))
        for _ in range(2):
            res = lp(rows)
            if res.status != 0:
                break
            load = W2 @ np.clip(res.x[:m], 0.0, None) / scale
            viol = np.flatnonzero(load > res.x[m] * (1.0 + 1e-9))
            viol = np.setdiff1d(viol, rows)
            if viol.size == 0:
                break
            rows = np.union1d(rows, viol[np.argsort(-load[viol])][: m + 16])
    if res.status != 0:
        return -np.inf, np.full(m, 1.0 / m)
    mu = np.clip(res.x[:m], 0.0, None)
    mu /= mu.sum()
    # evaluate the bound directly from mu (not from the LP's objective) so that it is exact
    return 2.0 * float(mu @ g) - float((W2 @ mu).max()), mu


@constraints(X="matrix", Y="matrix", tol="pos", max_rounds="count")
def solve_design(
    X,
    Y,
    *,
    tol: float = 1e-7,
    max_rounds: int = 200,
    directions_per_round: int | None = None,
) -> DesignResult:
    r"""Solve :math:`\min_{\lambda\in\Delta_{\mathcal X}}\max_{y\in\mathcal Y}\|y\|^2_{A(\lambda)^{-1}}`.

    Column generation around a log-barrier interior-point method:

    1. the barrier method (Newton steps on the simplex; Boyd & Vandenberghe, Ch. 11) solves the
       problem restricted to a small working set of arms and of directions;
    2. the directions the current design serves worst (over *all* of ``Y``) and the arms whose
       directional derivative :math:`D_x=\sum_y\mu_y(x^\top A^{-1}y)^2` exceeds the value
       (equivalence theorem; Kiefer 1974) join the working sets;
    3. it stops when the certified relative gap ``(value - lower_bound) / value`` is below ``tol``.

    The optimal design has a small support (Caratheodory: at most :math:`d(d+1)/2+1` arms), so
    the restricted problems stay small even with tens of thousands of arms, and ``Y`` given as
    :class:`PairwiseDifferences` is never materialised.

    Parameters
    ----------
    X : (K, d) array
        Arms; their rows must span :math:`\mathbb R^d`.
    Y : (m, d) array, :class:`ExplicitDirections` or :class:`PairwiseDifferences`
        Directions.
    tol : float
        Target certified relative gap (positive; about ``1e-9`` is the floor that double
        precision reaches on the book's problems, the default ``1e-7`` leaves a margin of 100).
    max_rounds : int
        Budget of column-generation rounds (at least 1).
    directions_per_round : int, optional
        Number of worst-served directions looked at per round (at least 1; default
        ``max(2 d, 16)``).

    Returns
    -------
    DesignResult
        ``value`` is :math:`\max_y\|y\|^2_{A(\lambda)^{-1}}` over all of ``Y`` at the returned
        design and ``lower_bound`` is certified (see ``_certificate``), so ``relative_gap``
        bounds the sub-optimality whatever happened inside the iterations. ``status`` is
        ``"optimal"`` when ``relative_gap <= tol``; otherwise ``"max_rounds"`` when the budget
        of rounds ran out, ``"inaccurate"`` when the solver stopped at the precision floor.
    """
    tol = check_positive(tol, "tol")
    max_rounds = check_int(max_rounds, "max_rounds", minimum=1)
    directions_per_round = check_optional_int(directions_per_round, "directions_per_round",
                                              minimum=1)
    X = check_arms(X, "X", min_arms=1)
    dirs = as_directions(Y)
    if dirs.dim != X.shape[1]:
        raise ValueError(f"Y has dimension {dirs.dim} but the arms X have dimension {X.shape[1]}")
    K, d = X.shape
    per_round = directions_per_round or max(2 * d, 16)

    arms = spanning_arms(X)
    lam_w = np.full(arms.size, 1.0 / arms.size)
    Ainv = _inv_spd((X[arms].T * lam_w) @ X[arms])
    working = [int(i) for i in dirs.top(Ainv, per_round)[0]]
    best_value, best_design, best_lower, best_dual = np.inf, None, -np.inf, {}
    inner_gap = tol / 10
    rounds = 0
    out_of_rounds = True  # until the loop stops by its own rule
    for rounds in range(1, max_rounds + 1):
        Ys = dirs.vectors(np.array(working))
        lam0 = 0.5 * lam_w / lam_w.sum() + 0.5 / arms.size  # strictly interior warm start
        lam_w, t, _, mu, _, Ainv = _barrier_restricted(X[arms], Ys, lam0, inner_gap)
        top_idx, top_val = dirs.top(Ainv, per_round)
        value = float(top_val[0])
        lower, _ = _certificate(X, Ys, Ainv, arms)
        best_lower = max(best_lower, lower)
        # column generation uses the restricted problem's own dual (the barrier's weights):
        # an arm enters when it would improve the restricted optimum (equivalence theorem)
        mu = mu / mu.sum()
        D = ((X @ (Ys @ Ainv).T) ** 2) @ mu
        if value < best_value:
            best_value = value
            best_design = np.zeros(K)
            best_design[arms] = lam_w
            best_dual = {i: float(w) for i, w in zip(working, mu)}
        if best_value - best_lower <= tol * best_value:
            out_of_rounds = False
            break
        known = set(working)
        new_dirs = [int(i) for i, v in zip(top_idx, top_val)
                    if v > t * (1 + tol / 10) and int(i) not in known]
        outside = np.setdiff1d(np.arange(K), arms)
        viol = outside[D[outside] > t * (1 + tol / 10)]
        new_arms = viol[np.argsort(-D[viol])][: 2 * d]
        if not new_dirs and new_arms.size == 0:
            if inner_gap <= 1e-11:  # below this the slacks t - g_y lose all precision
                out_of_rounds = False
                break
            inner_gap /= 100.0  # the working sets are right: solve them more accurately
            continue
        working.extend(new_dirs)
        if new_arms.size:
            weights = dict(zip(arms.tolist(), lam_w.tolist()))
            arms = np.union1d(arms, new_arms)
            lam_w = np.array([weights.get(int(a), 0.0) for a in arms])
    design, value = best_design, best_value
    if abs(design.sum() - 1.0) > 1e-12:  # the barrier's iterate sums to 1 only up to its tolerance
        design = design / design.sum()
        value = design_value(X, dirs, design)
    # drop the barrier's interior dust (weights ~ gap / K) when that keeps the value within tol
    for rel in (1e-6, 1e-8, 1e-10):
        clean = design.copy()
        clean[clean < rel * clean.max()] = 0.0
        clean /= clean.sum()
        v_clean = design_value(X, dirs, clean)
        if v_clean <= value * (1 + tol):
            design, value = clean, v_clean
            break
    lower = float(min(best_lower, value))
    if value - lower <= tol * value:
        status = "optimal"
    else:
        status = "max_rounds" if out_of_rounds else "inaccurate"
    return DesignResult(
        design=design,
        value=float(value),
        lower_bound=lower,
        dual={k: w for k, w in best_dual.items() if w > 1e-9},
        method="barrier",
        iterations=rounds,
        status=status,
    )


# --------------------------------------------------------------------------------------------
# Reference solver (cvxpy)
# --------------------------------------------------------------------------------------------


@constraints(X="matrix", Y="matrix", solver="choice", verbose="bool")
def solve_design_cvxpy(X, Y, *, solver: str = "CLARABEL", verbose: bool = False) -> DesignResult:
    r"""Reference solution with cvxpy, through Elfving's second-order-cone representation.

    For a design :math:`\lambda`, :math:`\|y\|^2_{A(\lambda)^{+}} = \min\{\sum_x u_x^2/\lambda_x :
    \sum_x u_x x = y\}` (Elfving 1952; Pukelsheim 2006, Ch. 2), which is jointly convex in
    :math:`(u,\lambda)` and exact also for singular designs. The problem becomes

    .. math:: \min t \ \text{s.t.}\ \sum_x s_{xy} \le t,\ u_{xy}^2 \le s_{xy}\lambda_x,\
              X^\top u_{\cdot y} = y,\ \lambda\in\Delta_{\mathcal X}.

    Independent of :func:`solve_design` (no shared code beyond input checks), so the two
    cross-check each other in the tests and benchmarks.
    """
    if not isinstance(solver, str):
        raise TypeError(f"solver must be the name of a cvxpy solver (a str), got "
                        f"{type(solver).__name__}")
    import cvxpy as cp

    if solver.upper() not in cp.installed_solvers():
        raise ValueError(f"solver must be an installed cvxpy solver {cp.installed_solvers()}, "
                         f"got {solver!r}")
    if not isinstance(verbose, (bool, np.bool_)):
        raise TypeError(f"verbose must be True or False, got {type(verbose).__name__}")
    X = check_arms(X, "X", min_arms=1)
    Yv = as_directions(Y).all_vectors()
    if Yv.shape[1] != X.shape[1]:
        raise ValueError(f"Y has dimension {Yv.shape[1]} but the arms X have dimension {X.shape[1]}")
    K, d = X.shape
    m = Yv.shape[0]
    lam = cp.Variable(K, nonneg=True)
    U = cp.Variable((K, m))
    S = cp.Variable((K, m), nonneg=True)
    t = cp.Variable()
    L = cp.reshape(lam, (K, 1), order="F") @ np.ones((1, m))
    u_flat = cp.reshape(U, (K * m,), order="F")
    s_flat = cp.reshape(S, (K * m,), order="F")
    l_flat = cp.reshape(L, (K * m,), order="F")
    cons = [
        cp.sum(lam) == 1,
        X.T @ U == Yv.T,
        cp.SOC(s_flat + l_flat, cp.vstack([2 * u_flat, s_flat - l_flat]), axis=0),
        cp.sum(S, axis=0) <= t,
    ]
    prob = cp.Problem(cp.Minimize(t), cons)
    import warnings

    with warnings.catch_warnings():
        # "Solution may be inaccurate" is recorded in the result's status instead
        warnings.filterwarnings("ignore", message="Solution may be inaccurate")
        prob.solve(solver=solver, verbose=verbose)
    if prob.status not in ("optimal", "optimal_inaccurate"):
        raise RuntimeError(f"cvxpy failed to solve the design problem: status {prob.status}")
    design = np.clip(np.asarray(lam.value).ravel(), 0, None)
    design /= design.sum()
    return DesignResult(
        design=design,
        value=float(prob.value),
        lower_bound=float("nan"),
        method=f"cvxpy-{solver.lower()}",
        iterations=int(prob.solver_stats.num_iters or 0),
        status="optimal" if prob.status == "optimal" else "inaccurate",
    )


# --------------------------------------------------------------------------------------------
# Frank-Wolfe as in the RAGE code (Fiez et al. 2019, Appendix F)
# --------------------------------------------------------------------------------------------


@constraints(X="matrix", Y="matrix", max_iter="count", rel_change="pos")
def frank_wolfe_design(X, Y, *, max_iter: int = 5000, rel_change: float = 0.01,
                       prune: float = 1e-5) -> DesignResult:
    r"""Frank--Wolfe on :math:`f(\lambda)=\max_y y^\top A(\lambda)^{-1}y` (Fiez et al. 2019, App. F).

    Step size :math:`2/(k+2)`, stop when the relative change of :math:`\lambda` falls below
    ``rel_change`` (their 0.01), then weights below ``prune`` are zeroed and the design is
    renormalised. This is the paper's solver, kept for fidelity; it is far less accurate than
    :func:`solve_design` (see the benchmarks), which the book uses for :math:`\rho` and
    :math:`\psi^*`.

    As in the RAGE code, the iterations are numbered ``1 .. max_iter - 1`` from the uniform
    design (``max_iter = 1`` takes no step). ``status`` is ``"optimal"`` when the relative
    change fell below ``rel_change`` and ``"max_iter"`` when the budget ran out first.
    ``prune`` lies in ``[0, 1)``; the largest weights are never pruned (a ``prune`` above every
    weight would otherwise leave no design).
    """
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    rel_change = check_positive(rel_change, "rel_change")
    prune = check_in_interval(prune, "prune", 0.0, 1.0, high_open=True)
    X = check_arms(X, "X", min_arms=1)
    dirs = as_directions(Y)
    if dirs.dim != X.shape[1]:
        raise ValueError(f"Y has dimension {dirs.dim} but the arms X have dimension {X.shape[1]}")
    K = X.shape[0]
    lam = np.full(K, 1.0 / K)
    k = 0
    status = "max_iter"  # until the relative change falls below rel_change
    for k in range(1, max_iter):  # memory O(K d) per iteration
        A = (X.T * lam) @ X
        Ainv = np.linalg.pinv(A, hermitian=True)
        idx, _ = dirs.top(Ainv, 1)
        y = dirs.vectors(idx)[0]
        gvec = (X @ (Ainv @ y)) ** 2
        # step = gamma (e_a - lam), built in O(K) memory; elementwise the same floating-point
        # operations as gamma * (np.eye(K)[a] - lam), so the iterates are unchanged
        gamma = 2.0 / (k + 2)
        a = int(np.argmax(gvec))
        step = gamma * (-lam)
        step[a] = gamma * (1.0 - lam[a])
        rel = np.linalg.norm(step) / np.linalg.norm(lam)
        lam = lam + step
        if rel < rel_change:
            status = "optimal"
            break
    lam[lam < min(prune, lam.max())] = 0.0
    lam /= lam.sum()
    return DesignResult(design=lam, value=design_value(X, dirs, lam), method="frank-wolfe",
                        iterations=k, status=status)
