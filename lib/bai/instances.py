r"""Instance builders shared by the chapters (one function per benchmark of the papers)."""

from __future__ import annotations

import functools

import numpy as np

from . import datasets
from .environments import BernoulliLinearBandit, GaussianLinearBandit
from .validation import (as_vector, check_bool, check_int, check_nonnegative, check_positive,
                         check_rng)
from .validation import constraints

__all__ = ["soare_benchmark", "canonical_bandit", "many_arms", "unit_sphere",
           "transductive_example", "multivariate_testing", "CLICK_DATA_DIR", "click_data",
           "click_candidates", "click_theta", "CLICK_BEST_RANGE", "CLICK_OTHER_RANGE",
           "click_instance", "prop1_instance"]


@constraints(d="count", omega="pos", scale="pos", sigma="pos")
def soare_benchmark(d: int, *, omega: float = 0.01, scale: float = 2.0,
                    sigma: float = 1.0) -> GaussianLinearBandit:
    r"""The benchmark of Soare, Lazaric, Munos (2014), Sec. 6 (also Xu et al. 2018 Fig. 1,
    Fiez et al. 2019 Fig. 1a).

    :math:`\mathcal X=\{e_1,\dots,e_d,x_{d+1}\}` with :math:`x_{d+1}=(\cos\omega,\sin\omega,0,\dots,0)`,
    :math:`\theta^*=\text{scale}\cdot e_1`. The best arm is :math:`e_1` (index 0); the hard
    competitor is :math:`x_{d+1}` (index ``d``), with gap :math:`\text{scale}(1-\cos\omega)`, and
    the informative arm is :math:`e_2` (index 1).
    """
    d = check_int(d, "d", minimum=2)
    omega = check_positive(omega, "omega")
    scale = check_positive(scale, "scale")
    if 1.0 - np.cos(omega) <= 1e-12:   # x_{d+1} = e_1: no unique best arm
        raise ValueError(f"omega = {omega:g} makes the competitor x_(d+1) = (cos omega, "
                         f"sin omega, 0, ...) equal to the best arm e_1 (gap scale(1 - cos "
                         f"omega) = 0): there is no unique best arm; omega must not be a "
                         f"multiple of 2 pi (the paper's omega = 0.01)")
    extra = np.zeros(d)
    extra[0], extra[1] = np.cos(omega), np.sin(omega)
    X = np.vstack([np.eye(d), extra])
    theta = np.zeros(d)
    theta[0] = scale
    return GaussianLinearBandit(X=X, theta=theta, sigma=sigma, name=f"soare(d={d}, omega={omega})")


@constraints(means="array", sigma="pos")
def canonical_bandit(means, *, sigma: float = 1.0) -> GaussianLinearBandit:
    r"""A standard multi-armed bandit as a linear one: :math:`\mathcal X=\{e_i\}`, :math:`\theta=\mu`.

    On this instance :math:`H_{MAB}\le H_{LB}\le 2H_{MAB}` (Soare et al. 2014, Lemma 2).
    """
    mu = as_vector(means, "means")
    if mu.size < 2:
        raise ValueError(f"means must describe at least 2 arms, got {mu.size}")
    return GaussianLinearBandit(X=np.eye(mu.size), theta=mu, sigma=sigma, name="canonical")


# ---------------------------------------------------------------------------------------------
# Fiez, Jain, Jamieson, Ratliff (2019): Figures 1b-1d and 2a
# ---------------------------------------------------------------------------------------------

#: Readings of the near-duplicate angles of :func:`many_arms` (Fiez et al. 2019, Sec. 5, Fig. 1b).
MANY_ARMS_SPREADS = ("code", "sd", "variance")


@constraints(n="count", rng="rng", spread="choice", sigma="pos")
def many_arms(n: int, rng, *, spread: str = "code", sigma: float = 1.0) -> GaussianLinearBandit:
    r"""Many arms with moderate gaps in :math:`\mathbb R^2` (Fiez et al. 2019, Fig. 1b).

    :math:`\mathcal X=\mathcal Z` holds :math:`x_1=e_1` (the best arm, index 0),
    :math:`x_2=(\cos\tfrac{3\pi}4,\sin\tfrac{3\pi}4)` (the informative arm, index 1) and
    :math:`n-2` near-duplicates :math:`(\cos a_i,\sin a_i)`; :math:`\theta^*=e_1`, so arm
    :math:`i` has gap :math:`1-\cos a_i`. The angles :math:`a_i` (``spread``):

    ``"code"`` (default)
        :math:`a_i=0.78+u_i`, :math:`u_i\sim U[0,0.1]`: the authors' ``run_many_arms.py``
        (spec Sec. 5 item 7); gaps 0.29--0.36, the text's "gap :math:`\approx0.3`".
    ``"sd"``
        :math:`a_i=\pi/4+\phi_i`, :math:`\phi_i\sim\mathcal N(0,0.09^2)` (the text's
        :math:`\mathcal N(0,.09)` read as a standard deviation); gaps about 0.2--0.4.
    ``"variance"``
        :math:`\phi_i\sim\mathcal N(0,0.09)` read as a variance (standard deviation 0.3): a few
        angles land near 0, so :math:`\Delta_{\min}` is tiny (the spec's ASSUMED reading, which
        contradicts the text's "gap :math:`\approx0.3`").
    """
    n = check_int(n, "n", minimum=3)
    check_rng(rng)
    if spread not in MANY_ARMS_SPREADS:
        raise ValueError(f"spread must be one of {MANY_ARMS_SPREADS}, got {spread!r}")
    if spread == "code":
        a = 0.78 + rng.uniform(0.0, 0.1, size=n - 2)
    else:
        sd = 0.09 if spread == "sd" else 0.3
        a = np.pi / 4 + rng.normal(0.0, sd, size=n - 2)
    X = np.vstack([[1.0, 0.0], [np.cos(3 * np.pi / 4), np.sin(3 * np.pi / 4)],
                   np.column_stack([np.cos(a), np.sin(a)])])
    return GaussianLinearBandit(X=X, theta=np.array([1.0, 0.0]), sigma=sigma,
                                name=f"many_arms(n={n}, spread={spread})")


@constraints(n="count", d="count", rng="rng", sigma="pos")
def unit_sphere(n: int, d: int, rng, *, sigma: float = 1.0) -> GaussianLinearBandit:
    r"""Arms drawn uniformly on the unit sphere of :math:`\mathbb R^d` (Fiez et al. 2019,
    Fig. 1c, following Tao et al. 2018).

    :math:`n` normalised standard Gaussian vectors; the closest pair :math:`(x_i,x_j)`, :math:`i<j`,
    in Euclidean distance gives :math:`\theta^*=x_i` (the authors' code takes the first arm of the
    pair), so :math:`x_i` is best and :math:`x_j` its closest competitor, with gap
    :math:`1-x_i^\top x_j`.
    """
    n = check_int(n, "n", minimum=2)
    d = check_int(d, "d", minimum=2)
    if n < d:
        raise ValueError(f"n = {n} arms cannot span R^{d}: need n >= d")
    check_rng(rng)
    X = rng.standard_normal((n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    G = X @ X.T  # closest pair = largest inner product between distinct unit vectors
    np.fill_diagonal(G, -np.inf)
    i, j = np.unravel_index(int(np.argmax(G)), G.shape)
    i = min(i, j)
    return GaussianLinearBandit(X=X, theta=X[i].copy(), sigma=sigma,
                                name=f"unit_sphere(n={n}, d={d})")


def _paired_angles(d: int, angle: float):
    r"""The rows :math:`e_j` (:math:`j\le d/2`) and :math:`\cos(\text{angle})e_j+\sin(\text{angle})e_{d/2+j}`,
    and :math:`\theta^*=e_1` (Fiez et al. 2019, Fig. 1d and Prop. 1)."""
    d = check_int(d, "d", minimum=2)
    if d % 2:
        raise ValueError(f"d must be even, got {d}")
    angle = check_positive(angle, "angle")
    h = d // 2
    V = np.zeros((d, d))
    V[:h, :h] = np.eye(h)
    V[h:, :h] = np.cos(angle) * np.eye(h)
    V[h:, h:] = np.sin(angle) * np.eye(h)
    theta = np.zeros(d)
    theta[0] = 1.0
    return V, theta


@constraints(d="count", angle="pos", sigma="pos")
def transductive_example(d: int, *, angle: float = 0.1, sigma: float = 1.0) -> GaussianLinearBandit:
    r"""The transductive example of Fiez et al. (2019), Fig. 1d.

    :math:`\mathcal X=\{e_1,\dots,e_d\}` (``d`` even) and :math:`d` items:
    :math:`z_j=e_j` for :math:`j\le d/2` and
    :math:`z_{d/2+j}=\cos(\text{angle})e_j+\sin(\text{angle})e_{d/2+j}`; :math:`\theta^*=e_1`, so
    :math:`z_1` (index 0) is best and :math:`z_{d/2+1}` (index ``d // 2``) its close competitor,
    with gap :math:`1-\cos(\text{angle})`.
    """
    Z, theta = _paired_angles(d, angle)
    return GaussianLinearBandit(X=np.eye(len(theta)), theta=theta, sigma=sigma, Z=Z,
                                name=f"transductive(d={d}, angle={angle})")


@constraints(D="count", rng="rng", weights="choice", sigma="pos")
def multivariate_testing(D: int, rng, *, alpha1: float = 1.0, alpha2: float = 0.5,
                         weights: str = "paper", min_gap: float = 1e-5,
                         sigma: float = 1.0) -> GaussianLinearBandit:
    r"""Multivariate (factorial) testing with pairwise interactions (Fiez et al. 2019, Fig. 2a).

    ``D`` slots with two choices each, :math:`w\in\{-1,1\}^D` (:math:`2^D` arms, in the order of
    ``itertools.product``), features
    :math:`x=(1,w_1,\dots,w_D,(w_kw_\ell)_{k<\ell})\in\{-1,1\}^{1+D+D(D-1)/2}` and
    :math:`\mathcal X=\mathcal Z`. The mean is
    :math:`\theta_0+\alpha_1\sum_j\theta_jw_j+\alpha_2\sum_{k<\ell}\theta_{k\ell}w_kw_\ell`, i.e.
    :math:`\theta^*=(\theta_0,\alpha_1\theta_j,\alpha_2\theta_{k\ell})`. Weights (``weights``):

    ``"paper"``
        uniform on :math:`\{-0.30,-0.29,\dots,0.30\}` (the text);
    ``"code"``
        the authors' ``run_orthogonal.py``: ``randint(-10, 10) / 100`` (i.e. :math:`[-0.10,0.09]`)
        and :math:`\alpha_2` applied to the *first* pairwise weight only (spec Sec. 5 item 8).

    :math:`\theta^*` is redrawn until the two best means differ by at least ``min_gap`` (code).
    """
    import itertools

    D = check_int(D, "D", minimum=2)
    check_rng(rng)
    alpha1 = check_positive(alpha1, "alpha1")
    alpha2 = check_nonnegative(alpha2, "alpha2")
    min_gap = check_positive(min_gap, "min_gap")
    if weights not in ("paper", "code"):
        raise ValueError(f"weights must be 'paper' or 'code', got {weights!r}")
    W = np.array(list(itertools.product((-1.0, 1.0), repeat=D)))
    pairs = list(itertools.combinations(range(D), 2))
    X = np.column_stack([np.ones(len(W)), W] + [W[:, k] * W[:, l] for k, l in pairs])
    d = X.shape[1]
    for _ in range(10_000):
        if weights == "paper":
            raw = rng.integers(-30, 31, size=d) / 100.0
            scale = np.r_[1.0, np.full(D, alpha1), np.full(len(pairs), alpha2)]
        else:
            raw = rng.integers(-10, 10, size=d) / 100.0
            scale = np.ones(d)
            scale[1:1 + D] = alpha1
            scale[1 + D] = alpha2
        theta = raw * scale
        top2 = np.sort(X @ theta)[-2:]
        if top2[1] - top2[0] >= min_gap:
            break
    else:  # pragma: no cover - probability ~0
        raise RuntimeError("could not draw weights with a gap of at least min_gap")
    return GaussianLinearBandit(X=X, theta=theta, sigma=sigma,
                                name=f"multivariate(D={D}, weights={weights})")


# ---------------------------------------------------------------------------------------------
# Real click data: the Open Bandit Dataset sample (stand-in for Yahoo! R6A)
# ---------------------------------------------------------------------------------------------

#: The folder of the click tables, shipped inside the package as ``bai/data/obd`` (found by
#: :mod:`bai.datasets` through ``importlib.resources``). Made by ``scripts/make_obd_data.py``.
CLICK_DATA_DIR = datasets.data_dir("obd")


@functools.lru_cache(maxsize=1)
def _click_tables():
    tables = datasets.obd_tables()
    users, items, arms = tables["users"], tables["items"], tables["arms"]
    theta = tables["theta"]["theta"].to_numpy(float)
    U = users[[c for c in users.columns if c[0] == "u" and c[1:].isdigit()]].to_numpy(float)
    A = items[[c for c in items.columns if c[0] == "a" and c[1:].isdigit()]].to_numpy(float)
    row = {iid: r for r, iid in enumerate(items["item_id"])}
    X = np.einsum("ni,nj->nij", U[arms["user_group"].to_numpy()],
                  A[arms["item_id"].map(row).to_numpy()]).reshape(len(arms), -1)
    if theta.size != X.shape[1]:
        raise ValueError(f"theta.csv has {theta.size} coefficients for {X.shape[1]} features")
    if not np.allclose((1.0 + X @ theta) / 2.0, arms["p_hat"].to_numpy(), rtol=0, atol=1e-9):
        raise ValueError("arms.csv's p_hat does not match the features and theta.csv")
    X.setflags(write=False)
    theta.setflags(write=False)
    return X, theta, arms


def click_data():
    r"""The committed click model: ``(X, theta_pm, arms)``.

    ``X`` (480, 36): features :math:`x=\mathrm{vec}(u\otimes a)` of the candidate arms (6 user
    groups x 80 items; ``x[0] = 1``); ``theta_pm`` (36,): the ridge fit (regulariser 0.01) of the
    target +1 (click) / -1 (no click) over the 20,000 records; ``arms``: a table with
    ``user_group``, ``item_id``, ``records``, ``clicks`` and the fitted click probability
    ``p_hat`` :math:`=(1+x^\top\theta_{pm})/2` of each candidate. See
    ``bai/data/obd/README.md`` (:func:`bai.datasets.data_file`).
    """
    X, theta, arms = _click_tables()
    return X, theta, arms.copy()


@constraints(ctr_scale="pos", rewards="choice")
def click_theta(ctr_scale: float = 10.0, rewards: str = "01") -> np.ndarray:
    r"""The 36-dimensional parameter of the click instances after the reward scaling.

    The mean reward of arm :math:`x` is the scaled click probability
    :math:`s\,\hat p(x)=s(1+x^\top\theta_{pm})/2`, linear in :math:`x` because
    :math:`x_0=1`: ``rewards="01"`` gives :math:`\theta=s(\theta_{pm}+e_0)/2` (rewards in
    {0, 1}); ``rewards="pm1"`` the parameter of the same model with rewards in {-1, +1}
    (mean :math:`2s\hat p-1`), :math:`s(\theta_{pm}+e_0)-e_0`, the scale of Xu et al.'s
    construction.
    """
    ctr_scale = check_positive(ctr_scale, "ctr_scale")
    _, theta, _ = _click_tables()
    e0 = np.zeros_like(theta)
    e0[0] = 1.0
    if rewards == "01":
        return ctr_scale * (theta + e0) / 2.0
    if rewards == "pm1":
        return ctr_scale * (theta + e0) - e0
    raise ValueError(f"rewards must be '01' or 'pm1', got {rewards!r}")


@constraints(ctr_scale="pos")
def click_candidates(ctr_scale: float = 10.0):
    """The candidate table of :func:`click_data` with the scaled mean reward ``mean``."""
    X, _, arms = click_data()
    arms["mean"] = X @ click_theta(ctr_scale)
    return arms


def _interval(pair, name: str) -> tuple[float, float]:
    """``(lo, hi)`` with ``0 <= lo < hi <= 1``, refused under the caller's ``name``."""
    try:
        lo, hi = (float(v) for v in pair)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a pair of numbers (lo, hi), got {pair!r}") from None
    if not 0.0 <= lo < hi <= 1.0:
        raise ValueError(f"{name} must be an interval (lo, hi) with 0 <= lo < hi <= 1, got "
                         f"{pair!r}")
    return lo, hi


#: The default range of the best arm's mean in :func:`click_instance`: Xu et al.'s (2018,
#: App. A; spec E3) threshold :math:`x^\top\theta\in(-0.88,1)` for the good arm, as a click
#: probability :math:`(1+x^\top\theta)/2`.
CLICK_BEST_RANGE = (0.06, 1.0)
#: The default range of the other arms' means in :func:`click_instance`: Xu et al.'s
#: :math:`x^\top\theta\in(-1,-0.93)`, as click probabilities. Every gap of an instance drawn with
#: the default ranges exceeds ``CLICK_BEST_RANGE[0] - CLICK_OTHER_RANGE[1]``.
CLICK_OTHER_RANGE = (0.0, 0.035)


@constraints(n_arms="count", rng="rng", ctr_scale="pos", gap="nonneg", reduce="bool",
             distinct="bool")
def click_instance(n_arms: int, rng, *, ctr_scale: float = 10.0,
                   best_range=CLICK_BEST_RANGE, other_range=CLICK_OTHER_RANGE, gap: float = 0.0,
                   reduce: bool = True, distinct: bool = True) -> BernoulliLinearBandit:
    r"""A Bernoulli linear bandit drawn from the Open Bandit Dataset click model.

    One arm is drawn uniformly from the candidates whose mean (the click probability
    :math:`\hat p` scaled by ``ctr_scale``) lies in the open interval ``best_range``, and
    ``n_arms - 1`` others uniformly without replacement from those with a mean in
    ``other_range`` and at most the first arm's mean minus ``gap``; the arms are then put in a
    random order. With ``distinct=True`` (default) the arms have pairwise distinct feature
    vectors: the data hold 480 candidates but only 330 distinct feature vectors, and two
    candidates with the same features are the same arm (their difference carries no
    information, and LinGapE's ratio rule is undefined for it). The defaults are Xu et al.'s (2018, App. A; spec E3) thresholds
    :math:`x^\top\theta\in(-0.88,1)` for the good arm and :math:`(-1,-0.93)` for the others,
    expressed as click probabilities :math:`(1+x^\top\theta)/2`: (0.06, 1) and (0, 0.035).

    Rewards are in {0, 1} with mean :math:`x^\top\theta`, ``theta = click_theta(ctr_scale)``.
    With ``reduce=True`` (default) the arms are written in an orthonormal basis of their span
    (dimension :math:`r\le\min(K,36)`): the means, the gaps, every
    :math:`\|x_i-x_j\|_{A^{-1}}` and :math:`\det A/\det\lambda I` of a ridge estimate with
    :math:`A=\lambda I+\sum x x^\top` are unchanged, so ridge-based algorithms behave exactly
    as in 36 dimensions; only :math:`\|\theta\|` shrinks (pass the 36-dimensional norm as
    ``S`` where the paper does). With ``reduce=False`` the 36-dimensional arms must span
    :math:`\mathbb R^{36}`.
    """
    n_arms = check_int(n_arms, "n_arms", minimum=2)
    check_rng(rng)
    gap = check_nonnegative(gap, "gap")
    reduce = check_bool(reduce, "reduce")
    distinct = check_bool(distinct, "distinct")
    (blo, bhi), (olo, ohi) = _interval(best_range, "best_range"), _interval(other_range,
                                                                             "other_range")
    X, _, _ = _click_tables()
    if not reduce and n_arms < X.shape[1]:
        raise ValueError(f"with reduce=False, n_arms = {n_arms} arms cannot span "
                         f"R^{X.shape[1]}: need n_arms >= {X.shape[1]} (or reduce=True)")
    theta = click_theta(ctr_scale)
    m = X @ theta
    eligible = np.ones(len(X), dtype=bool)
    if distinct:  # the first candidate of each distinct feature vector
        _, first = np.unique(X, axis=0, return_index=True)
        eligible[:] = False
        eligible[first] = True
    good = np.flatnonzero(eligible & (m > blo) & (m < bhi))
    if good.size == 0:
        raise ValueError(f"no candidate has a mean in {best_range} at ctr_scale = {ctr_scale}")
    best = int(rng.choice(good))
    pool = np.flatnonzero(eligible & (m > olo) & (m < ohi) & (m <= m[best] - gap))
    pool = pool[pool != best]
    if distinct:  # not a copy of the best arm either
        pool = pool[np.any(X[pool] != X[best], axis=1)]
    if pool.size < n_arms - 1:
        raise ValueError(f"n_arms = {n_arms} is too many: only {pool.size} candidates qualify "
                         f"as other arms (other_range = {other_range}, gap = {gap:g}), and "
                         f"n_arms - 1 = {n_arms - 1} are needed")
    others = rng.choice(pool, size=n_arms - 1, replace=False)
    idx = rng.permutation(np.concatenate([[best], others]))
    Xk = X[idx]
    if reduce:
        _, sv, Vt = np.linalg.svd(Xk, full_matrices=False)
        r = int(np.sum(sv > 1e-10 * sv[0]))
        V = Vt[:r].T
        Xk, theta = Xk @ V, V.T @ theta
    return BernoulliLinearBandit(
        X=Xk, theta=theta,
        name=f"click(K={n_arms}, ctr_scale={ctr_scale:g}, candidates={','.join(map(str, idx))})")


@constraints(d="count", sigma="pos")
def prop1_instance(d: int, *, angle: float = 0.1, sigma: float = 1.0) -> GaussianLinearBandit:
    r"""The instance of Fiez et al. (2019), Prop. 1 (static allocations lose a factor :math:`d`).

    For even ``d``, :math:`\mathcal X=\mathcal Z=\{e_i\}_{i\le d/2}\cup\{\cos\alpha\,e_i+\sin\alpha\,
    e_{d/2+i}\}_{i\le d/2}` (``angle`` :math:`\alpha`), with :math:`\theta^*=e_1`: arm 0 is best and
    arm ``d // 2`` its close competitor (gap :math:`1-\cos\alpha`). The proposition's
    worst case is over :math:`\theta^*\in\{e_j\}`; a static design must serve all of them.
    """
    X, theta = _paired_angles(d, angle)
    return GaussianLinearBandit(X=X, theta=theta, sigma=sigma, name=f"prop1(d={d}, angle={angle})")


# ---------------------------------------------------------------------------------------------
# Wu, Zheng, Zhu (BAICS): the two examples of Sec. 5
# ---------------------------------------------------------------------------------------------

from .environments import SubpopulationGaussian  # noqa: E402

__all__ += ["baics_e1", "baics_e2", "baics_example", "BAICS_EXAMPLES"]


@constraints(M="count0")
def baics_e1(M: int = 3) -> SubpopulationGaussian:
    r"""Example 1 of Wu, Zheng, Zhu (BAICS), Sec. 5.1 (Table 1, Figure 1).

    :math:`K=3` arms, :math:`L=3` subpopulations, :math:`\mathbf q=(0.2,0.3,0.5)`, unit-variance
    Gaussian cells. Qualities :math:`(0.62,0.35,1.01)`; arm 3 (the best by quality) is infeasible
    on subpopulation 1, so :math:`k^*` is arm 1 (index 0). The paper does not state ``M``, the
    number of constrained subpopulations: **ASSUMED** ``M = 3`` (every negative mean sits in
    subpopulation 1, so ``M`` changes neither :math:`k^*` nor :math:`T^*`).
    """
    return SubpopulationGaussian([[0.2, 0.6, 0.8], [0.4, 0.4, 0.3], [-0.2, 1.0, 1.5]],
                                 [0.2, 0.3, 0.5], M=M, name="E1 (Sec. 5.1)")


@constraints(M="count0")
def baics_e2(M: int = 3) -> SubpopulationGaussian:
    r"""Example 2 of Wu, Zheng, Zhu (BAICS), Sec. 5.2 (Figure 2).

    :math:`K=4` arms, :math:`L=3` subpopulations, :math:`\mathbf q` uniform. Arms 1 and 2 tie for
    the highest quality; arms 1 and 4 are infeasible on subpopulation 1, and the feasible arm 3 is
    close behind arm 2, the best feasible arm (index 1). ``M`` as in :func:`baics_e1`.
    """
    return SubpopulationGaussian([[-0.2, 0.4, 1.2], [0.2, 0.6, 0.6], [0.3, 0.3, 0.6],
                                  [-0.6, 0.8, 0.4]], [1 / 3, 1 / 3, 1 / 3], M=M,
                                 name="E2 (Sec. 5.2)")


#: The examples of Sec. 5 by name.
BAICS_EXAMPLES = {"E1": baics_e1, "E2": baics_e2}


@constraints(name="choice", M="count0")
def baics_example(name: str, M: int = 3) -> SubpopulationGaussian:
    """The example of Sec. 5 called ``name`` (``"E1"`` or ``"E2"``): see :func:`baics_e1`."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}")
    if name not in BAICS_EXAMPLES:
        raise ValueError(f"name must be one of {list(BAICS_EXAMPLES)}, got {name!r}")
    return BAICS_EXAMPLES[name](M)


# ---------------------------------------------------------------------------------------------
# Tirinzoni & Degenne (2022): the linear instances of Table 1 and Figure 1
# ---------------------------------------------------------------------------------------------

__all__ += ["td22_table1", "td22_figure1", "TD22_QUERIES"]

#: The queries of Table 1 (Tirinzoni & Degenne 2022) and the instance construction each uses:
#: best arm and top-m share one construction, thresholding (sign identification) has its own.
TD22_QUERIES = {"bai": "bai", "topm": "bai", "osi": "osi"}


def _unit_uniform(rng, d: int) -> np.ndarray:
    """``2 U[0,1)^d - 1`` normalised to unit norm (the code's ``v ./= norm(v)``)."""
    v = 2.0 * rng.random(d) - 1.0
    return v / np.linalg.norm(v)


@constraints(rng="rng", query="choice", d="count", K="count", sigma="pos")
def td22_table1(rng, *, query: str = "bai", d: int = 20, K: int = 50,
                sigma: float = 1.0) -> GaussianLinearBandit:
    r"""An instance of Table 1 of Tirinzoni & Degenne (2022), drawn as their code draws it.

    The construction of ``experiments/linear_bai.jl`` / ``linear_topm.jl`` (``query="bai"`` or
    ``"topm"``) and ``linear_osi.jl`` (``query="osi"``), with ``m = d/2`` canonical arms
    :math:`e_1..e_m` first:

    * best arm and top-m: :math:`\theta_1=1`, :math:`\theta_2..\theta_{m/2}=0.9`,
      :math:`\theta_{m/2+1}..\theta_m=0.8`, :math:`\theta_{m+1}..\theta_d\sim U[-1,0]` (the
      code's comment says U[-0.5, 0.5]; its line ``rand(rng, d-mid) .- 1`` draws U[-1, 0]);
      the other ``K - m`` arms are unit vectors :math:`v/\|v\|`, :math:`v\sim U[-1,1]^d`, redrawn
      until :math:`v^\top\theta\le0.5`. Means: 1, 0.9 (x4), 0.8 (x5), then at most 0.5: the
      best-arm gap and the top-5 gap are both 0.1.
    * thresholding (threshold 0): :math:`\theta_1..\theta_m\sim\pm U[0.1,0.2]` (random signs),
      :math:`\theta_{m+1}..\theta_d\sim U[-1,0]`; the other arms unit vectors redrawn until
      :math:`|v^\top\theta|\ge0.5`.

    ``rng`` replaces Julia's ``MersenneTwister(123)``: the draws follow the code's order (the
    tail of :math:`\theta`, then the arms by rejection) but not its bits, so an instance is *a*
    draw of the construction, not the paper's (spec P7).
    """
    rng = check_rng(rng)
    if query not in TD22_QUERIES:
        raise ValueError(f"query must be one of {sorted(TD22_QUERIES)}, got {query!r}")
    d = check_int(d, "d", minimum=4)
    K = check_int(K, "K", minimum=d // 2 + 1)
    mid = -(-d // 2)
    arms = [np.eye(d)[k] for k in range(mid)]
    theta = np.zeros(d)
    if TD22_QUERIES[query] == "bai":
        theta[0] = 1.0
        theta[1:mid // 2] = 0.9
        theta[mid // 2:mid] = 0.8
        theta[mid:] = rng.random(d - mid) - 1.0
        while len(arms) < K:
            v = _unit_uniform(rng, d)
            while v @ theta > 0.5:
                v = _unit_uniform(rng, d)
            arms.append(v)
    else:
        theta[:mid] = rng.random(mid) * 0.1 + 0.1
        theta[:mid] *= np.sign(2.0 * rng.random(mid) - 1.0)
        theta[mid:] = rng.random(d - mid) - 1.0
        while len(arms) < K:
            v = _unit_uniform(rng, d)
            while abs(v @ theta) < 0.5:
                v = _unit_uniform(rng, d)
            arms.append(v)
    return GaussianLinearBandit(X=np.array(arms), theta=theta, sigma=sigma,
                                name=f"td22-table1({query}, K={K}, d={d})")


@constraints(rng="rng", K="count", sigma="pos")
def td22_figure1(rng, *, d: int = 10, K: int = 50, sigma: float = 1.0) -> GaussianLinearBandit:
    r"""The instance of Figure 1 of Tirinzoni & Degenne (2022), drawn as their code draws it
    (``experiments/linear_bai_elim.jl``, ``linear_bai_delta.jl``).

    :math:`\theta=\mathbf 1\in\mathbb R^{10}`, arm 1 is :math:`e_1` (mean 1); then, while fewer
    than ``K`` arms exist, a unit vector :math:`u\in\mathbb R^3` (:math:`u\sim U[-1,1]^3`
    normalised, redrawn until :math:`0\le\sum u\le0.8`) is copied into coordinates 2-4, 5-7 and
    8-10, giving three arms of equal mean :math:`\sum u`. Arms come in threes after the first,
    so the loop stops at **52 arms** for ``K = 50`` (spec P5; the figure's caption says 50).
    """
    rng = check_rng(rng)
    d = check_int(d, "d", minimum=10)
    if d != 10:
        raise ValueError(f"d must be 10 (the construction fills coordinates 2-10 in three "
                         f"blocks of 3), got {d}")
    K = check_int(K, "K", minimum=2)
    theta = np.ones(d)
    arms = [np.eye(d)[0]]
    while len(arms) < K:
        while True:
            u = 2.0 * rng.random(3) - 1.0
            u /= np.linalg.norm(u)
            if 0.0 <= u.sum() <= 0.8:
                break
        for start in (1, 4, 7):
            v = np.zeros(d)
            v[start:start + 3] = u
            arms.append(v)
    return GaussianLinearBandit(X=np.array(arms), theta=theta, sigma=sigma,
                                name=f"td22-figure1(K={len(arms)}, d={d})")
