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
#: kernels or worker pools), measured with ``--durations`` on 2 cores: they are collected first,
#: so that pytest-xdist hands them out at the start and the run does not end with one long test
#: on one core while the other idles. The longest first; a test not named keeps its place.
#: Not here: the rule-discovery test, short now that its copy of the package runs no compiled
#: code (its in-process run compiles only a loop for the printed rule once the engine is cached).
LONGEST_FIRST = (
    "tests/test_scaffold.py",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.fws_code.fws_code]",
    "tests/test_arena.py::test_compare_tables_do_not_depend_on_workers_or_checkpoints",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.lingame.lingame]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.lazy_tas.lazy_tas]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.top_two.top_two]",
    "tests/test_cli.py::test_reproduce_optimal_design_end_to_end",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.td22_native.xy_adaptive_td22]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.glr_baselines.lingifa]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.algorithms.glr_baselines.lingape_glr]",
    "tests/test_contracts.py::test_valid_arguments_give_finite_results[bai.engine_twins.engine_trajectory]",
    "tests/test_book_cache.py::test_chapters_executed_into_the_cache_are_the_ones_jupyter_book_finds",
    "tests/test_rng_discipline.py::test_racing_runs_did_not_change",
    "tests/test_racing.py::test_sequential_partial_feedback_is_never_slower_on_the_same_draws",
    "tests/test_harness_faults.py::test_ctrl_c_ends_the_worker_pool_too",
    "tests/test_lingape.py::test_ratio_rule_solves_only_the_lps_of_the_pairs_it_meets",
    "tests/test_harness_faults.py::test_ctrl_c_ends_with_one_line_and_no_traceback",
)


def pytest_collection_modifyitems(config, items):
    """The tests of :data:`LONGEST_FIRST` first, in its order (a stable sort: the rest keep
    theirs)."""
    def rank(item):
        for i, prefix in enumerate(LONGEST_FIRST):
            if item.nodeid.startswith(prefix):
                return i
        return len(LONGEST_FIRST)

    items.sort(key=rank)
