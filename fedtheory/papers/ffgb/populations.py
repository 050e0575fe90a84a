"""Finite-atom federated populations of the ffgb paper (reading guide §1, §2.0, §3.5, §5).

The input space is a finite set of atoms x_1, …, x_P. Client i has an x-marginal α_i (a
probability vector on the atoms) and a conditional label law β_i^x, given by its mean:

- binary logistic (c = 1): q_i(x) = P_i(y = 1 | x), ℓ(v, y) = log(1 + e^v) − y·v, so
  E_{β_i^x}∇₁ℓ(v, y) = σ(v) − q_i(x) and G = 1;
- square loss (c ≥ 1): m_i(x) = E_i[y | x], ℓ = ½‖v − y‖², so E∇₁ℓ = v − m_i(x);
- softmax cross-entropy (1) (c ≥ 2): q_i(x) ∈ Δ_c the class probabilities, E∇₁ℓ = softmax(v) −
  q_i(x), G = √2.

A function f is its values, shape (P,) for c = 1 or (P, c); the algorithms' model vector is the
row-major flattening (P·c,). The objective (11) is

    F[f] = (1/N) Σ_i ( E_{P_i} ℓ(f(x), y) + (μ/2)‖f‖²_{α_i} ) = (1/N) Σ_i R_i[f] + (μ/2)‖f‖²_α,

with α = (1/N) Σ_i α_i; its minimiser f* is pointwise [ours, guide §1]: f*(x) solves
Σ_i α_i(x) E_{β_i^x}∇₁ℓ(v, y) + μNα(x)v = 0, i.e. ∇ℓ̄(v) + μv = q_w(x) with
q_w = Σ_i α_i q_i / Σ_i α_i (per-atom Newton for logistic and softmax, closed form for square).
Atoms no client sees (α(x) = 0) do not enter F; f* is 0 there.

**Extension convention** (guide §2.0, §2.6): ∇R_i[g] is defined on supp α_i only. Off it the
population answers a chosen value, which is what a client's oracle query contains there:
``"zero"`` (0; FFGB.C's zero extension), ``"adversarial"`` (−A·sign f*(x) with a large A, so
that FFGB.C's clip makes the learner h = −G²_γ·sign f*(x) off the support, pushing away from f*:
guide §3.5's adversarial family; meant for FFGB.C only, whose clipping bounds it) or
``"values"`` (given per client).

Families (constructors, each seeded; the draws do not depend on ε, so a sweep in ε changes
only the marginals): :func:`semi_heterogeneous` (α_i equal, q_i = clip(base + U(−½, ½), 0, 1)),
:func:`dirichlet_mixture` (α_i = (1 − ε)α_0 + εν_i), :func:`private_atoms` (one private atom
per client, zero or adversarial extension), :func:`covariate_shift` (identical q_i, different
α_i with a common full support). ``loss="square"`` gives the square-loss versions (m_i drawn
like q_i).

:class:`AtomPopulation` answers the problem protocol (:mod:`fedtheory.problems.protocol`): the
Euclidean gradient of client i's objective at the vector w ∈ ℝ^{P·c} is α_i ⊙ (E∇₁ℓ + μw),
i.e. α_i times the functional gradient (5).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_int, check_real
from fedtheory._jit import njit
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb._pointwise import solve_pointwise

__all__ = [
    "EXTENSIONS",
    "LOSSES",
    "AtomPopulation",
    "AtomView",
    "covariate_shift",
    "dirichlet_mixture",
    "private_atoms",
    "semi_heterogeneous",
]

#: Loss names and their kernel codes.
LOSSES: dict[str, int] = {"logistic": 0, "square": 1, "softmax": 2}
#: Extension conventions off supp α_i.
EXTENSIONS: tuple[str, ...] = ("zero", "adversarial", "values")
#: Default A of the adversarial extension −A·sign f*(x).
ADVERSARIAL_SCALE = 1e6

_LOGISTIC = 0
_SQUARE = 1
_SOFTMAX = 2


# ============================================================================== kernel view


@njit
def _atom_loss_gradient(view: AtomView, i: int, g: np.ndarray, out: np.ndarray) -> None:
    """∇R_i[g](x) = E_{β_i^x}∇₁ℓ(g(x), y) on supp α_i, the extension value off it."""
    alpha = view.alpha[i]
    labels = view.labels[i]
    extension = view.extension[i]
    atoms = alpha.shape[0]
    c = view.outputs
    for x in range(atoms):
        start = x * c
        if alpha[x] <= 0.0:
            for j in range(start, start + c):
                out[j] = extension[j]
        elif view.loss == _LOGISTIC:
            v = g[start]
            if v >= 0.0:
                s = 1.0 / (1.0 + math.exp(-v))
            else:
                e = math.exp(v)
                s = e / (1.0 + e)
            out[start] = s - labels[start]
        elif view.loss == _SQUARE:
            for j in range(start, start + c):
                out[j] = g[j] - labels[j]
        else:
            top = g[start]
            for j in range(start + 1, start + c):
                top = max(top, g[j])
            total = 0.0
            for j in range(start, start + c):
                out[j] = math.exp(g[j] - top)
                total += out[j]
            for j in range(start, start + c):
                out[j] = out[j] / total - labels[j]


@njit
def _atom_marginal(view: AtomView, i: int) -> np.ndarray:
    """α_i, shape (P,)."""
    row: np.ndarray = view.alpha[i]
    return row


class _AtomViewFields(NamedTuple):
    alpha: np.ndarray
    labels: np.ndarray
    extension: np.ndarray
    loss: int
    outputs: int


class AtomView(_AtomViewFields):
    """An :class:`AtomPopulation` as the kernels read it.

    Kernels: ``loss_gradient(view, i, g, out)`` writes ∇R_i[g] (flat, P·c) into ``out``,
    with the extension value off supp α_i; ``client_marginal(view, i)`` returns α_i (P,).

    Attributes
    ----------
    alpha : numpy.ndarray
        ``(N, P)`` the clients' marginals.
    labels : numpy.ndarray
        ``(N, P·c)`` q_i or m_i, flattened.
    extension : numpy.ndarray
        ``(N, P·c)`` the values of ∇R_i off supp α_i.
    loss : int
        0 logistic, 1 square, 2 softmax.
    outputs : int
        c.
    """

    __slots__ = ()

    loss_gradient = _atom_loss_gradient
    client_marginal = _atom_marginal


# ============================================================================== the population


def _check_marginals(alpha: Any) -> np.ndarray:
    try:
        array = np.array(alpha, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter="alpha", value=alpha, rule="must be an array of real numbers"
        ) from None
    if array.ndim != 2 or array.shape[0] < 1 or array.shape[1] < 1:
        raise ParameterError(
            parameter="alpha",
            value=f"array of shape {array.shape}",
            rule="must have shape (N, P): one probability vector on the P atoms per client",
        )
    if not np.all(np.isfinite(array)) or array.min() < 0.0:
        raise ParameterError(
            parameter="alpha", value="entries", rule="must be finite and non-negative"
        )
    sums = array.sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1.0) > 1e-9)
    if bad.size:
        raise ParameterError(
            parameter=f"alpha[{int(bad[0])}]",
            value=f"sum {sums[bad[0]]:.12g}",
            rule="must be a probability vector (non-negative, summing to 1)",
        )
    return array


def _check_labels(labels: Any, loss: str, shape: tuple[int, int]) -> np.ndarray:
    try:
        array = np.array(labels, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter="labels", value=labels, rule="must be an array of real numbers"
        ) from None
    if array.shape[:2] != shape or array.ndim not in (2, 3):
        raise ParameterError(
            parameter="labels",
            value=f"array of shape {array.shape}",
            rule=f"must have shape {shape} or {(*shape, 'c')}: one label law per client and atom",
        )
    if not np.all(np.isfinite(array)):
        raise ParameterError(parameter="labels", value="entries", rule="must be finite")
    if loss == "logistic":
        if array.ndim == 3 and array.shape[2] != 1:
            raise ParameterError(
                parameter="labels",
                value=f"array of shape {array.shape}",
                rule="binary logistic has one output: q_i(x) = P_i(y = 1 | x), shape (N, P)",
            )
        if array.min() < 0.0 or array.max() > 1.0:
            raise ParameterError(
                parameter="labels",
                value="entries outside [0, 1]",
                rule="q_i(x) = P_i(y = 1 | x) must lie in [0, 1]",
            )
        return array.reshape(shape)
    if loss == "softmax":
        if array.ndim != 3 or array.shape[2] < 2:
            raise ParameterError(
                parameter="labels",
                value=f"array of shape {array.shape}",
                rule="softmax needs class probabilities of shape (N, P, c) with c ≥ 2",
            )
        if array.min() < 0.0 or np.any(np.abs(array.sum(axis=2) - 1.0) > 1e-9):
            raise ParameterError(
                parameter="labels",
                value="rows",
                rule="q_i(x) must be a probability vector on the c classes",
            )
    if array.ndim == 3 and array.shape[2] == 1:
        array = array.reshape(shape)
    return array


@dataclass(frozen=True, eq=False)
class AtomPopulation:
    """A federated population on P atoms: N marginals, N conditional label laws, μ and a loss.

    Parameters
    ----------
    alpha
        ``(N, P)``: α_i, a probability vector on the atoms per client.
    labels
        ``(N, P)`` (c = 1) or ``(N, P, c)``: q_i (logistic: in [0, 1]; softmax: class
        probabilities) or m_i (square).
    mu
        μ ≥ 0, the Tikhonov weight of (3) (FFGB needs μ > 0).
    loss
        ``"logistic"``, ``"square"`` or ``"softmax"``.
    extension
        ``"zero"``, ``"adversarial"`` or ``"values"`` (see the module docstring).
    extension_values
        With ``extension="values"``: ∇R_i off supp α_i, shaped like ``labels``.
    family
        A name for the construction (set by the constructors).

    Attributes
    ----------
    num_clients, num_atoms, outputs : int
        N, P, c.
    marginal : numpy.ndarray
        α = (1/N) Σ α_i, shape (P,).
    optimum : numpy.ndarray
        f*, shape (P,) or (P, c).
    G : float
        The gradient bound of Assumptions 3.1/3.2 (see :meth:`gradient_bound`).

    Examples
    --------
    >>> pop = semi_heterogeneous(num_atoms=5, num_clients=3, seed=0)
    >>> pop.num_clients, pop.num_atoms, pop.G
    (3, 5, 1.0)
    >>> float(abs(pop.risk_gradient(0, pop.optimum) + pop.risk_gradient(1, pop.optimum)
    ...     + pop.risk_gradient(2, pop.optimum) + 3 * pop.mu * pop.optimum).max()) < 1e-12
    True
    """

    alpha: np.ndarray
    labels: np.ndarray
    mu: float
    loss: str = "logistic"
    extension: str = "zero"
    extension_values: np.ndarray | None = None
    family: str = "custom"

    def __post_init__(self) -> None:
        if self.loss not in LOSSES:
            raise ParameterError(
                parameter="loss", value=self.loss, rule=f"must be one of {', '.join(LOSSES)}"
            )
        alpha = _check_marginals(self.alpha)
        labels = _check_labels(self.labels, self.loss, (alpha.shape[0], alpha.shape[1]))
        mu = check_real("mu", self.mu, nonnegative=True)
        if self.extension not in EXTENSIONS:
            raise ParameterError(
                parameter="extension",
                value=self.extension,
                rule=f"must be one of {', '.join(EXTENSIONS)}",
            )
        values = None
        if self.extension == "values":
            if self.extension_values is None:
                raise ParameterError(
                    parameter="extension_values",
                    value=None,
                    rule="is required with extension='values'",
                )
            try:
                values = np.array(self.extension_values, dtype=np.float64).reshape(labels.shape)
            except ValueError:
                raise ParameterError(
                    parameter="extension_values",
                    value=f"array of shape {np.shape(self.extension_values)}",
                    rule=f"must have the shape of labels, {labels.shape}",
                ) from None
            if not np.all(np.isfinite(values)):
                raise ParameterError(
                    parameter="extension_values", value="entries", rule="must be finite"
                )
        elif self.extension_values is not None:
            raise ParameterError(
                parameter="extension_values",
                value="array",
                rule="is only used with extension='values'",
            )
        object.__setattr__(self, "alpha", readonly(alpha))
        object.__setattr__(self, "labels", readonly(labels))
        object.__setattr__(self, "mu", mu)
        object.__setattr__(self, "extension_values", None if values is None else readonly(values))

    # ---------------------------------------------------------------- layout

    @property
    def num_clients(self) -> int:
        """N."""
        return int(self.alpha.shape[0])

    @property
    def num_atoms(self) -> int:
        """P."""
        return int(self.alpha.shape[1])

    @property
    def outputs(self) -> int:
        """c, the output dimension."""
        return 1 if self.labels.ndim == 2 else int(self.labels.shape[2])

    @property
    def dimension(self) -> int:
        """P·c, the length of the model vector."""
        return self.num_atoms * self.outputs

    @property
    def function_shape(self) -> tuple[int, ...]:
        """(P,) for c = 1, (P, c) otherwise."""
        return (self.num_atoms,) if self.outputs == 1 else (self.num_atoms, self.outputs)

    @property
    def client_weights(self) -> np.ndarray:
        """(1/N, …, 1/N): F averages the clients uniformly (11)."""
        return np.full(self.num_clients, 1.0 / self.num_clients)

    @functools.cached_property
    def marginal(self) -> np.ndarray:
        """α = (1/N) Σ_i α_i (10), shape (P,)."""
        return readonly(self.alpha.mean(axis=0))

    @functools.cached_property
    def supports(self) -> np.ndarray:
        """``(N, P)`` bool: x ∈ supp α_i."""
        return readonly(self.alpha > 0.0, np.bool_)

    def as_function(self, f: Any, *, parameter: str = "f") -> np.ndarray:
        """``f`` as a float64 array of :attr:`function_shape` (also accepts the flat (P·c,)),
        with any leading axes kept."""
        array = np.asarray(f, dtype=np.float64)
        shape = self.function_shape
        if array.shape[array.ndim - len(shape) :] == shape:
            return array
        if array.shape[-1:] == (self.dimension,):
            return array.reshape(*array.shape[:-1], *shape)
        raise ParameterError(
            parameter=parameter,
            value=f"array of shape {array.shape}",
            rule=f"must have shape {shape} (or (..., {self.dimension}) flattened)",
        )

    # ---------------------------------------------------------------- losses

    def _labels3(self) -> np.ndarray:
        return self.labels.reshape(self.num_clients, self.num_atoms, self.outputs)

    def _loss_part(self, v: np.ndarray) -> np.ndarray:
        """∇ℓ̄(v) (the label-free part of E∇₁ℓ), v of shape (..., P, c)."""
        if self.loss == "logistic":
            return np.asarray(0.5 * (1.0 + np.tanh(0.5 * v)))
        if self.loss == "square":
            return v
        shifted = v - v.max(axis=-1, keepdims=True)
        e = np.exp(shifted)
        return np.asarray(e / e.sum(axis=-1, keepdims=True))

    def _expected_loss(self, i: int, v: np.ndarray) -> np.ndarray:
        """E_{β_i^x} ℓ(v(x), y) per atom, v of shape (P, c) (square: up to the conditional
        variance, a constant)."""
        labels = self._labels3()[i]
        if self.loss == "logistic":
            return np.asarray(np.logaddexp(0.0, v[:, 0]) - labels[:, 0] * v[:, 0])
        if self.loss == "square":
            return np.asarray(0.5 * np.sum((v - labels) ** 2, axis=1))
        top = v.max(axis=1)
        lse = top + np.log(np.exp(v - top[:, None]).sum(axis=1))
        return np.asarray(lse - np.sum(labels * v, axis=1))

    @functools.cached_property
    def _extension_array(self) -> np.ndarray:
        """``(N, P, c)``: ∇R_i off supp α_i."""
        shape = (self.num_clients, self.num_atoms, self.outputs)
        if self.extension == "zero":
            return np.zeros(shape)
        if self.extension == "values":
            assert self.extension_values is not None
            values: np.ndarray = np.asarray(self.extension_values).reshape(shape).copy()
            return values
        sign = np.sign(self.optimum.reshape(self.num_atoms, self.outputs))
        adversarial: np.ndarray = np.broadcast_to(-ADVERSARIAL_SCALE * sign, shape).copy()
        return adversarial

    def risk_gradient(self, i: int, f: Any) -> np.ndarray:
        """∇R_i[f]: E_{β_i^x}∇₁ℓ(f(x), y) on supp α_i (5), the extension value off it.

        Returns an array of :attr:`function_shape`.
        """
        i = self._client(i)
        v = self.as_function(f).reshape(self.num_atoms, self.outputs)
        gradient = self._loss_part(v) - self._labels3()[i]
        out = np.where(self.supports[i][:, None], gradient, self._extension_array[i])
        return np.asarray(out.reshape(self.function_shape))

    def _client(self, client: Any) -> int:
        client = check_int("client", client, minimum=0)
        if client >= self.num_clients:
            raise ParameterError(
                parameter="client", value=client, rule=f"must be below N = {self.num_clients}"
            )
        return int(client)

    # ---------------------------------------------------------------- optimum and errors

    @functools.cached_property
    def optimum(self) -> np.ndarray:
        """f*: the pointwise minimiser of F (0 at atoms no client sees)."""
        return readonly(self._pointwise_minimiser(self.alpha).reshape(self.function_shape))

    def _pointwise_minimiser(self, alpha: np.ndarray) -> np.ndarray:
        """Per atom, argmin_v Σ_i α_i(x)(E ℓ_i(v) + (μ/2)v²), shape (P, c); 0 where Σα_i = 0."""
        labels = self._labels3()
        a = alpha.sum(axis=0) / alpha.shape[0]
        c = np.einsum("ip,ipc->pc", alpha, labels) / alpha.shape[0]
        seen = a > 0.0
        out = np.zeros((self.num_atoms, self.outputs))
        if not seen.any():
            return out
        a_s, c_s = a[seen], c[seen]
        if self.mu > 0.0:
            rhs = c_s[:, 0] if self.outputs == 1 else c_s
            v = solve_pointwise(self.loss, a_s, self.mu * a_s, rhs)
            out[seen] = v.reshape(-1, self.outputs)
            return out
        average = c_s / a_s[:, None]
        if self.loss == "square":
            out[seen] = average
        elif self.loss == "logistic":
            if np.any((average <= 0.0) | (average >= 1.0)):
                raise ParameterError(
                    parameter="mu",
                    value=0.0,
                    rule="with μ = 0 the logistic minimiser needs 0 < q_w(x) < 1 at every atom "
                    "(it is infinite otherwise); use μ > 0",
                )
            out[seen] = np.log(average) - np.log1p(-average)
        else:
            if np.any(average <= 0.0):
                raise ParameterError(
                    parameter="mu",
                    value=0.0,
                    rule="with μ = 0 the softmax minimiser needs q_w(x) > 0 in every class; "
                    "use μ > 0",
                )
            logs = np.log(average)
            out[seen] = logs - logs.mean(axis=1, keepdims=True)
        return out

    def error(self, f: Any) -> np.ndarray | float:
        """‖f − f*‖²_α (leading axes of ``f`` are kept: one error per function)."""
        diff = self.as_function(f) - self.optimum
        squares = diff**2 if self.outputs == 1 else np.sum(diff**2, axis=-1)
        out = squares @ self.marginal
        return float(out) if np.ndim(out) == 0 else np.asarray(out)

    # ---------------------------------------------------------------- constants

    def gradient_bound(self, radius: float | None = None) -> float:
        """G of Assumptions 3.1/3.2: a bound on ‖∇R_i[f]‖ in L²(α_i) and in L∞(α_i).

        Logistic: ``|σ(v) − q|`` ≤ 1, so G = 1 for every f. Softmax: ‖softmax(v) − q‖ ≤ √2
        (guide §1), G = √2. Square loss has no uniform bound (guide §1): for ‖f‖_∞ ≤ radius,
        ‖f(x) − m_i(x)‖ ≤ radius + max_{i, x ∈ supp α_i}‖m_i(x)‖; the default radius is that
        label bound max‖m_i(x)‖, a ball holding f⁰ = 0, f* and the limits of §3.8.
        """
        if self.loss == "logistic":
            return 1.0
        if self.loss == "softmax":
            return math.sqrt(2.0)
        labels = self._labels3()
        norms = np.sqrt(np.sum(labels**2, axis=2))
        bound = float(np.max(np.where(self.supports, norms, 0.0)))
        if radius is None:
            radius = bound
        radius = check_real("radius", radius, nonnegative=True)
        return radius + bound

    @property
    def G(self) -> float:
        """:meth:`gradient_bound` at its default radius."""
        return self.gradient_bound()

    def constants(self) -> dict[str, float]:
        """Constants of F as a function of the vector w ∈ ℝ^{P·c} (protocol).

        The Hessian of F is block diagonal over atoms: α(x)(∇²ℓ̄ + μI). Its largest eigenvalue
        over all w is α(x)(s + μ), with s = 1/4 (logistic: σ(1 − σ) ≤ 1/4, attained at 0),
        1 (square) or 1/2 (softmax: λ_max(diag p − ppᵀ) ≤ 1/2); its smallest, α(x)μ (logistic
        and softmax: the loss curvature tends to 0) or α(x)(1 + μ) (square).

        Returns ``smoothness`` = max_x α(x)(s + μ), ``strong_convexity`` = min_x of the
        smallest, ``mu`` (the functional μ of (3)) and ``gradient_bound`` G.
        """
        curvature = {"logistic": 0.25, "square": 1.0, "softmax": 0.5}[self.loss]
        floor = 1.0 if self.loss == "square" else 0.0
        alpha = self.marginal
        return {
            "smoothness": float(np.max(alpha) * (curvature + self.mu)),
            "strong_convexity": float(np.min(alpha) * (floor + self.mu)),
            "mu": float(self.mu),
            "gradient_bound": self.G,
        }

    # ---------------------------------------------------------------- the protocol

    def _vector(self, w: Any) -> np.ndarray:
        array = np.asarray(w, dtype=np.float64)
        if array.shape not in ((self.dimension,), self.function_shape):
            raise ParameterError(
                parameter="w",
                value=f"array of shape {array.shape}",
                rule=f"must have shape ({self.dimension},) or {self.function_shape}",
            )
        if not np.all(np.isfinite(array)):
            raise ParameterError(parameter="w", value="array with NaN or inf", rule="finite")
        return array.reshape(self.num_atoms, self.outputs)

    def client_value(self, client: int, w: Any) -> float:
        """F_i[w] = R_i[w] + (μ/2)‖w‖²_{α_i} (square loss: up to the conditional variance)."""
        i = self._client(client)
        v = self._vector(w)
        per_atom = self._expected_loss(i, v) + 0.5 * self.mu * np.sum(v**2, axis=1)
        return float(self.alpha[i] @ per_atom)

    def client_gradient(self, client: int, w: Any) -> np.ndarray:
        """The Euclidean gradient α_i ⊙ (E∇₁ℓ + μw), shape (P·c,)."""
        i = self._client(client)
        v = self._vector(w)
        functional = self._loss_part(v) - self._labels3()[i] + self.mu * v
        return np.asarray((self.alpha[i][:, None] * functional).reshape(-1))

    def global_value(self, w: Any) -> float:
        """F[w] = (1/N) Σ_i F_i[w]."""
        return float(np.mean([self.client_value(i, w) for i in range(self.num_clients)]))

    def global_gradient(self, w: Any) -> np.ndarray:
        """(1/N) Σ_i ∇F_i, shape (P·c,)."""
        return np.asarray(
            np.mean([self.client_gradient(i, w) for i in range(self.num_clients)], axis=0)
        )

    def objective(self, f: Any) -> float:
        """F[f] (11)."""
        return self.global_value(f)

    def global_optimum(self) -> np.ndarray:
        """f*, flattened (P·c,)."""
        return np.array(self.optimum, dtype=np.float64).reshape(-1)

    def client_optima(self) -> np.ndarray:
        """argmin F_i per client, shape (N, P·c): the pointwise minimiser on supp α_i and 0
        off it (F_i does not depend on those values; 0 is the minimum-norm choice)."""
        clients = np.arange(self.num_clients)[:, None]
        return np.array(
            [
                self._pointwise_minimiser(np.where(clients == i, self.alpha, 0.0)).reshape(-1)
                for i in range(self.num_clients)
            ]
        )

    # ---------------------------------------------------------------- kernels

    def kernel_view(self) -> AtomView:
        """The population as the round loop's kernels read it (:class:`AtomView`)."""
        return AtomView(
            alpha=kernel_array(self.alpha),
            labels=kernel_array(self.labels.reshape(self.num_clients, self.dimension)),
            extension=kernel_array(self._extension_array.reshape(self.num_clients, -1)),
            loss=LOSSES[self.loss],
            outputs=self.outputs,
        )


# ============================================================================== constructors


def _common(
    num_atoms: Any, num_clients: Any, mu: Any, loss: Any, outputs: Any
) -> tuple[int, int, float, str, int]:
    num_atoms = check_int("num_atoms", num_atoms, minimum=1)
    num_clients = check_int("num_clients", num_clients, minimum=1)
    mu = check_real("mu", mu, nonnegative=True)
    if loss not in LOSSES:
        raise ParameterError(
            parameter="loss", value=loss, rule=f"must be one of {', '.join(LOSSES)}"
        )
    outputs = check_int("outputs", outputs, minimum=1)
    if loss == "logistic" and outputs != 1:
        raise ParameterError(
            parameter="outputs", value=outputs, rule="binary logistic has one output"
        )
    if loss == "softmax" and outputs < 2:
        raise ParameterError(parameter="outputs", value=outputs, rule="softmax needs c ≥ 2")
    return num_atoms, num_clients, mu, loss, outputs


def _draw_labels(
    rng: np.random.Generator,
    loss: str,
    num_clients: int,
    num_atoms: int,
    outputs: int,
    *,
    shared: bool,
) -> np.ndarray:
    """Guide §5 defaults: base(x) ~ U(0.2, 0.8), q_i = clip(base + U(−½, ½), 0, 1) (also the
    square loss's m_i, one output at a time); softmax: q_i(x) = ½ base(x) + ½ e_i(x) with base,
    e_i ~ Dirichlet(1_c). ``shared``: one draw for every client (covariate shift)."""
    rows = 1 if shared else num_clients
    if loss == "softmax":
        base = rng.dirichlet(np.ones(outputs), size=num_atoms)
        own = rng.dirichlet(np.ones(outputs), size=(rows, num_atoms))
        labels = 0.5 * base[None] + 0.5 * own
    else:
        base = rng.uniform(0.2, 0.8, size=(num_atoms, outputs))
        labels = np.clip(base[None] + rng.uniform(-0.5, 0.5, size=(rows, num_atoms, outputs)), 0, 1)
    labels = np.broadcast_to(labels, (num_clients, num_atoms, outputs))
    return np.array(labels[..., 0] if outputs == 1 else labels)


def _check_eps(eps: Any) -> float:
    value = check_real("eps", eps, nonnegative=True)
    if value > 1.0:
        raise ParameterError(parameter="eps", value=value, rule="must be in [0, 1]")
    return value


def semi_heterogeneous(
    *,
    num_atoms: int = 50,
    num_clients: int = 8,
    mu: float = 0.1,
    loss: str = "logistic",
    outputs: int = 1,
    seed: Seed,
) -> AtomPopulation:
    """The semi-heterogeneous population of Theorem 3.1 (guide §5 defaults).

    α_i = uniform on the P atoms for every client; q_i(x) = clip(base(x) + U(−½, ½), 0, 1) with
    base(x) ~ U(0.2, 0.8) (logistic; the square loss's m_i are drawn the same way).

    Parameters
    ----------
    num_atoms, num_clients
        P ≥ 1 and N ≥ 1.
    mu
        μ ≥ 0.
    loss
        ``"logistic"``, ``"square"`` or ``"softmax"``.
    outputs
        c (1 for logistic, ≥ 2 for softmax).
    seed
        Integer or SeedSequence.
    """
    num_atoms, num_clients, mu, loss, outputs = _common(num_atoms, num_clients, mu, loss, outputs)
    rng = generator(seed)
    labels = _draw_labels(rng, loss, num_clients, num_atoms, outputs, shared=False)
    alpha = np.full((num_clients, num_atoms), 1.0 / num_atoms)
    return AtomPopulation(alpha, labels, mu, loss, family="semi-heterogeneous")


def dirichlet_mixture(
    eps: float,
    *,
    num_atoms: int = 50,
    num_clients: int = 8,
    concentration: float = 1.0,
    mu: float = 0.1,
    loss: str = "logistic",
    outputs: int = 1,
    seed: Seed,
) -> AtomPopulation:
    """Dirichlet-mixture marginals α_i = (1 − ε)α_0 + εν_i (guide §3.5, check C7 (i)).

    α_0 is uniform, ν_i ~ Dirichlet(concentration · 1_P); the conditionals are heterogeneous
    as in :func:`semi_heterogeneous`. ε = 0 is the semi-heterogeneous case; ω_TV grows with ε.
    """
    eps = _check_eps(eps)
    concentration = check_real("concentration", concentration, positive=True)
    num_atoms, num_clients, mu, loss, outputs = _common(num_atoms, num_clients, mu, loss, outputs)
    rng = generator(seed)
    labels = _draw_labels(rng, loss, num_clients, num_atoms, outputs, shared=False)
    nu = rng.dirichlet(np.full(num_atoms, concentration), size=num_clients)
    alpha = (1.0 - eps) / num_atoms + eps * nu
    alpha /= alpha.sum(axis=1, keepdims=True)
    return AtomPopulation(alpha, labels, mu, loss, family="dirichlet-mixture")


def private_atoms(
    eps: float,
    *,
    num_shared: int = 50,
    num_clients: int = 8,
    mu: float = 0.1,
    loss: str = "logistic",
    outputs: int = 1,
    extension: str = "zero",
    seed: Seed,
) -> AtomPopulation:
    """One private atom per client (guide §3.5, check C7 (ii)/(iii)).

    P = num_shared + N atoms; α_i = (1 − ε)·uniform(shared atoms) + ε·δ_{p_i} with p_i client
    i's private atom, so TV(α, α_i) = ε(1 − 1/N) for every i and ω_TV = ε(1 − 1/N). Off its
    support a client answers the ``extension`` (``"zero"`` or ``"adversarial"``). At ε = 0 the
    private atoms carry no mass (they do not enter F).
    """
    eps = _check_eps(eps)
    if extension not in ("zero", "adversarial"):
        raise ParameterError(
            parameter="extension", value=extension, rule="must be 'zero' or 'adversarial'"
        )
    num_shared = check_int("num_shared", num_shared, minimum=1)
    _, num_clients, mu, loss, outputs = _common(num_shared, num_clients, mu, loss, outputs)
    atoms = num_shared + num_clients
    rng = generator(seed)
    labels = _draw_labels(rng, loss, num_clients, atoms, outputs, shared=False)
    alpha = np.zeros((num_clients, atoms))
    alpha[:, :num_shared] = (1.0 - eps) / num_shared
    alpha[np.arange(num_clients), num_shared + np.arange(num_clients)] += eps
    return AtomPopulation(
        alpha, labels, mu, loss, extension=extension, family=f"private-atoms-{extension}"
    )


def covariate_shift(
    eps: float,
    *,
    num_atoms: int = 50,
    num_clients: int = 8,
    concentration: float = 1.0,
    mu: float = 0.1,
    loss: str = "logistic",
    outputs: int = 1,
    seed: Seed,
) -> AtomPopulation:
    """Pure covariate shift (guide §3.5, check C8): identical q_i, different α_i, one support.

    α_i = (1 − ε)·uniform + εν_i with ν_i ~ Dirichlet(concentration · 1_P) (full support almost
    surely), and one conditional q(x) = clip(base(x) + U(−½, ½), 0, 1) shared by every client.
    """
    eps = _check_eps(eps)
    concentration = check_real("concentration", concentration, positive=True)
    num_atoms, num_clients, mu, loss, outputs = _common(num_atoms, num_clients, mu, loss, outputs)
    rng = generator(seed)
    labels = _draw_labels(rng, loss, num_clients, num_atoms, outputs, shared=True)
    nu = rng.dirichlet(np.full(num_atoms, concentration), size=num_clients)
    alpha = (1.0 - eps) / num_atoms + eps * nu
    alpha /= alpha.sum(axis=1, keepdims=True)
    return AtomPopulation(alpha, labels, mu, loss, family="covariate-shift")
