"""The 8×8 digits of scikit-learn as App. C's offline substitute for MNIST (fedlrgd paper).

:func:`digits_split` loads the bundled data set (no download; scikit-learn is the optional
``data`` extra, imported on first use), divides the intensities by 16, one-hot encodes the labels
and splits train/test with a seed (reading guide §4.4).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_real
from fedtheory._seeds import Seed, generator
from fedtheory.errors import MissingExtraError
from fedtheory.papers.fedlrgd.networks import one_hot

__all__ = ["DigitsSplit", "digits_split"]


@dataclass(frozen=True, eq=False)
class DigitsSplit:
    """scikit-learn's 8×8 digits, split into training and test sets (guide §4.4).

    Images are flattened to y ∈ [0, 1]^64 (intensities 0..16 divided by 16) and labels one-hot
    encoded, z ∈ {0, 1}^10, so a data sample x = (y, z) has d = 74 (App. C: d = 794 on MNIST).

    Attributes
    ----------
    X_train, Y_train, X_test, Y_test : numpy.ndarray
        Inputs (n, 64) and one-hot labels (n, 10), read-only.
    """

    X_train: np.ndarray
    Y_train: np.ndarray
    X_test: np.ndarray
    Y_test: np.ndarray


@functools.lru_cache(maxsize=1)
def _load_digits() -> tuple[np.ndarray, np.ndarray]:
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        raise MissingExtraError(
            "the 8×8 digits of App. C's substitute need scikit-learn: "
            "pip install 'fedtheory[data]' (the optional 'data' extra)"
        ) from None
    bunch = load_digits()
    X = readonly(np.asarray(bunch.data, dtype=np.float64) / 16.0)
    labels = np.asarray(bunch.target, dtype=np.int64)
    labels.setflags(write=False)
    return X, labels


def digits_split(seed: Seed, *, test_fraction: float = 0.2) -> DigitsSplit:
    """The 1797 digits, shuffled with ``seed`` and split (default 1437 train / 360 test).

    Parameters
    ----------
    seed
        Seeds the permutation.
    test_fraction
        Fraction in (0, 1) of the samples held out (rounded up, as scikit-learn's
        ``train_test_split`` does; at least 1 sample on either side).

    Raises
    ------
    MissingExtraError
        If scikit-learn (the ``data`` extra) is not installed.
    """
    fraction = check_real("test_fraction", test_fraction, positive=True, below=1.0)
    rng = generator(seed)
    X, labels = _load_digits()
    n = X.shape[0]
    n_test = min(max(math.ceil(fraction * n), 1), n - 1)  # as sklearn's train_test_split
    order = rng.permutation(n)
    test, train = order[:n_test], order[n_test:]
    return DigitsSplit(
        readonly(X[train]),
        readonly(one_hot(labels[train], 10)),
        readonly(X[test]),
        readonly(one_hot(labels[test], 10)),
    )
