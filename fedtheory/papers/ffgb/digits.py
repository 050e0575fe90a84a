"""scikit-learn's 8×8 digits as the offline substitute of FFGB's experiments (guide §4.2).

Shen, Hassani, Kale & Karbasi, *Federated Functional Gradient Boosting* [1]_, §4: multiclass
classification with the cross-entropy loss (1), data divided among N clients by the
s-partition of Karimireddy et al. [3]_ and Hsu et al. [2]_ — "we randomly select a portion s×100% of
the data and allocate them equally to all clients; for the remaining (1 − s)×100% we sort the
data points by their labels and assign them to the workers sequentially". The paper runs it on
MNIST and CIFAR10 with N = 56; the guide's substitute (§4.2) is the 1797 digits bundled with
scikit-learn (no download; scikit-learn is the optional ``data`` extra, imported on first use),
N = 10 and s ∈ {0.1, 0.3}.

The functional view (guide §2.0): the atoms are *all* points, training and test, so a function is
its values there, an array (P, 10) flattened row-major to (P·10,); client i's x-marginal α_i is
uniform on its training points (zero on the other atoms, the test atoms included), so
α = (1/N)Σα_i weighs training points by 1/(N n_i). Every weak learner predicts at every atom,
so the vector of an FFGB iterate *is* its ensemble of weak learners evaluated at the atoms: its
test accuracy is read off the test atoms' values, with no separate ensemble. The loss is the
softmax cross-entropy ℓ(v, y) = −log(e^{v_y}/Σ_q e^{v_q}) of (1), whose gradient
softmax(v) − e_y has Euclidean norm at most √2 (G = √2, guide §1).

- :func:`digits_federation` builds a :class:`DigitsFederation` (split, scaling, s-partition);
- :meth:`DigitsFederation.view` is the kernel view :class:`DigitsView`, whose kernel
  ``loss_gradient(view, i, g, out)`` writes ∇R_i[g] = softmax(g(x)) − e_{y(x)} on supp α_i and
  0 elsewhere (the client step of FFGB calls it on the problem view);
- :meth:`DigitsFederation.population` is the same problem as an
  :class:`~fedtheory.papers.ffgb.populations.AtomPopulation` (softmax loss, q_i(x) = e_{y(x)},
  zero extension), the input of :func:`~fedtheory.papers.ffgb.algorithms.ffgb`: its kernel view
  computes the same ∇R_i[g] as :class:`DigitsView`, bit for bit;
- :meth:`DigitsFederation.accuracy` and :meth:`DigitsFederation.risk` evaluate a flattened
  function on the training or test atoms.

References
----------
.. [1] Z. Shen, H. Hassani, S. Kale & A. Karbasi, Federated Functional Gradient Boosting,
   AISTATS 2022; eq. (1), §4 (Setup), App. B.
.. [2] T.-M. H. Hsu, H. Qi & M. Brown (2019), Measuring the effects of non-identical data
   distribution for federated visual classification, arXiv:1909.06335.
.. [3] S. P. Karimireddy et al. (2020), SCAFFOLD: stochastic controlled averaging for
   federated learning, ICML.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_int, check_real
from fedtheory._jit import njit
from fedtheory._seeds import Seed, generator
from fedtheory.errors import MissingExtraError, ParameterError
from fedtheory.papers.ffgb.populations import AtomPopulation

__all__ = [
    "DIGITS_CLASSES",
    "DIGITS_GRADIENT_BOUND",
    "DigitsFederation",
    "DigitsView",
    "digits_federation",
]

#: Number of classes c of the digits.
DIGITS_CLASSES = 10
#: G of Assumption 3.1 for the cross-entropy (1): ‖softmax(v) − e_y‖ ≤ √2 (guide §1).
DIGITS_GRADIENT_BOUND = math.sqrt(2.0)

Split = Literal["train", "test"]


# ============================================================================== kernel view


@njit
def _softmax_loss_gradient(view: DigitsView, i: int, g: np.ndarray, out: np.ndarray) -> None:
    """∇R_i[g](x) = softmax(g(x)) − e_{y(x)} where α_i(x) > 0, 0 elsewhere (flat (P·c,)).

    The softmax subtracts max_q g_q(x) first (no overflow for any finite g).
    """
    c = view.classes
    alpha = view.alpha[i]
    for x in range(view.labels.shape[0]):
        base = x * c
        if not alpha[x] > 0.0:
            for q in range(c):
                out[base + q] = 0.0
            continue
        top = g[base]
        for q in range(1, c):
            top = max(top, g[base + q])
        total = 0.0
        for q in range(c):
            e = math.exp(g[base + q] - top)
            out[base + q] = e
            total += e
        for q in range(c):
            out[base + q] /= total
        out[base + view.labels[x]] -= 1.0


@njit
def _client_marginal(view: DigitsView, i: int) -> np.ndarray:
    """α_i, shape (P,)."""
    row: np.ndarray = view.alpha[i]
    return row


class _DigitsViewFields(NamedTuple):
    labels: np.ndarray
    alpha: np.ndarray
    classes: int


class DigitsView(_DigitsViewFields):
    """The digits federation as the kernels read it.

    Kernels: ``loss_gradient(view, i, g, out)`` writes ∇R_i[g] (flat, P·c) into ``out``, zero
    off supp α_i (the zero extension, guide §2.0); ``client_marginal(view, i)`` returns α_i.

    Attributes
    ----------
    labels : numpy.ndarray
        ``(P,)`` int64 labels of the atoms.
    alpha : numpy.ndarray
        ``(N, P)`` float64, row i is α_i (uniform on client i's training points).
    classes : int
        c = 10.
    """

    __slots__ = ()

    loss_gradient = _softmax_loss_gradient
    client_marginal = _client_marginal


# ============================================================================== data


@functools.lru_cache(maxsize=1)
def _load_digits() -> tuple[np.ndarray, np.ndarray]:
    """The 1797 images (intensities 0..16 divided by 16) and labels, read-only."""
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        raise MissingExtraError(
            "the 8×8 digits of the ffgb substitute need scikit-learn: "
            "pip install 'fedtheory[data]' (the optional 'data' extra)"
        ) from None
    bunch = load_digits()
    X = readonly(np.asarray(bunch.data, dtype=np.float64) / 16.0)
    labels = readonly(bunch.target, np.int64)
    return X, labels


def _s_partition(
    labels: np.ndarray, s: float, clients: int, rng: np.random.Generator
) -> list[np.ndarray]:
    """Indices (into ``labels``) of every client's points under the s-partition.

    A random round(s·n) points are dealt in N near-equal random shares
    (:func:`numpy.array_split` of a random order); the rest, sorted by label (stably, so ties
    keep their random order), is cut into N contiguous blocks dealt in order, block i to client
    i. The blocks have ⌊·⌋ or ⌈·⌉ of the rest; the larger ones go to the clients with the
    smaller random shares, so that client sizes differ by at most one.
    """
    n = labels.shape[0]
    order = rng.permutation(n)
    shared_count = round(s * n)
    shared, rest = order[:shared_count], order[shared_count:]
    shares = np.array_split(shared, clients)
    sorted_rest = rest[np.argsort(labels[rest], kind="stable")]
    base, extra = divmod(sorted_rest.size, clients)
    smaller_shares_first = sorted(range(clients), key=lambda j: (shares[j].size, j))
    sizes = np.full(clients, base, dtype=np.int64)
    sizes[smaller_shares_first[:extra]] += 1
    cuts = np.concatenate([[0], np.cumsum(sizes)])
    return [
        np.sort(np.concatenate([shares[i], sorted_rest[cuts[i] : cuts[i + 1]]]))
        for i in range(clients)
    ]


@dataclass(frozen=True, eq=False)
class DigitsFederation:
    """The digits divided among N clients by the s-partition, as a finite-atom population.

    Build it with :func:`digits_federation`. Atom x (0 ≤ x < P = 1797) is image x of
    scikit-learn's data set (intensities divided by 16) with its label; it is a test atom or a
    training atom of exactly one client.

    Attributes
    ----------
    features : numpy.ndarray
        ``(P, 64)`` float64 in [0, 1].
    labels : numpy.ndarray
        ``(P,)`` int64 in 0..9.
    owners : numpy.ndarray
        ``(P,)`` int64: the client of a training atom, −1 for a test atom.
    alpha : numpy.ndarray
        ``(N, P)`` float64: α_i, uniform on client i's training atoms.
    s : float
        The fraction of the training points dealt at random.
    """

    features: np.ndarray
    labels: np.ndarray
    owners: np.ndarray
    alpha: np.ndarray
    s: float

    @property
    def clients(self) -> int:
        """N."""
        return int(self.alpha.shape[0])

    @property
    def atoms(self) -> int:
        """P."""
        return int(self.labels.shape[0])

    @property
    def classes(self) -> int:
        """c = 10."""
        return DIGITS_CLASSES

    @property
    def train_atoms(self) -> np.ndarray:
        """Indices of the training atoms, increasing."""
        return np.flatnonzero(self.owners >= 0)

    @property
    def test_atoms(self) -> np.ndarray:
        """Indices of the test atoms, increasing."""
        return np.flatnonzero(self.owners < 0)

    @property
    def client_sizes(self) -> np.ndarray:
        """n_i, the number of training atoms of every client, shape (N,)."""
        return np.bincount(self.owners[self.owners >= 0], minlength=self.clients)

    def client_atoms(self, i: int) -> np.ndarray:
        """Indices of client ``i``'s training atoms, increasing."""
        i = _client(i, self.clients)
        return np.flatnonzero(self.owners == i)

    def view(self) -> DigitsView:
        """The kernel view (labels, α_i, c) with the ``loss_gradient`` kernel."""
        return DigitsView(
            kernel_array(self.labels, np.int64), kernel_array(self.alpha), DIGITS_CLASSES
        )

    def population(self, mu: float) -> AtomPopulation:
        """The federation as the finite-atom population that :func:`~.algorithms.ffgb` runs on.

        Softmax cross-entropy (1) with q_i(x) = e_{y(x)} (the atom's one-hot label, the same for
        every client), the marginals α_i and the zero extension off supp α_i: its kernel view's
        ``loss_gradient`` is :class:`DigitsView`'s, softmax(g(x)) − e_{y(x)} on supp α_i and 0
        elsewhere. The paper's experiments have no Tikhonov term, but FFGB's step
        η0/(μ(tK + k + k0)) needs μ > 0: pass a small μ and η0·μ as ``eta0`` to run the
        paper's step η0/(tK + k + 1) with a negligible μg in the update.

        Parameters
        ----------
        mu
            μ > 0, the population's Tikhonov weight (3).

        Raises
        ------
        ParameterError
            If μ is not a positive real.
        """
        mu = check_real("mu", mu, positive=True)
        onehot = np.eye(DIGITS_CLASSES)[self.labels]
        labels = np.broadcast_to(onehot, (self.clients, self.atoms, DIGITS_CLASSES))
        return AtomPopulation(
            alpha=self.alpha, labels=labels, mu=mu, loss="softmax", family=f"digits(s={self.s:g})"
        )

    def _values(self, f: Any) -> np.ndarray:
        values = np.asarray(f, dtype=np.float64)
        if values.size != self.atoms * DIGITS_CLASSES or values.ndim > 2:
            raise ParameterError(
                parameter="f",
                value=f"array of shape {values.shape}",
                rule=f"must hold {DIGITS_CLASSES} values per atom: shape "
                f"({self.atoms}, {DIGITS_CLASSES}) or ({self.atoms * DIGITS_CLASSES},)",
            )
        return values.reshape(self.atoms, DIGITS_CLASSES)

    def _atoms_of(self, split: Any) -> np.ndarray:
        if split == "train":
            return self.train_atoms
        if split == "test":
            return self.test_atoms
        raise ParameterError(parameter="split", value=split, rule="must be 'train' or 'test'")

    def accuracy(self, f: Any, split: Split = "test") -> float:
        """Fraction of the ``split`` atoms whose label is argmax_q f_q(x) (first maximum)."""
        atoms = self._atoms_of(split)
        predicted = np.argmax(self._values(f)[atoms], axis=1)
        return float(np.mean(predicted == self.labels[atoms]))

    def risk(self, f: Any, client: int | None = None) -> float:
        """R_i[f] = E_{α_i} ℓ(f(x), y(x)) (eq. (1)); ``client=None``: (1/N)Σ_i R_i[f]."""
        values = self._values(f)
        shifted = values - values.max(axis=1, keepdims=True)
        log_norm = np.log(np.exp(shifted).sum(axis=1))
        losses = log_norm - shifted[np.arange(self.atoms), self.labels]
        if client is None:
            return float(np.mean(self.alpha @ losses))
        return float(self.alpha[_client(client, self.clients)] @ losses)


def _client(value: Any, clients: int) -> int:
    i = check_int("client", value, minimum=0)
    if i >= clients:
        raise ParameterError(parameter="client", value=i, rule=f"must be below N = {clients}")
    return i


def digits_federation(
    s: float, *, clients: int = 10, test_fraction: float = 0.2, seed: Seed
) -> DigitsFederation:
    """The digits split into train/test and dealt to N clients by the s-partition (§4).

    One generator of ``seed`` draws, in order, the train/test permutation (the first
    ⌈test_fraction·1797⌉ points are the test atoms, as scikit-learn's ``train_test_split``
    rounds) and the s-partition of the training points (see :class:`DigitsFederation`).

    Parameters
    ----------
    s
        Fraction in [0, 1] of the training points dealt uniformly at random (the paper: 0.1 and
        0.3); the rest is dealt sorted by label (s = 0: maximal label skew, s = 1: i.i.d.).
    clients
        N ≥ 1 (the substitute's default 10; the paper's CIFAR10 runs use 56), at most the
        number of training points.
    test_fraction
        Fraction in (0, 1) of the points held out as test atoms.
    seed
        Integer or SeedSequence.

    Raises
    ------
    ParameterError
        If s ∉ [0, 1], N < 1 or above the number of training points, or test_fraction ∉ (0, 1).
    MissingExtraError
        If scikit-learn (the ``data`` extra) is not installed.

    Examples
    --------
    >>> fed = digits_federation(0.1, seed=0)
    >>> fed.atoms, fed.clients, int(fed.client_sizes.sum()), len(fed.test_atoms)
    (1797, 10, 1437, 360)
    """
    s = check_real("s", s, nonnegative=True)
    if s > 1.0:
        raise ParameterError(parameter="s", value=s, rule="must lie in [0, 1]")
    clients = check_int("clients", clients, minimum=1)
    fraction = check_real("test_fraction", test_fraction, positive=True, below=1.0)
    X, labels = _load_digits()
    P = X.shape[0]
    n_test = min(max(math.ceil(fraction * P), 1), P - 1)
    if clients > P - n_test:
        raise ParameterError(
            parameter="clients",
            value=clients,
            rule=f"must be at most the number of training points, {P - n_test}",
        )
    rng = generator(seed)
    order = rng.permutation(P)
    train = np.sort(order[n_test:])
    owners = np.full(P, -1, dtype=np.int64)
    alpha = np.zeros((clients, P))
    for i, members in enumerate(_s_partition(labels[train], s, clients, rng)):
        atoms = train[members]
        owners[atoms] = i
        alpha[i, atoms] = 1.0 / atoms.size
    return DigitsFederation(
        features=X,
        labels=labels,
        owners=readonly(owners, np.int64),
        alpha=readonly(alpha),
        s=s,
    )
