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
