"""Shared test configuration.

Hypothesis runs derandomised (a fixed seed per test), without a deadline (cvxpy calls vary in
speed) and without an example database, so that every run of the suite is the same.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "bai",
    derandomize=True,
    deadline=None,
    database=None,
    max_examples=30,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("bai")


#: The longest tests (most compile a large numba kernel in a cold cache; a few start Jupyter
#: kernels or worker pools), measured with ``--durations`` on 2 cores, in two groups that
#: pytest-xdist's first hand-out gives to different workers: it sends each worker a run of
#: consecutive tests (``len(items) // workers // 4`` of them), so the first worker starts with
#: :data:`ENGINE_FIRST`, the tests that compile the GLR engine's shared core (its loop, statistics
#: and stopping rules), and the second with :data:`OWN_KERNELS_FIRST`, long tests that need none
#: of it (their own kernels, Jupyter, worker pools). Measured on a cold cache: with the two workers
#: both starting on engine tests, each compiled the engine's core at the same time (the arena's
#: compare test took 74 s, the ``engine.simulate`` contract 60 s); now the second worker finds it
#: in numba's cache. The longest first in each group; a test not named keeps its place. Without
#: workers (``-n 0``) the two groups simply come first.
ENGINE_FIRST = (
    "tests/test_arena.py::test_compare_tables_do_not_depend_on_workers_or_checkpoints",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.fws_code.fws_code]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.engine.simulate]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.lingame.lingame]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.fws.fws]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.lazy_tas.lazy_tas]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.top_two.top_two]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.glr_baselines.lingifa]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.glr_baselines.lingape_glr]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.engine_twins.engine_trajectory]",
)
OWN_KERNELS_FIRST = (
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.lingape.lingape]",
    "tests/test_lingape.py::test_ratio_rule_solves_only_the_lps_of_the_pairs_it_meets",
    "tests/test_book_cache.py::test_chapters_executed_into_the_cache_are_the_ones_jupyter_book_finds",
    "tests/test_cli.py::test_reproduce_optimal_design_end_to_end",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.racing.batch_racing_full]",
    "tests/test_designs.py::test_solve_design_agrees_under_every_blas_kernel",
    "tests/test_scaffold.py",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.td22_native.xy_adaptive_td22]",
    "tests/test_racing.py::test_sequential_partial_feedback_is_never_slower_on_the_same_draws",
    "tests/test_rng_discipline.py::test_racing_runs_did_not_change",
    "tests/test_harness_faults.py::test_ctrl_c_ends_the_worker_pool_too",
    "tests/test_harness_faults.py::test_ctrl_c_ends_with_one_line_and_no_traceback",
)


def _named(items, prefixes) -> list:
    """The items whose node id starts with one of ``prefixes``, in the order of ``prefixes``."""
    found: dict[int, list] = {}
    for item in items:
        for i, prefix in enumerate(prefixes):
            if item.nodeid.startswith(prefix):
                found.setdefault(i, []).append(item)
                break
    return [item for i in sorted(found) for item in found[i]]


def pytest_collection_modifyitems(config, items):
    """:data:`ENGINE_FIRST` first; :data:`OWN_KERNELS_FIRST` where the second worker's first
    hand-out starts (right after the first group without workers); the rest keep their order."""
    engine, own = _named(items, ENGINE_FIRST), _named(items, OWN_KERNELS_FIRST)
    named = {id(item) for item in engine + own}
    head = engine + [item for item in items if id(item) not in named]
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    at = max(len(items) // workers // 4, 2) if workers > 1 else len(engine)
    at = max(at, len(engine))
    items[:] = head[:at] + own + head[at:]
