r"""The thresholds inside the compiled engine: :math:`\beta_j(t,\delta_k)` of a stopping threshold
of :mod:`bai.algorithms.stopping` (:func:`beta_at`: a built-in one, the mixture threshold, a
user's tabulated one), the confidence level of the LinGapE and LinGIFA widths
:math:`\sigma\sqrt{2\beta}` (:func:`width_beta`), and how many of the :math:`\delta`\ s, sorted by
increasing :math:`\beta`, a GLR value exceeds (:func:`_advance`, with lower bounds of
:math:`\beta` cached: the first crossings are ordered).
"""

from __future__ import annotations

import numba

from .. import stopping as ST
from .state import LOGDET, LOGLW, T, TT0, U


@numba.njit(cache=True, inline="always")
def beta_at(eng, j, k, t):
    r""":math:`\beta_j(t,\delta_k)` of stopping threshold ``j`` at the ``k``-th :math:`\delta`
    (sorted by increasing :math:`\log(1/\delta)`). The mixture threshold as
    :math:`(1+u)\frac12\log\det+(1+u)\log(1/\delta)` (the engine's historical rounding)."""
    kind = eng.tkind[j]
    if kind == ST.KIND_USER:
        return eng.utab[j, k, t - eng.ii[TT0]]
    if kind == ST.KIND_MIXTURE:
        u = eng.ff[U]
        return (1.0 + u) * 0.5 * eng.ff[LOGDET] + (1.0 + u) * eng.logL[k]
    return ST.beta_builtin(kind, t, eng.logL[k], eng.ff[LOGDET], eng.ff[U])


@numba.njit(cache=True, inline="always")
def width_beta(eng):
    r"""The largest of the width thresholds at :math:`\delta_w` and the current :math:`t`: the
    confidence level of the LinGapE and LinGIFA rules (their width is
    :math:`\sigma\sqrt{2\beta}`)."""
    t = eng.ii[T]
    out = 0.0
    for w in range(eng.wkind.shape[0]):
        kind = eng.wkind[w]
        if kind == ST.KIND_USER:
            b = eng.wtab[w, t - eng.ii[TT0]]
        elif kind == ST.KIND_MIXTURE:
            u = eng.ff[U]
            b = (1.0 + u) * 0.5 * eng.ff[LOGDET] + (1.0 + u) * eng.ff[LOGLW]
        else:
            b = ST.beta_builtin(kind, t, eng.ff[LOGLW], eng.ff[LOGDET], eng.ff[U])
        out = max(out, b)
    return out


@numba.njit(cache=True, inline="always")
def _advance(eng, j, e, g, t, nL):
    """The number of deltas (from ``e`` on) whose threshold ``j`` the value ``g`` exceeds at
    ``t``; :math:`\\beta` is evaluated only when ``g`` exceeds its cached lower bound."""
    blow = eng.blow
    while e < nL:
        if g <= blow[j, e]:
            return e
        b = beta_at(eng, j, e, t)
        blow[j, e] = b
        if g > b:
            e += 1
        else:
            return e
    return e
