"""The exact-ERM estimators and the dichotomous strategy (Chen et al. §3.3; issue 4)."""

from __future__ import annotations

import numpy as np
import pytest

from fedtheory.errors import ParameterError
from fedtheory.papers.minimax import (
    fedavg_erm,
    fedprox_erm,
    local_training,
    logistic_clients,
    oracle_dichotomy,
    quadratic_clients,
    validated_dichotomy,
)


@pytest.fixture(params=["quadratic", "logistic"])
def instance(request):
    if request.param == "quadratic":
        return quadratic_clients(4, 40, 3, 0.4, 1.0, seed=1)
    return logistic_clients(4, 200, 3, 0.4, seed=1)


def test_the_functions_are_the_instances_exact_minimizers(instance):
    np.testing.assert_array_equal(local_training(instance), instance.local_erm())
    np.testing.assert_array_equal(fedavg_erm(instance), instance.global_erm())
    fair = np.full(4, 0.25)
    np.testing.assert_array_equal(fedavg_erm(instance, fair), instance.global_erm(fair))


def test_fedprox_interpolates_between_local_training_and_fedavg(instance):
    _, near_local = fedprox_erm(instance, 1e-9)
    _, near_global = fedprox_erm(instance, 1e9)
    scale = np.abs(local_training(instance)).max()
    assert np.abs(near_local - local_training(instance)).max() < 1e-6 * scale
    assert np.abs(near_global - fedavg_erm(instance)).max() < 1e-6 * scale


def test_oracle_dichotomy_switches_at_the_threshold(instance):
    below = oracle_dichotomy(instance, threshold=instance.R**2)
    above = oracle_dichotomy(instance, threshold=0.5 * instance.R**2)
    assert below.choice == "fedavg" and above.choice == "local"
    np.testing.assert_array_equal(below.models, np.tile(fedavg_erm(instance), (4, 1)))
    np.testing.assert_array_equal(above.models, local_training(instance))


def test_validated_dichotomy_picks_the_better_method_far_from_the_crossing():
    # GM-Q, d = 8, n = 50, m = 8: the expected risks cross at R*² = 8·(1/50 − 1/400) = 0.14.
    # At R = 0 FedAvg is better but the held-out losses of 10 samples per client are noisy, so
    # selection errs now and then (a coin flip would pick FedAvg about 10 times in 20); at
    # R = 3 local training is better by a factor ~60 and is always chosen.
    def picks(R: float) -> list[str]:
        return [
            validated_dichotomy(quadratic_clients(8, 50, 8, R, 1.0, seed=s), 0.2, seed=s).choice
            for s in range(20)
        ]

    assert picks(0.0).count("fedavg") >= 17
    assert picks(3.0).count("local") == 20


def test_validated_dichotomy_is_reproducible():
    inst = quadratic_clients(8, 50, 8, 0.37, 1.0, seed=3)
    first = validated_dichotomy(inst, 0.2, seed=11)
    second = validated_dichotomy(inst, 0.2, seed=11)
    assert first.held_out_losses == second.held_out_losses


def test_bad_input_names_the_parameter():
    inst = quadratic_clients(4, 40, 3, 0.4, 1.0, seed=1)
    with pytest.raises(ParameterError, match="instance"):
        local_training(object())
    with pytest.raises(ParameterError, match="lam"):
        fedprox_erm(inst, -1.0)
    with pytest.raises(ParameterError, match="lam"):
        fedprox_erm(inst, float("nan"))
    with pytest.raises(ParameterError, match="threshold"):
        oracle_dichotomy(inst, -0.1)
    with pytest.raises(ParameterError, match="fraction"):
        validated_dichotomy(inst, 1.5, seed=0)
