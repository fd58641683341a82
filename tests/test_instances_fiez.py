"""The instances of Fiez et al. (2019), Figures 1b-1d and 2a (bai.instances)."""

import numpy as np
import pytest

from bai import instances as I


def test_many_arms_code_reading_has_the_texts_gap():
    env = I.many_arms(2000, np.random.default_rng(1))
    assert env.X.shape == (2000, 2) and env.best_item == 0
    gaps = np.delete(env.gaps, 0)
    # near-duplicates: gap 1 - cos(a), a in [0.78, 0.88]; x2 has gap 1 - cos(3 pi / 4)
    assert gaps.min() == pytest.approx(1 - np.cos(0.78), abs=2e-3)
    assert np.sort(gaps)[-2] <= 1 - np.cos(0.88) + 1e-12
    assert gaps.max() == pytest.approx(1 - np.cos(3 * np.pi / 4))


def test_many_arms_variance_reading_has_tiny_gaps():
    # phi ~ N(0, 0.09) read as a variance: some angles fall near 0, against the text's gap ~0.3
    env = I.many_arms(20000, np.random.default_rng(2), spread="variance")
    assert np.sort(env.gaps)[1] < 1e-3


def test_many_arms_is_a_function_of_the_seed():
    a = I.many_arms(50, np.random.default_rng(3), spread="sd")
    b = I.many_arms(50, np.random.default_rng(3), spread="sd")
    np.testing.assert_array_equal(a.X, b.X)


def test_unit_sphere_theta_is_the_first_arm_of_the_closest_pair():
    env = I.unit_sphere(300, 9, np.random.default_rng(4))
    X = env.X
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0)
    D = np.linalg.norm(X[:, None] - X[None], axis=2) + np.diag(np.full(300, np.inf))
    i, j = np.unravel_index(np.argmin(D), D.shape)
    assert env.best_item == min(i, j)
    np.testing.assert_array_equal(env.theta, X[min(i, j)])
    assert np.sort(env.gaps)[1] == pytest.approx(1 - X[i] @ X[j])


def test_transductive_example():
    env = I.transductive_example(8)
    assert env.Z.shape == (8, 8) and env.best_item == 0
    assert np.sort(env.gaps)[1] == pytest.approx(1 - np.cos(0.1))
    assert np.argsort(env.gaps)[1] == 4
    with pytest.raises(ValueError, match="d must be even"):
        I.transductive_example(7)


@pytest.mark.parametrize("D", [3, 4, 5])
def test_multivariate_testing_features_are_orthogonal(D):
    env = I.multivariate_testing(D, np.random.default_rng(D))
    d = 1 + D + D * (D - 1) // 2
    assert env.X.shape == (2**D, d)
    np.testing.assert_allclose(env.X.T @ env.X, 2**D * np.eye(d))  # characters of {-1,1}^D
    top2 = np.sort(env.means)[-2:]
    assert top2[1] - top2[0] >= 1e-5
    # alpha2 = 0.5 halves the interaction weights drawn on the 0.01 grid in [-0.3, 0.3]
    raw = env.theta / np.r_[1.0, np.ones(D), np.full(d - 1 - D, 0.5)]
    np.testing.assert_allclose(raw, np.round(raw, 2), atol=1e-12)
    assert np.all(np.abs(raw) <= 0.3 + 1e-12)


def test_multivariate_testing_code_weights():
    env = I.multivariate_testing(4, np.random.default_rng(0), weights="code")
    raw = env.theta.copy()
    raw[5] /= 0.5  # alpha2 on the first pairwise weight only
    assert np.all(raw >= -0.1 - 1e-12) and np.all(raw <= 0.09 + 1e-12)
    with pytest.raises(ValueError, match="weights must be"):
        I.multivariate_testing(4, np.random.default_rng(0), weights="other")


def test_click_instance_arms_are_distinct():
    X, _, _ = I.click_data()
    assert len(np.unique(X, axis=0)) < len(X)  # the data do repeat feature vectors
    for seed in range(5):
        env = I.click_instance(40, np.random.default_rng(seed), gap=0.01)
        assert len(np.unique(np.round(env.X, 12), axis=0)) == 40
        gaps = np.delete(env.gaps, env.best_item)
        assert gaps.min() >= 0.01 - 1e-12
