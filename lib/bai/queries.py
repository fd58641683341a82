r"""Pure-exploration queries: the question a run answers about :math:`\theta`, and the
alternative of each answer as a finite union of half-spaces ("pieces").

Setting: arms :math:`x_1..x_K\in\mathbb R^d`, items :math:`z_1..z_M` (the answers are about
the values :math:`z_m^\top\theta`; :math:`\mathcal Z=\mathcal X` outside the transductive
setting), Gaussian rewards :math:`x_a^\top\theta+\mathcal N(0,\sigma^2)`.

Wang, Tzeng & Proutière (2021, Assumption 1) and Tirinzoni & Degenne (2022, Assumption 2.1)
write every query of this module the same way: the set of parameters whose answer is not
:math:`i`, :math:`\mathrm{Alt}(i)=\{\lambda: i^*(\lambda)\ne i\}`, is a finite union of
**pieces**, here half-spaces

.. math:: \Lambda_p(i)=\{\lambda:\ a_p^\top\lambda\le b_p\},\qquad p\in\mathcal P(i),

with the parameter on the other side (:math:`a_p^\top\theta>b_p` when :math:`i` is the answer of
:math:`\theta`). Everything a sampling or stopping rule needs follows in closed form, each
formula written once (:func:`piece_glr`, :func:`closest_point`, :func:`piece_gradient`): with
:math:`g_p=a_p^\top\theta-b_p` (the piece's *gap*) and :math:`s_p=\|a_p\|^2_{A^{-1}}`,

* the GLR (log-likelihood ratio) of the piece, :math:`\inf_{\lambda\in\Lambda_p}
  \frac1{2\sigma^2}\|\theta-\lambda\|^2_A=\frac{\max(g_p,0)^2}{2\sigma^2s_p}` (Tirinzoni &
  Degenne 2022, Sec. 2, with the factor 1/2 their code has and their text lacks, spec pitfall P3);
* the closest point :math:`\lambda_p=\theta-\frac{g_p}{s_p}A^{-1}a_p` (Wang et al. 2021, Eq. 12);
* the gradient of the piece's value in the weights :math:`w` of :math:`A(w)=\sum_kw_kx_kx_k^\top`
  (envelope theorem, Wang et al. 2021, Prop. 1):
  :math:`\partial_{w_k}=\frac1{2\sigma^2}(x_k^\top(\theta-\lambda_p))^2
  =\frac1{2\sigma^2}\big(\frac{g_p}{s_p}\big)^2(x_k^\top A^{-1}a_p)^2`.

**Queries** (:class:`BestArm`, :class:`TopM`, :class:`Thresholding`):

* best arm, transductive (:math:`i^*=\arg\max_mz_m^\top\theta`), and with :math:`\varepsilon>0`
  the :math:`\varepsilon`-good answers: pieces :math:`j\ne i` with :math:`a=z_i-z_j`,
  :math:`b=-\varepsilon` (the alternative where :math:`z_j` beats :math:`z_i` by more than
  :math:`\varepsilon`); :math:`M-1` pieces;
* top-:math:`m` (the set :math:`S` of the :math:`m` largest values; Tirinzoni & Degenne 2022,
  Sec. 4; Réda, Kaufmann & Delahaye-Duriez 2021): pieces :math:`(i\in S,j\notin S)` with
  :math:`a=z_i-z_j`, :math:`b=0`; :math:`m(M-m)` pieces;
* thresholding / online sign identification (which items lie above :math:`\tau`; Wang et al.
  2021, linear thresholding; Tirinzoni & Degenne 2022 with :math:`\tau=0`): piece :math:`k` is
  item :math:`k` on the other side of :math:`\tau`, :math:`a=\pm z_k`, :math:`b=\pm\tau`;
  :math:`M` pieces.

**Half-spaces.** Every piece of every answer is one of the query's finitely many half-spaces,
numbered once (``h``; :func:`halfspace`): ordered pairs :math:`(i,j)` as ``h = i M + j`` for
the best-arm and top-m queries, and ``h = 2k`` (item above) / ``2k+1`` (item below) for
thresholding. The elimination rules of Tirinzoni & Degenne (2022) remember eliminated
half-spaces by this number.

**Lower bound.** :math:`T^*(\theta)^{-1}=\max_w\min_{p\in\mathcal P(i^*)}
\frac{g_p^2}{2\sigma^2\|a_p\|^2_{A(w)^{-1}}}`, so with :math:`y_p=a_p/g_p`,
:math:`T^*=2\sigma^2\min_w\max_p\|y_p\|^2_{A(w)^{-1}}`: the design problem that
:func:`bai.designs.solve_design` solves (:meth:`Query.t_star`). With several correct answers
(:math:`\varepsilon>0`), the bound of Degenne & Koolen (2019) takes the easiest correct answer:
:math:`T^*=\min_{i\ \text{correct}}T^*_i`.

**Compiled encoding.** A query is an integer kind, an integer and a float parameter and the
item matrix; :func:`answer_code` computes the answer of values :math:`Z\theta` as an integer
vector (the item for the best arm, the sorted members for top-m, one 0/1 per item for
thresholding) and :func:`piece_halfspaces` lists the half-spaces of an answer, so that compiled
rules rebuild the pieces when the empirical answer changes.
"""

from __future__ import annotations

import math
import numbers

import numba
import numpy as np

from .validation import as_matrix, as_vector, check_int, check_positive
from .validation import constraints

__all__ = ["Query", "BestArm", "TopM", "Thresholding", "as_query", "piece_glr", "closest_point",
           "piece_gradient", "halfspace", "answer_code", "piece_halfspaces",
           "expected_time_lower_bound", "KIND_BEST_ARM", "KIND_TOP_M", "KIND_THRESHOLDING"]

#: the compiled kinds of query
KIND_BEST_ARM, KIND_TOP_M, KIND_THRESHOLDING = 0, 1, 2


# ---------------------------------------------------------------------------------------------
# The formulas, each written once (compiled; also called from Python)
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True, error_model="numpy", inline="always")
def piece_glr(gap, s, sigma2):
    r"""The GLR of one piece, :math:`\max(g,0)^2/(2\sigma^2s)` (module docstring): ``gap`` is
    :math:`g_p=a_p^\top\theta-b_p`, ``s`` is :math:`\|a_p\|^2_{A^{-1}}`. 0 when the parameter
    is not strictly outside the piece; ``inf`` when :math:`s\le0` (a zero normal: no
    information can separate the two sides)."""
    if gap <= 0.0:
        return 0.0
    if s <= 0.0:
        return np.inf
    return gap * gap / (2.0 * sigma2 * s)


@numba.njit(cache=True, error_model="numpy")
def closest_point(theta, gap, s, Ainv_a, out):
    r"""The closest point of the piece to :math:`\theta` in :math:`\|\cdot\|_A`,
    :math:`\lambda_p=\theta-(g_p/s_p)A^{-1}a_p` (Wang et al. 2021, Eq. 12), written into
    ``out``; ``Ainv_a`` is :math:`A^{-1}a_p`. :math:`\lambda_p=\theta` when :math:`g_p\le0`."""
    c = gap / s if gap > 0.0 and s > 0.0 else 0.0
    for i in range(theta.shape[0]):
        out[i] = theta[i] - c * Ainv_a[i]
    return out


@numba.njit(cache=True, error_model="numpy", inline="always")
def piece_gradient(gap, s, x_Ainv_a, sigma2):
    r"""The derivative of the piece's value in the weight of an arm :math:`x`,
    :math:`\frac1{2\sigma^2}(g_p/s_p)^2(x^\top A^{-1}a_p)^2` (envelope theorem; Wang et al.
    2021, Prop. 1); ``x_Ainv_a`` is :math:`x^\top A^{-1}a_p`. 0 when :math:`g_p\le0`."""
    if gap <= 0.0 or s <= 0.0:
        return 0.0
    c = gap / s
    return 0.5 * c * c * x_Ainv_a * x_Ainv_a / sigma2


# ---------------------------------------------------------------------------------------------
# Compiled encoding: answers and half-spaces
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def halfspace(kind, x, M, h):
    r"""Half-space ``h`` of a query as ``(i, j, sign, b)``: normal
    :math:`a=\mathrm{sign}\,(z_i-z_j)` (:math:`z_{-1}=0`) and offset :math:`b`
    (module docstring)."""
    if kind == KIND_THRESHOLDING:
        k = h // 2
        if h % 2 == 0:
            return k, -1, 1.0, x
        return k, -1, -1.0, -x
    b = -x if kind == KIND_BEST_ARM else 0.0
    return h // M, h % M, 1.0, b


@numba.njit(cache=True)
def n_halfspaces(kind, M):
    """Number of half-spaces of a query with ``M`` items (module docstring)."""
    return 2 * M if kind == KIND_THRESHOLDING else M * M


@numba.njit(cache=True)
def answer_size(kind, m, M):
    """Length of an answer's code: 1 (best arm), ``m`` (top-m), ``M`` (thresholding)."""
    if kind == KIND_BEST_ARM:
        return 1
    if kind == KIND_TOP_M:
        return m
    return M


@numba.njit(cache=True)
def max_pieces(kind, m, M):
    """Pieces of one answer: ``M - 1``, ``m (M - m)`` or ``M``."""
    if kind == KIND_BEST_ARM:
        return M - 1
    if kind == KIND_TOP_M:
        return m * (M - m)
    return M


@numba.njit(cache=True)
def ranks_before(v, i, j):
    """True when item ``i`` ranks before item ``j``: a larger value, or an equal value and a
    smaller index (the order of every top-m answer)."""
    return v[i] > v[j] or (v[i] == v[j] and i < j)


@numba.njit(cache=True)
def answer_code(kind, m, x, v, code):
    r"""The answer of the values ``v`` :math:`=Z\theta`, written into ``code``: the first
    maximiser (best arm; the :math:`\varepsilon`-good answer recommended is the empirical best);
    the ``m`` first items in the order of decreasing value then increasing index, sorted by
    index (top-m); 1 for the items with :math:`z_k^\top\theta>\tau` (thresholding). Returns
    True when ``code`` changed."""
    M = v.shape[0]
    changed = False
    if kind == KIND_BEST_ARM:
        b = 0
        for i in range(M):
            if v[i] > v[b]:
                b = i
        changed = code[0] != b
        code[0] = b
    elif kind == KIND_TOP_M:
        q = 0
        for i in range(M):
            before = 0
            for j in range(M):
                if j != i and ranks_before(v, j, i):
                    before += 1
                    if before >= m:
                        break
            if before < m:
                if code[q] != i:
                    changed = True
                code[q] = i
                q += 1
    else:
        for k in range(M):
            c = 1 if v[k] > x else 0
            if code[k] != c:
                changed = True
            code[k] = c
    return changed


@numba.njit(cache=True)
def is_answer(kind, m, x, v, code):
    """True when ``code`` is the answer of ``v`` (:func:`answer_code`), in O(M)."""
    M = v.shape[0]
    if kind == KIND_BEST_ARM:
        b = code[0]
        for i in range(M):
            if v[i] > v[b] or (v[i] == v[b] and i < b):
                return False
        return True
    if kind == KIND_TOP_M:
        # the worst member must rank before the best non-member
        lo = code[0]
        for q in range(1, m):
            if ranks_before(v, lo, code[q]):
                lo = code[q]
        q = 0
        for i in range(M):
            if q < m and code[q] == i:
                q += 1
                continue
            if not ranks_before(v, lo, i):
                return False
        return True
    for k in range(M):
        if (1 if v[k] > x else 0) != code[k]:
            return False
    return True


@numba.njit(cache=True)
def piece_halfspaces(kind, m, M, code, out):
    """The half-spaces (:func:`halfspace` numbers) of the pieces of the answer ``code``, written
    into ``out``; returns their number. Order: the other items by index (best arm); members by
    index, then non-members by index (top-m); items by index (thresholding)."""
    P = 0
    if kind == KIND_BEST_ARM:
        b = code[0]
        for j in range(M):
            if j != b:
                out[P] = b * M + j
                P += 1
    elif kind == KIND_TOP_M:
        member = np.zeros(M, dtype=np.bool_)
        for q in range(m):
            member[code[q]] = True
        for q in range(m):
            i = code[q]
            for j in range(M):
                if not member[j]:
                    out[P] = i * M + j
                    P += 1
    else:
        for k in range(M):
            out[P] = 2 * k if code[k] == 1 else 2 * k + 1
            P += 1
    return P


@numba.njit(cache=True)
def halfspace_gap(kind, x, v, h):
    r""":math:`a_h^\top\theta-b_h` from the values ``v`` :math:`=Z\theta`."""
    i, j, sg, b = halfspace(kind, x, v.shape[0], h)
    vj = v[j] if j >= 0 else 0.0
    return sg * (v[i] - vj) - b


@numba.njit(cache=True)
def halfspace_vector(kind, x, Z, h, out):
    """The normal :math:`a_h` into ``out``."""
    i, j, sg, b = halfspace(kind, x, Z.shape[0], h)
    for r in range(Z.shape[1]):
        zj = Z[j, r] if j >= 0 else 0.0
        out[r] = sg * (Z[i, r] - zj)
    return out


# ---------------------------------------------------------------------------------------------
# Python side
# ---------------------------------------------------------------------------------------------


def _tol(v: np.ndarray) -> float:
    """Values closer than this are a tie (the tolerance of :func:`bai.algorithms.glr.check_env`)."""
    return 1e-12 * max(1.0, float(np.abs(v).max()))


@constraints(Z="matrix")
class Query:
    """Base class of the queries (module docstring). A query is bound to its items ``Z`` (the
    rules bind it to ``env.Z``: :meth:`bind`); its answers are Python values (an item index, a
    tuple of indices, a tuple of booleans) and their compiled codes (:meth:`code`).

    Subclasses set :attr:`kind` and define ``_params``, ``_check_tie``,
    :meth:`decode` and :meth:`describe`.
    """

    #: the compiled kind (:data:`KIND_BEST_ARM`, ...)
    kind: int = -1
    #: short name used in tables
    name: str = "query"

    def __init__(self, Z=None):
        self._Z = None if Z is None else as_matrix(Z, "Z", min_rows=2)

    # -- items ---------------------------------------------------------------------------------
    @property
    def Z(self) -> np.ndarray:
        """The items (``(M, d)``); an error until the query is bound (:meth:`bind`)."""
        if self._Z is None:
            raise ValueError(f"{self!r} is not bound to items: use query.bind(Z) (the rules "
                             "bind it to env.Z)")
        return self._Z

    @property
    def M(self) -> int:
        """Number of items."""
        return int(self.Z.shape[0])

    def bind(self, Z) -> "Query":
        """A copy of the query on the items ``Z`` (``(M, d)``)."""
        Z = as_matrix(Z, "Z", min_rows=2)
        out = object.__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._Z = Z
        out._validate_items()
        return out

    def _validate_items(self) -> None:
        """Checks between the parameters and the number of items (subclasses)."""

    # -- encoding ------------------------------------------------------------------------------
    def _params(self) -> tuple:
        """``(m, x)``: the integer and float parameters of the compiled encoding."""
        raise NotImplementedError

    def encoding(self) -> tuple:
        """``(kind, m, x)``: the compiled encoding (with :attr:`Z`)."""
        m, x = self._params()
        return int(self.kind), int(m), float(x)

    @property
    def answer_size(self) -> int:
        """Length of an answer's code."""
        return int(answer_size(self.kind, self._params()[0], self.M))

    @property
    def max_pieces(self) -> int:
        """Number of pieces of each answer."""
        return int(max_pieces(self.kind, self._params()[0], self.M))

    @property
    def n_halfspaces(self) -> int:
        """Number of the query's half-spaces (:func:`halfspace`)."""
        return int(n_halfspaces(self.kind, self.M))

    def code(self, answer) -> np.ndarray:
        """The compiled code of an answer (``(answer_size,)`` int64)."""
        raise NotImplementedError

    def decode(self, code):
        """The answer of a compiled code (inverse of :meth:`code`)."""
        raise NotImplementedError

    # -- answers -------------------------------------------------------------------------------
    def _values(self, theta) -> np.ndarray:
        theta = as_vector(theta, "theta", size=self.Z.shape[1])
        return self.Z @ theta

    def empirical_answer(self, theta):
        """The answer of ``theta`` with ties broken by index (what the rules recommend; no error
        on ties)."""
        v = self._values(theta)
        m, x = self._params()
        code = np.full(self.answer_size, -1, dtype=np.int64)
        answer_code(self.kind, m, x, v, code)
        return self.decode(code)

    def answer(self, theta):
        """The correct answer of ``theta``; a ``ValueError`` naming ``theta`` when its values
        tie where the answer is decided (the answer is then not unique and :math:`T^*`
        infinite)."""
        v = self._values(theta)
        self._check_tie(v)
        return self.empirical_answer(theta)

    def _check_tie(self, v: np.ndarray) -> None:
        raise NotImplementedError

    def is_correct(self, answer, theta) -> bool:
        """Whether ``answer`` is correct for ``theta`` (the exact answer; any
        :math:`\\varepsilon`-good item for :class:`BestArm` with ``eps > 0``)."""
        return self.code(answer).tolist() == self.code(self.empirical_answer(theta)).tolist()

    def correct_answers(self, theta) -> list:
        """Every correct answer of ``theta`` (one, except :math:`\\varepsilon`-good answers)."""
        return [self.answer(theta)]

    # -- pieces --------------------------------------------------------------------------------
    def halfspaces(self, answer) -> np.ndarray:
        """The half-space numbers (:func:`halfspace`) of the pieces of ``answer``."""
        code = self.code(answer)
        out = np.empty(self.max_pieces, dtype=np.int64)
        P = piece_halfspaces(self.kind, self._params()[0], self.M, code, out)
        return out[:P]

    def pieces(self, answer) -> tuple:
        r"""The alternative of ``answer`` as pieces :math:`\{\lambda: a_p^\top\lambda\le b_p\}`:
        ``(A, b)`` with ``A`` of shape ``(P, d)`` and ``b`` of shape ``(P,)``."""
        m, x = self._params()
        H = self.halfspaces(answer)
        A = np.empty((len(H), self.Z.shape[1]))
        b = np.empty(len(H))
        for p, h in enumerate(H):
            halfspace_vector(self.kind, x, self.Z, h, A[p])
            b[p] = halfspace(self.kind, x, self.M, h)[3]
        return A, b

    def all_directions(self) -> np.ndarray:
        """The normals of every half-space, up to sign and without repeats: the directions of
        the XY-static design of the query (pairwise differences of the items, or the items)."""
        if self.kind == KIND_THRESHOLDING:
            return self.Z.copy()
        Z = self.Z
        i, j = np.triu_indices(self.M, k=1)
        return Z[i] - Z[j]

    def piece_glrs(self, answer, theta, Vinv, sigma: float = 1.0) -> np.ndarray:
        r"""The GLR of every piece of ``answer`` at ``theta`` under the metric ``V``
        (``Vinv`` :math:`=V^{-1}`): :func:`piece_glr` of each piece."""
        sigma = check_positive(sigma, "sigma")
        theta = as_vector(theta, "theta", size=self.Z.shape[1])
        Vinv = as_matrix(Vinv, "Vinv", n_cols=self.Z.shape[1])
        if Vinv.shape[0] != Vinv.shape[1]:
            raise ValueError(f"Vinv must be square, got shape {Vinv.shape}")
        _check_pd(Vinv, "Vinv")
        A, b = self.pieces(answer)
        gaps = A @ theta - b
        s = np.einsum("pi,ij,pj->p", A, Vinv, A)
        return np.array([piece_glr(g, si, sigma * sigma) for g, si in zip(gaps, s)])

    def glr(self, theta, V, sigma: float = 1.0) -> tuple:
        r"""``(answer, Lambda)``: the empirical answer of ``theta`` and the GLR of ``theta``
        against its alternative under ``V``,
        :math:`\Lambda=\min_p\max(g_p,0)^2/(2\sigma^2\|a_p\|^2_{V^{-1}})` (0 on a tie)."""
        V = as_matrix(V, "V", n_cols=self.Z.shape[1])
        if V.shape[0] != V.shape[1] or np.linalg.matrix_rank(V) < V.shape[0]:
            raise ValueError("V must be an invertible square matrix")
        _check_pd(V, "V")
        a = self.empirical_answer(theta)
        g = self.piece_glrs(a, theta, np.linalg.inv(V), sigma)
        return a, float(g.min()) if len(g) else math.inf

    # -- lower bound ---------------------------------------------------------------------------
    def _directions(self, answer, theta) -> np.ndarray:
        """:math:`y_p=a_p/g_p` of the pieces of ``answer`` (every gap positive)."""
        A, b = self.pieces(answer)
        g = A @ theta - b
        if np.any(g <= _tol(self._values(theta))):
            raise ValueError(f"theta lies on the boundary of a piece of the answer {answer!r}: "
                             "T* is infinite")
        return A / g[:, None]

    def oracle_design(self, X, theta, **design_kw):
        r"""The optimal allocation :math:`w^*(\theta)` over the pieces of the (easiest) correct
        answer: a :class:`bai.designs.DesignResult` whose ``value`` is
        :math:`\min_w\max_p\|y_p\|^2_{A(w)^{-1}}` (:func:`bai.designs.solve_design`)."""
        from .designs import solve_design

        X = as_matrix(X, "X", n_cols=self.Z.shape[1])
        theta = as_vector(theta, "theta", size=self.Z.shape[1])
        if self.kind == KIND_BEST_ARM and self.eps == 0:
            from .designs import oracle_design
            self._check_tie(self._values(theta))
            return oracle_design(X, theta, self.Z, **design_kw)
        best = None
        for a in self.correct_answers(theta):
            try:
                Y = self._directions(a, theta)
            except ValueError:
                continue
            res = solve_design(X, Y, **design_kw)
            if best is None or res.value < best.value:
                best = res
        if best is None:
            raise ValueError("theta: no correct answer is strictly inside its region (T* is "
                             "infinite)")
        return best

    def t_star(self, X, theta, sigma: float = 1.0, **design_kw) -> float:
        r""":math:`T^*(\theta)=2\sigma^2\min_w\max_p\|y_p\|^2_{A(w)^{-1}}` over the pieces of the
        correct answer (module docstring; the smallest over the correct answers when there are
        several), so that :math:`\mathbb E[\tau]\ge T^*\mathrm{kl}(\delta,1-\delta)`."""
        sigma = check_positive(sigma, "sigma")
        return 2.0 * sigma**2 * self.oracle_design(X, theta, **design_kw).value

    def __repr__(self) -> str:
        return self.describe()

    def describe(self) -> str:
        """A short description (tables, error messages)."""
        raise NotImplementedError


@constraints(eps="nonneg", Z="matrix")
class BestArm(Query):
    r"""Best-arm (best-item) identification, transductive, and with ``eps > 0`` the
    :math:`\varepsilon`-good answers: any item within ``eps`` of the best is correct, the rules
    recommend the empirical best (module docstring)."""

    kind = KIND_BEST_ARM
    name = "best arm"

    def __init__(self, eps: float = 0.0, Z=None):
        if isinstance(eps, bool) or not isinstance(eps, numbers.Real) or not math.isfinite(eps) \
                or eps < 0:
            raise ValueError(f"eps must be a finite number >= 0, got {eps!r}")
        self.eps = float(eps)
        super().__init__(Z)

    def _params(self):
        return 0, self.eps

    def code(self, answer):
        if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, numbers.Integral) \
                or not 0 <= answer < self.M:
            raise ValueError(f"answer must be an item index in 0..{self.M - 1}, got {answer!r}")
        return np.array([int(answer)], dtype=np.int64)

    def decode(self, code):
        return int(code[0])

    def _check_tie(self, v):
        if self.eps > 0:
            return
        b = int(np.argmax(v))
        if np.any(np.delete(v, b) >= v[b] - _tol(v)):
            raise ValueError("theta gives two items the best value: the best answer is not "
                             "unique (T* is infinite)")

    def is_correct(self, answer, theta) -> bool:
        v = self._values(theta)
        return bool(v[int(self.code(answer)[0])] >= v.max() - self.eps)

    def correct_answers(self, theta) -> list:
        if self.eps == 0:
            return [self.answer(theta)]
        v = self._values(theta)
        return [int(i) for i in np.flatnonzero(v >= v.max() - self.eps)]

    def describe(self):
        return "BestArm()" if self.eps == 0 else f"BestArm(eps={self.eps:g})"


@constraints(m="count", Z="matrix")
class TopM(Query):
    """Top-m identification: the set of the ``m`` items of largest value (module docstring);
    answers are sorted tuples of item indices."""

    kind = KIND_TOP_M
    name = "top-m"

    def __init__(self, m: int, Z=None):
        self.m = check_int(m, "m", minimum=1)
        super().__init__(Z)
        if self._Z is not None:
            self._validate_items()

    def _validate_items(self):
        if self.m >= self.M:
            raise ValueError(f"m must be smaller than the number of items {self.M}, got {self.m}")

    def _params(self):
        return self.m, 0.0

    def code(self, answer):
        try:
            a = sorted(int(i) for i in answer)
        except (TypeError, ValueError):
            raise ValueError(f"answer must be a set of {self.m} item indices, got {answer!r}") \
                from None
        if len(set(a)) != self.m or a[0] < 0 or a[-1] >= self.M:
            raise ValueError(f"answer must be {self.m} distinct item indices in 0..{self.M - 1}, "
                             f"got {answer!r}")
        return np.array(a, dtype=np.int64)

    def decode(self, code):
        return tuple(int(i) for i in code)

    def _check_tie(self, v):
        s = np.sort(v)[::-1]
        if s[self.m - 1] - s[self.m] <= _tol(v):
            raise ValueError(f"theta gives the {self.m}-th and the {self.m + 1}-th items the "
                             "same value: the top-m answer is not unique (T* is infinite)")

    def describe(self):
        return f"TopM(m={self.m})"


@constraints(tau="real", Z="matrix")
class Thresholding(Query):
    r"""Thresholding (sign identification): which items have :math:`z_k^\top\theta>\tau`
    (module docstring); answers are tuples of booleans, one per item."""

    kind = KIND_THRESHOLDING
    name = "thresholding"

    def __init__(self, tau: float = 0.0, Z=None):
        if isinstance(tau, bool) or not isinstance(tau, numbers.Real) or not math.isfinite(tau):
            raise ValueError(f"tau must be a finite number, got {tau!r}")
        self.tau = float(tau)
        super().__init__(Z)

    def _params(self):
        return 0, self.tau

    def code(self, answer):
        try:
            a = [bool(s) for s in answer]
        except TypeError:
            raise ValueError(f"answer must be {self.M} booleans, got {answer!r}") from None
        if len(a) != self.M:
            raise ValueError(f"answer must be {self.M} booleans (one per item), got {len(a)}")
        return np.array(a, dtype=np.int64)

    def decode(self, code):
        return tuple(bool(c) for c in code)

    def _check_tie(self, v):
        k = np.flatnonzero(np.abs(v - self.tau) <= _tol(v - self.tau))
        if len(k):
            raise ValueError(f"theta puts item {int(k[0])} on the threshold tau = {self.tau:g}: "
                             "the answer is not unique (T* is infinite)")

    def describe(self):
        return f"Thresholding(tau={self.tau:g})"


def _check_pd(V, name: str) -> None:
    """``V`` must be symmetric positive definite (a design matrix): a negative-definite or
    indefinite one would give every piece a negative denominator, a GLR of 0 or inf."""
    scale = max(1.0, float(np.abs(V).max()))
    if not np.allclose(V, V.T, rtol=1e-9, atol=1e-12 * scale):
        raise ValueError(f"{name} must be symmetric (a design matrix sum x x^T)")
    low = float(np.linalg.eigvalsh(V)[0])
    if not low > 0:
        raise ValueError(f"{name} must be positive definite (a design matrix sum x x^T), but "
                         f"its smallest eigenvalue is {low:.3g}")


@constraints(query="query", Z="matrix")
def as_query(query, Z) -> Query:
    """``query`` bound to the items ``Z`` (``None``: :class:`BestArm`); a ``TypeError`` naming
    ``query`` for anything but a :class:`Query`, a ``ValueError`` when its own items differ."""
    if query is None:
        query = BestArm()
    if isinstance(query, type) and issubclass(query, Query):
        raise TypeError(f"query must be a query object, got the class {query.__name__}: pass "
                        f"{query.__name__}(...)")
    if not isinstance(query, Query):
        raise TypeError(f"query must be a bai.queries.Query (BestArm(), TopM(m), "
                        f"Thresholding(tau)), got {type(query).__name__}")
    Z = as_matrix(Z, "Z", min_rows=2)
    if query._Z is not None:
        if query._Z.shape != Z.shape or not np.allclose(query._Z, Z):
            raise ValueError("query is bound to other items than the environment's Z")
        return query
    try:
        return query.bind(Z)
    except ValueError as exc:
        raise ValueError(f"query: {exc}") from None


@constraints(env="env", query="query", delta="delta")
def expected_time_lower_bound(env, query, delta) -> float:
    r""":math:`T^*(\theta)\,\mathrm{kl}(\delta,1-\delta)` of ``query`` on the Gaussian linear
    bandit ``env`` (Garivier & Kaufmann 2016, Thm 1; :meth:`Query.t_star`); 0 for
    :math:`\delta\ge1/2`, where the bound does not hold."""
    from .environments import GaussianLinearBandit
    from .lower_bounds import expected_time_lower_bound as _lb

    if not isinstance(env, GaussianLinearBandit):
        raise TypeError(f"env must be a GaussianLinearBandit, got {type(env).__name__}")
    q = as_query(query, env.Z)
    return _lb(q.t_star(env.X, env.theta, env.sigma), delta)
