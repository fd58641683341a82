r"""The engine state: :class:`Engine`, a numba structured reference with named fields (passed
by pointer to every compiled function of the engine and of the rules), its numba type
:class:`EngineType`, and the slots and codes the compiled engine shares.

The fields (:data:`FIELDS`, listed in :class:`Engine`'s docstring) are the run's instance
(:math:`X`, :math:`Z`), its statistics (:math:`N_t`, :math:`V_t`, :math:`S_t`, :math:`V_t^{-1}`,
:math:`\hat\theta_t`, the values :math:`Z\hat\theta_t`), the empirical answer and the pieces of
its alternative, the stopping rules' pointers, records and elimination levels; the integer
scalars sit in ``eng.ii`` at the slots ``T``, ``NP``, ... and the float scalars in ``eng.ff`` at
``LOGDET``, ``STAT``, ... (read by the attributes ``eng.t``, ``eng.n_pieces``, ``eng.stat``,
...). :func:`_new_engine` builds the state from its arrays
(:class:`bai.algorithms.engine.one_run._Run`).
"""

from __future__ import annotations

import numba
from numba import types
from numba.experimental import structref
from numba.extending import overload_attribute



#: the denominators are recomputed from :math:`V^{-1}` at least every this many pulls
SQ_REFRESH = 1024

# slots of the integer scalars ``eng.ii``
(T, TMAX, NP, SERIAL, MIX, SQOK, HQ, HQOK, KIND, QM, LEN, PMAX, H, ESEL, EFULL, SAMP, NACT,
 TT0, TTW, MEFF, NS, NT, NL, NW, ARM, WS, PHASE) = range(27)
N_II = 27
# what the driving loop is calling (``eng.ii[PHASE]``): an error in a rule names its method
IN_CHOOSE, IN_OBSERVE, IN_UPDATE = 1, 2, 3
# what the driving loop returns
DONE, PAUSED, BAD_ARM = 1, 0, 2
# slots of the float scalars ``eng.ff``
LOGDET, STAT, U, LAM, SIGMA, SIGMA2, QX, DEN, LOGLW, REG = range(10)
N_FF = 10
#: the initial pulls (:func:`simulate`'s ``initial``)
INITIAL = ("spanner", "all")
# stopping-rule kinds (bai.algorithms.stopping)
SR_LLR, SR_SEL, SR_FULL = 0, 1, 2


# ---------------------------------------------------------------------------------------------
# The engine state: a numba structured reference with named fields
# ---------------------------------------------------------------------------------------------


@structref.register
class EngineType(types.StructRef):
    """The numba type of :class:`Engine`."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class Engine(structref.StructRefProxy):
    r"""The state of one run (module docstring), built by :func:`simulate`. Its fields, read by
    compiled rules as ``eng.<name>``:

    * the instance: ``X`` (K, d), ``Z`` (M, d), ``true_means`` (K; for the noise only: a rule must
      not read it);
    * the statistics: ``N`` (K, int), ``V``, ``Vinv``, ``Minv`` (:math:`(V+\lambda I)^{-1}`,
      mixture threshold), ``S``, ``theta`` (d), ``v`` (M, :math:`Z\hat\theta`), ``u``
      (:math:`V^{-1}x` of the last pull), ``cz`` (M, :math:`Zu`), ``wk`` (work);
    * the empirical answer and its pieces: ``code`` (the answer's code), per piece ``ph`` (its
      half-space), ``pi``, ``pj``, ``ps``, ``pb`` (normal :math:`a_p=p_s(z_{p_i}-z_{p_j})`,
      offset :math:`b_p`), ``pv`` (the normals, ``(P, d)``), ``gap`` (:math:`g_p`), ``sq`` (:math:`\|a_p\|^2_{V^{-1}}`), ``gl``
      (GLR), ``act`` (1: active for the sampling rule); ``hq`` (every half-space's denominator,
      when tracked);
    * the stopping rules: ``tkind``, ``logL`` (thresholds, :math:`\log(1/\delta)` sorted
      increasing), ``srule``, ``ptr``, ``stop_t``, ``stop_rec``, ``stop_N``, ``blow`` (lower
      bounds of :math:`\beta`), ``esel``, ``efull`` (elimination levels), ``fcnt``, ``fdec``
      (full elimination's certificates), ``utab``, ``wkind``, ``wtab`` (tabulated user
      thresholds, width thresholds);
    * scalars in ``ii`` and ``ff``, read through the attributes ``eng.t``, ``eng.K``, ``eng.d``,
      ``eng.M``, ``eng.n_pieces``, ``eng.answer``, ``eng.sigma``, ``eng.sigma2``, ``eng.stat``,
      ``eng.logdet``.
    """


FIELDS = ("X", "Z", "true_means", "ii", "ff", "V", "Vinv", "Minv", "S", "theta", "N", "v", "cz",
          "u", "wk", "code", "ph", "pi", "pj", "ps", "pb", "pv", "gap", "sq", "gl", "act", "hq",
          "tkind", "logL", "srule", "ptr", "stop_t", "stop_rec", "stop_N", "blow", "esel",
          "efull", "fcnt", "fdec", "utab", "wkind", "wtab", "Xt", "Zt", "pvt", "ppos", "hlive",
          "wR", "wa", "wb", "wrk", "stop_ws", "nelimf", "hist")
structref.define_proxy(Engine, EngineType, list(FIELDS))


def _attr(name, body):
    @overload_attribute(EngineType, name)
    def _ov(eng):
        return body
    return _ov


_attr("t", lambda eng: eng.ii[T])
_attr("K", lambda eng: eng.X.shape[0])
_attr("d", lambda eng: eng.X.shape[1])
_attr("M", lambda eng: eng.Z.shape[0])
_attr("n_pieces", lambda eng: eng.ii[NP])
_attr("answer", lambda eng: eng.ii[SERIAL])
_attr("sigma", lambda eng: eng.ff[SIGMA])
_attr("sigma2", lambda eng: eng.ff[SIGMA2])
_attr("stat", lambda eng: eng.ff[STAT])
_attr("logdet", lambda eng: eng.ff[LOGDET])


@numba.njit(cache=True)
def _new_engine(X, Z, true_means, ii, ff, V, Vinv, Minv, S, theta, N, v, cz, u, wk, code, ph, pi,
                pj, ps, pb, pv, gap, sq, gl, act, hq, tkind, logL, srule, ptr, stop_t, stop_rec,
                stop_N, blow, esel, efull, fcnt, fdec, utab, wkind, wtab, Xt, Zt, pvt, ppos, hlive,
                wR, wa, wb, wrk, stop_ws, nelimf, hist):
    return Engine(X, Z, true_means, ii, ff, V, Vinv, Minv, S, theta, N, v, cz, u, wk, code, ph,
                  pi, pj, ps, pb, pv, gap, sq, gl, act, hq, tkind, logL, srule, ptr, stop_t,
                  stop_rec, stop_N, blow, esel, efull, fcnt, fdec, utab, wkind, wtab, Xt, Zt, pvt,
                  ppos, hlive, wR, wa, wb, wrk, stop_ws, nelimf, hist)
