"""The one seed type of fedtheory and the ways a seed becomes random numbers (DESIGN §4).

Every public function that draws random numbers takes ``seed`` of type :data:`Seed`: a
non-negative integer or a :class:`numpy.random.SeedSequence` (the runner derives one per
replicate). ``None``, floats and :class:`numpy.random.Generator` objects are refused: the same
seed must give the same bits, and a generator's output depends on what was drawn from it before.

- :func:`generator` turns a seed into a :class:`numpy.random.Generator`;
- :func:`seed_sequence` turns it into a fresh :class:`numpy.random.SeedSequence` to spawn
  independent streams from (a copy: spawning never changes the caller's object, so the same
  seed passed twice gives the same streams);
- :func:`seed_entropy` turns it into one integer drawn from it, to seed several independent
  streams (a function of the seed alone);
- :func:`replicate_seeds` gives the seeds of a batch of replicates (replicate ``r`` of ``seed``
  is ``SeedSequence(seed, spawn_key=(r,))``), or checks a sequence of per-replicate seeds.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np

from fedtheory.errors import ParameterError

__all__ = ["Seed", "check_seed", "generator", "replicate_seeds", "seed_entropy", "seed_sequence"]

#: What a seed may be: a non-negative integer or a :class:`numpy.random.SeedSequence`.
Seed: TypeAlias = "int | np.integer[Any] | np.random.SeedSequence"


def check_seed(seed: Any, *, parameter: str = "seed") -> int | np.random.SeedSequence:
    """Return ``seed`` as an ``int`` or a SeedSequence after checking that it is reproducible.

    Raises
    ------
    ParameterError
        If ``seed`` is not a non-negative integer or a SeedSequence.
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or int(seed) < 0:
        raise ParameterError(
            parameter=parameter,
            value=seed,
            rule="must be a non-negative integer or a numpy.random.SeedSequence "
            "(runs are reproducible: None and Generators are not accepted)",
        )
    return int(seed)


def generator(seed: Seed, *, parameter: str = "seed") -> np.random.Generator:
    """Return ``numpy.random.default_rng(seed)`` after checking that ``seed`` is reproducible.

    Parameters
    ----------
    seed
        A non-negative integer or a :class:`numpy.random.SeedSequence`.
    parameter
        Name used in the error message.

    Raises
    ------
    ParameterError
        If ``seed`` is not a non-negative integer or a SeedSequence.

    Examples
    --------
    >>> float(generator(0).random()) == float(generator(0).random())
    True
    """
    return np.random.default_rng(check_seed(seed, parameter=parameter))


def seed_sequence(seed: Seed, *, parameter: str = "seed") -> np.random.SeedSequence:
    """A fresh :class:`numpy.random.SeedSequence` for ``seed``, to spawn child streams from.

    For a SeedSequence the result is a copy with the same entropy and spawn key and no children
    spawned yet: its children are those the original gives on its first ``spawn``, and the
    original is left untouched.

    Examples
    --------
    >>> parent = np.random.SeedSequence(5)
    >>> a = seed_sequence(parent).spawn(2)[1].generate_state(1)
    >>> b = seed_sequence(parent).spawn(2)[1].generate_state(1)
    >>> bool((a == b).all()), parent.n_children_spawned
    (True, 0)
    """
    checked = check_seed(seed, parameter=parameter)
    if isinstance(checked, np.random.SeedSequence):
        return np.random.SeedSequence(
            checked.entropy, spawn_key=checked.spawn_key, pool_size=checked.pool_size
        )
    return np.random.SeedSequence(checked)


def replicate_seeds(seed: Any, replicates: int) -> list[Seed]:
    """The seeds of ``replicates`` replicates: one per replicate, or derived from one seed.

    A sequence of seeds must have one entry per replicate (each is checked when it is used);
    one seed ``s`` gives replicate ``r`` the seed ``SeedSequence(s, spawn_key=(r,))`` (for a
    SeedSequence ``s``: its entropy with ``r`` appended to its spawn key).

    Raises
    ------
    ParameterError
        If a sequence has the wrong length, or the seed is not reproducible.
    """
    if isinstance(seed, Sequence | np.ndarray) and not isinstance(seed, str):
        if len(seed) != replicates:
            raise ParameterError(
                parameter="seed",
                value=f"sequence of length {len(seed)}",
                rule=f"must give one seed per replicate, {replicates} in all",
            )
        return list(seed)
    checked = check_seed(seed)
    if isinstance(checked, np.random.SeedSequence):
        return [
            np.random.SeedSequence(checked.entropy, spawn_key=(*checked.spawn_key, r))
            for r in range(replicates)
        ]
    return [np.random.SeedSequence(checked, spawn_key=(r,)) for r in range(replicates)]


def seed_entropy(seed: Seed, *, parameter: str = "seed") -> int:
    """One integer in [0, 2^63) drawn from ``generator(seed)``: entropy to build child streams.

    The result depends on the seed alone (a SeedSequence passed twice gives the same value).

    Examples
    --------
    >>> seed_entropy(3) == seed_entropy(3)
    True
    """
    return int(generator(seed, parameter=parameter).integers(2**63))
