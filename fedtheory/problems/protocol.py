"""What an algorithm may ask of a federated problem: the one problem protocol (DESIGN §3).

A federated problem has m clients; client i holds a local objective f_i (its empirical risk, or
a population risk), and the *global* objective is the one the paper studies,

    F(w) = Σ_i p_i f_i(w)  (+ a term of the server's own data, when it holds some),

with the client weights p (which then sum to less than 1, the rest being the server's share —
the federated ERM (3) of the fedlrgd paper). An algorithm may ask a problem for

- its layout: :attr:`~FederatedProblem.num_clients`, :attr:`~FederatedProblem.dimension`,
  :attr:`~FederatedProblem.client_weights`;
- its constants (:meth:`~FederatedProblem.constants`): at least ``"smoothness"`` L and
  ``"strong_convexity"`` μ of F, computed from the data, each documented by the problem (exact or
  a valid bound);
- per-client oracles: the function value f_i(w) (a zeroth-order *query*) and the gradient
  ∇f_i(w) (a first-order call), and the same for F;
- the optima: argmin F and argmin f_i over the problem's domain.

The paper-free inputs implement it directly: :class:`~fedtheory.problems.FederatedDataset`
(m clients with finite samples and a per-sample loss), :class:`~fedtheory.problems.
QuadraticInstance` and :class:`~fedtheory.problems.IsotropicQuadratic` (one client: centralized
problems are the case m = 1); so does the fedlrgd paper's
:class:`~fedtheory.papers.fedlrgd.LatentERM`. The numba round loop reads a problem through its
kernel view instead (:mod:`fedtheory.problems._oracle`), with the same per-sample gradients.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from fedtheory._checks import check_int, check_vector
from fedtheory.errors import ParameterError

__all__ = ["PROTOCOL_MEMBERS", "FederatedProblem", "SingleClientProblem", "check_problem"]

#: The members :func:`check_problem` requires (those of :class:`FederatedProblem`).
PROTOCOL_MEMBERS: tuple[str, ...] = (
    "num_clients",
    "dimension",
    "client_weights",
    "constants",
    "client_value",
    "client_gradient",
    "global_value",
    "global_gradient",
    "global_optimum",
    "client_optima",
)


@runtime_checkable
class FederatedProblem(Protocol):
    """The interface every federated problem offers its algorithms (see the module docstring)."""

    @property
    def num_clients(self) -> int:
        """m, the number of clients."""
        ...

    @property
    def dimension(self) -> int:
        """The dimension of the model w."""
        ...

    @property
    def client_weights(self) -> np.ndarray:
        """p, shape (m,): the weights of the clients' objectives in F."""
        ...

    def constants(self) -> dict[str, float]:
        """The problem's constants; at least ``"smoothness"`` and ``"strong_convexity"`` of F."""
        ...

    def client_value(self, client: int, w: Any) -> float:
        """f_i(w): client ``client``'s objective (a zeroth-order query)."""
        ...

    def client_gradient(self, client: int, w: Any) -> np.ndarray:
        """∇f_i(w), shape (dimension,)."""
        ...

    def global_value(self, w: Any) -> float:
        """F(w)."""
        ...

    def global_gradient(self, w: Any) -> np.ndarray:
        """∇F(w), shape (dimension,)."""
        ...

    def global_optimum(self) -> np.ndarray:
        """argmin F over the problem's domain, shape (dimension,)."""
        ...

    def client_optima(self) -> np.ndarray:
        """argmin f_i over the problem's domain for every client, shape (m, dimension)."""
        ...


def check_problem(problem: Any, *, parameter: str = "problem") -> FederatedProblem:
    """Return ``problem`` after checking that it offers every member of the protocol.

    Raises
    ------
    ParameterError
        Naming the first missing member.
    """
    for member in PROTOCOL_MEMBERS:
        if not hasattr(problem, member):
            raise ParameterError(
                parameter=parameter,
                value=type(problem).__name__,
                rule=f"must be a federated problem (fedtheory.problems.protocol): it has no "
                f"{member!r}",
            )
    return problem  # type: ignore[no-any-return]


class SingleClientProblem:
    """The protocol for a centralized problem: one client whose objective is F itself.

    A subclass provides ``d`` (the dimension), ``value(w)``, ``gradient(w)``, ``L``, ``mu`` and
    the minimiser as :meth:`_minimiser`.
    """

    d: int
    L: float
    mu: float

    def value(self, w: Any) -> float:
        raise NotImplementedError

    def gradient(self, w: Any) -> np.ndarray:
        raise NotImplementedError

    def _minimiser(self) -> np.ndarray:
        raise NotImplementedError

    @property
    def num_clients(self) -> int:
        """1."""
        return 1

    @property
    def dimension(self) -> int:
        """d."""
        return int(self.d)

    @property
    def client_weights(self) -> np.ndarray:
        """[1.0]."""
        return np.ones(1)

    def constants(self) -> dict[str, float]:
        """``{"smoothness": L, "strong_convexity": mu}``."""
        return {"smoothness": float(self.L), "strong_convexity": float(self.mu)}

    def _point(self, w: Any) -> np.ndarray:
        return check_vector("w", w, shape=(self.dimension,))

    def _only_client(self, client: Any) -> None:
        if check_int("client", client, minimum=0) != 0:
            raise ParameterError(parameter="client", value=client, rule="must be 0 (one client)")

    def client_value(self, client: int, w: Any) -> float:
        """f_0(w) = F(w)."""
        self._only_client(client)
        return self.value(self._point(w))

    def client_gradient(self, client: int, w: Any) -> np.ndarray:
        """∇f_0(w) = ∇F(w)."""
        self._only_client(client)
        return self.gradient(self._point(w))

    def global_value(self, w: Any) -> float:
        """F(w)."""
        return self.value(self._point(w))

    def global_gradient(self, w: Any) -> np.ndarray:
        """∇F(w)."""
        return self.gradient(self._point(w))

    def global_optimum(self) -> np.ndarray:
        """argmin F."""
        return np.array(self._minimiser(), dtype=np.float64)

    def client_optima(self) -> np.ndarray:
        """[argmin F], shape (1, d)."""
        return self.global_optimum()[None, :]
