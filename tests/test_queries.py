"""bai.queries: answers, pieces, the GLR of a piece and T*, against independent references
(SLSQP over the alternative written with the items, membership of random points, brute-force
max-min over the simplex)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import optimize

from bai import queries
from bai.queries import BestArm, Thresholding, TopM


def _instance(seed, K=6, d=3, M=None):
    r = np.random.default_rng(seed)
    X = r.standard_normal((K, d))
    Z = X if M is None else r.standard_normal((M, d))
    theta = r.standard_normal(d)
    return X, Z, theta


def _queries(Z, theta):
    v = np.sort(Z @ theta)
    return [BestArm(), BestArm(eps=float(v[-1] - v[-3]) * 1.1 + 1e-3), TopM(2), TopM(3),
            Thresholding(float(np.median(Z @ theta)) + 0.01), Thresholding(0.0)]


# --- the alternative, written with the items (not with the pieces' A and b) ------------------


def _alt_constraints(q, answer, Z):
    """The alternative of ``answer`` as a union of sets {lambda: c(lambda) >= 0}, each written
    from the definition of the query with the items."""
    M = Z.shape[0]
    cons = []
    if isinstance(q, BestArm):
        i = answer
        for j in range(M):
            if j != i:   # z_j beats z_i by at least eps
                cons.append(lambda lam, i=i, j=j: (Z[j] - Z[i]) @ lam - q.eps)
    elif isinstance(q, TopM):
        S = set(answer)
        for i in S:
            for j in set(range(M)) - S:   # a non-member at least as good as a member
                cons.append(lambda lam, i=i, j=j: (Z[j] - Z[i]) @ lam)
    else:
        for k, above in enumerate(answer):   # item k on the other side of tau
            cons.append((lambda lam, k=k: q.tau - Z[k] @ lam) if above
                        else (lambda lam, k=k: Z[k] @ lam - q.tau))
    return cons


def _direct_glr(q, answer, Z, theta, V, sigma):
    """min over the alternative of ||theta - lambda||_V^2 / (2 sigma^2), by SLSQP on each set."""
    best = np.inf
    fun = lambda lam: 0.5 * (theta - lam) @ V @ (theta - lam) / sigma**2  # noqa: E731
    jac = lambda lam: -V @ (theta - lam) / sigma**2  # noqa: E731
    r = np.random.default_rng(0)
    for c in _alt_constraints(q, answer, Z):
        for start in (theta, theta + r.standard_normal(theta.shape)):
            res = optimize.minimize(fun, start, jac=jac, method="SLSQP",
                                    constraints=[{"type": "ineq", "fun": c}],
                                    options={"ftol": 1e-14, "maxiter": 500})
            if c(res.x) >= -1e-9:     # any feasible point bounds the minimum from above
                best = min(best, fun(res.x))
    return best


@pytest.mark.parametrize("seed", range(6))
def test_glr_of_each_query_equals_slsqp_over_its_alternative(seed):
    X, Z, theta = _instance(seed, M=None if seed % 2 else 7)
    r = np.random.default_rng(100 + seed)
    counts = r.integers(1, 20, size=X.shape[0]).astype(float)
    V = (X * counts[:, None]).T @ X
    sigma = [1.0, 0.5, 2.0][seed % 3]
    for q in _queries(Z, theta):
        q = q.bind(Z)
        a, lam = q.glr(theta, V, sigma)
        assert a == q.empirical_answer(theta)
        direct = _direct_glr(q, a, Z, theta, V, sigma)
        assert lam == pytest.approx(direct, rel=1e-5, abs=1e-9), q


@pytest.mark.parametrize("seed", range(4))
def test_pieces_are_the_alternative(seed):
    """A point lies in the union of the pieces of an answer iff its own answer differs (random
    points; ties have probability 0)."""
    X, Z, theta = _instance(seed, K=7, d=3)
    r = np.random.default_rng(seed)
    for q in _queries(Z, theta):
        q = q.bind(Z)
        if isinstance(q, BestArm) and q.eps > 0:
            continue    # several correct answers: checked below
        a = q.answer(theta)
        A, b = q.pieces(a)
        assert A.shape == (q.max_pieces, 3) and b.shape == (q.max_pieces,)
        assert np.all(A @ theta > b)          # theta strictly outside every piece
        for lam in theta + 1.5 * r.standard_normal((400, 3)):
            inside = bool(np.any(A @ lam <= b))
            assert inside == (q.empirical_answer(lam) != a), (q, lam)


def test_eps_good_pieces_are_where_the_answer_is_not_eps_good():
    X, Z, theta = _instance(3, K=7, d=3)
    q = BestArm(eps=0.4).bind(Z)
    r = np.random.default_rng(1)
    for i in range(Z.shape[0]):
        A, b = q.pieces(i)
        for lam in theta + 1.5 * r.standard_normal((200, 3)):
            inside = bool(np.any(A @ lam < b))
            assert inside == (not q.is_correct(i, lam))


def test_answers_codes_and_ties():
    Z = np.array([[1.0, 0.0], [0.0, 1.0], [0.7, 0.7], [-1.0, 0.2]])
    theta = np.array([1.0, 0.5])            # values 1, 0.5, 1.05, -0.9
    assert BestArm().bind(Z).answer(theta) == 2
    assert TopM(2).bind(Z).answer(theta) == (0, 2)
    assert Thresholding(0.6).bind(Z).answer(theta) == (True, False, True, False)
    for q in (BestArm(), TopM(2), Thresholding(0.6)):
        q = q.bind(Z)
        a = q.answer(theta)
        assert q.decode(q.code(a)) == a
    with pytest.raises(ValueError, match="theta"):
        BestArm().bind(Z[:2]).answer(np.array([1.0, 1.0]))
    with pytest.raises(ValueError, match="theta"):
        TopM(1).bind(Z[:2]).answer(np.array([2.0, 2.0]))
    with pytest.raises(ValueError, match="theta"):
        Thresholding(1.0).bind(Z).answer(theta)               # item 0 sits on tau
    # eps-good: every item within eps of the best is correct, no tie is an error
    q = BestArm(eps=0.1).bind(Z)
    assert q.correct_answers(theta) == [0, 2] and q.is_correct(0, theta)
    assert q.answer(np.array([1.0, 1.0])) in (0, 1, 2)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="eps"):
        BestArm(eps=-0.1)
    with pytest.raises(ValueError, match="eps"):
        BestArm(eps=math.nan)
    with pytest.raises(ValueError, match="m"):
        TopM(0)
    with pytest.raises(ValueError, match="m"):
        TopM(3).bind(np.eye(3))
    with pytest.raises(ValueError, match="tau"):
        Thresholding(math.inf)
    with pytest.raises(ValueError, match="bound"):
        TopM(2).pieces((0, 1))
    with pytest.raises(TypeError, match="query"):
        queries.as_query("top-m", np.eye(3))
    with pytest.raises(TypeError, match="TopM"):
        queries.as_query(TopM, np.eye(3))
    with pytest.raises(ValueError, match="answer"):
        TopM(2).bind(np.eye(3)).code((0, 0))


# --- T*: the design solver over the pieces against brute force ------------------------------


def _item_pairs(q, answer, Z):
    """The (normal, offset) of each way out of ``answer``, written from the items (not from
    the query's pieces): a non-member at least as good as a member (top-m), an item on the
    other side of tau (thresholding)."""
    M = Z.shape[0]
    if isinstance(q, TopM):
        S = set(answer)
        return [(Z[i] - Z[j], 0.0) for i in S for j in set(range(M)) - S]
    return [(Z[k], q.tau) if above else (-Z[k], -q.tau) for k, above in enumerate(answer)]


def _inner(pairs, theta, w, X, sigma):
    """min over the alternative of 1/2 ||theta - lambda||^2_{A(w)} / sigma^2: the smallest
    half-space value g^2 / (2 sigma^2 ||a||^2_{A(w)^-1}) (the closed form is tested against
    SLSQP above; here the max over w is the object)."""
    A = (X * w[:, None]).T @ X + 1e-12 * np.eye(X.shape[1])
    Ainv = np.linalg.inv(A)
    return min((a @ theta - b) ** 2 / (2 * sigma**2 * a @ Ainv @ a) for a, b in pairs)


def _brute_t_star(q, X, Z, theta, sigma=1.0, n=120):
    """T* = 1 / max_w min_alt ..., the max over a grid of the simplex (K = 3), refined by
    Nelder-Mead from the best grid point."""
    pairs = _item_pairs(q, q.answer(theta), Z)
    best, wbest = -np.inf, None
    for i, j in itertools.product(range(n + 1), repeat=2):
        if i + j > n:
            continue
        w = np.array([i, j, n - i - j]) / n
        if w.min() == 0:
            continue
        val = _inner(pairs, theta, w, X, sigma)
        if val > best:
            best, wbest = val, w

    def neg(u):
        w = np.exp(u - u.max())
        return -_inner(pairs, theta, w / w.sum(), X, sigma)

    res = optimize.minimize(neg, np.log(wbest), method="Nelder-Mead",
                            options={"xatol": 1e-10, "fatol": 1e-14, "maxiter": 4000})
    return 1.0 / max(best, -res.fun)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_t_star_of_top_m_and_thresholding_equals_brute_force(seed):
    r = np.random.default_rng(seed)
    X = np.eye(3) + 0.3 * r.standard_normal((3, 3))
    Z = r.standard_normal((5, 3))
    theta = r.standard_normal(3)
    v = np.sort(Z @ theta)
    for q in (TopM(2), Thresholding(float(0.5 * (v[1] + v[2])))):
        q = q.bind(Z)
        t = q.t_star(X, theta, sigma=0.7)
        assert t == pytest.approx(_brute_t_star(q, X, Z, theta, sigma=0.7), rel=2e-3), q


def test_t_star_of_best_arm_is_the_librarys_and_eps_takes_the_easiest_answer():
    from bai.lower_bounds import linear_t_star
    X, Z, theta = _instance(1, K=6, d=3, M=8)
    assert BestArm().bind(Z).t_star(X, theta, 1.5) == pytest.approx(
        linear_t_star(X, theta, Z, 1.5), rel=1e-9)
    v = Z @ theta
    q = BestArm(eps=float(np.sort(v)[-1] - np.sort(v)[-2]) + 0.05).bind(Z)
    each = []
    for i in q.correct_answers(theta):
        A, b = q.pieces(i)
        from bai.designs import solve_design
        each.append(2 * solve_design(X, A / (A @ theta - b)[:, None]).value)
    assert len(each) >= 2
    assert q.t_star(X, theta) == pytest.approx(min(each), rel=1e-9)
    assert q.t_star(X, theta) < BestArm().bind(Z).t_star(X, theta)


def test_expected_time_lower_bound():
    from bai import instances
    from bai.lower_bounds import kl_delta
    env = instances.soare_benchmark(3, omega=0.1)
    q = TopM(2)
    lb = queries.expected_time_lower_bound(env, q, 0.01)
    assert lb == pytest.approx(q.bind(env.Z).t_star(env.X, env.theta) * kl_delta(0.01))
    assert queries.expected_time_lower_bound(env, q, 0.6) == 0.0


def test_compiled_formulas():
    # the closest point lies on the piece's boundary and the gradient is the finite difference
    r = np.random.default_rng(0)
    X = r.standard_normal((5, 3))
    a, theta = r.standard_normal(3), r.standard_normal(3)
    b = a @ theta - 0.7
    w = r.uniform(0.2, 1.0, 5)
    Ainv = np.linalg.inv((X.T * w) @ X)
    gap, s = a @ theta - b, a @ Ainv @ a
    lam = queries.closest_point(theta, gap, s, Ainv @ a, np.empty(3))
    assert a @ lam == pytest.approx(b)
    A = (X.T * w) @ X
    assert queries.piece_glr(gap, s, 1.3) == pytest.approx(
        0.5 * (theta - lam) @ A @ (theta - lam) / 1.3)

    def f(w):
        return gap**2 / (2 * 1.3 * a @ np.linalg.solve((X.T * w) @ X, a))

    for k in range(5):
        e = np.eye(5)[k] * 1e-6
        fd = (f(w + e) - f(w - e)) / 2e-6
        assert queries.piece_gradient(gap, s, X[k] @ Ainv @ a, 1.3) == pytest.approx(fd, rel=1e-5)
    assert queries.piece_glr(-0.1, s, 1.0) == 0.0
