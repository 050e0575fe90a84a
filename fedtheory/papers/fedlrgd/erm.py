"""Federated ERM instances for FedLRGD: a server and m clients minimising F of (1)/(3).

Jadbabaie, Makur & Shah, *Federated Optimization of Smooth Loss Functions* [1]_ (the ``fedlrgd``
seed; reading guide §1, §3.2.8, §5.1). A server holds r samples x^{(0,1)}, …, x^{(0,r)}, client c ∈
[m] holds s samples x^{(c,1)}, …, x^{(c,s)}, all in [0,1]^d, and the objective is the plain
empirical risk over the n = ms + r samples,

    F(θ) = (1/n) Σ_{j≤r} f(x^{(0,j)}; θ) + (1/n) Σ_{c≤m} Σ_{j≤s} f(x^{(c,j)}; θ)      (3)

(server samples count like every other sample). The stacked order of :attr:`LatentERM.samples`
is the one of the proof of Theorem 2: x^{(j)} = x^{(0,j)} for j ≤ r, then client c's sample j at
position r + (c − 1)s + j.

Families
--------
:func:`logistic_latent_erm` (LVM-A, App. A)
    Logistic regression with soft labels and a ridge, eq. (66):
    f(x, y; θ) = y log(1 + e^{−θᵀx}) + (1 − y) log(1 + e^{θᵀx}) + (μ/2)‖θ‖², x ∼ U[0,1]^p,
    y = clip(σ(a·wᵀx + ε), 0, 1) with ε ∼ N(0, noise²) (guide §5.1). The data point is
    (x, y) ∈ [0,1]^{p+1}: the paper's d = p + 1 includes the label. Every partial derivative
    g_i = (σ(θᵀx) − y)x_i + μθ_i is analytic in the data, so the data × parameter matrices
    G^{(i)} of (7) have rapidly decaying singular values but full rank.
:func:`quadratic_latent_erm` (LVM-Q, guide §5.1 and §3.3 D5)
    An exactly low-rank model, f(x; θ) = ½θᵀ(Σ_{k≤K'} φ_k(x)H_k + μI)θ − θᵀb(x), with Gaussian
    bumps φ_k(x) = exp(−‖x − c_k‖²/(2w²)), H_k = M_kM_kᵀ/p positive semi-definite and an affine
    b(x) = b_0 + B_1x. Then g_i(x; θ) = Σ_k φ_k(x)(H_kθ)_i + μθ_i − b_i(x) is a sum of K' + 2
    products (function of x) × (function of θ): every G^{(i)} has rank ρ = K' + 2 (exactly, for
    generic draws, when p ≥ K' + 1), so FedLRGD is *exact* at r = ρ and G^{(i)} is singular for
    every r > ρ — which breaks the non-singularity assumption (7) (guide V6).

Per-sample gradients
--------------------
``instance.gradient(x, theta)`` evaluates ∇_θ f(x; θ) for a batch of data points x of shape
(N, d_x) and either one parameter θ of shape (p,) — result (N, p) — or q parameters of shape
(q, p) — result (N, q, p), entry [j, k, i] = g_i(x_j; θ_k). With the server samples and the
FedLRGD pivots ϑ^{(1..r)} this is exactly the tensor whose slices [:, :, i] are the matrices
G^{(i)} of (7)/(34) (rows data, columns parameters).

Constants
---------
Both families compute their constants from the data and say how tight they are:

- LVM-Q: ``L1`` = λ_max(Ā) and ``mu`` = λ_min(Ā), with Ā = (1/n)Σ ∇²f(x^{(k)}; ·) the Hessian of
  F: the exact smoothness and strong-convexity constants of F (what Lemma 2 and the step 1/L1
  of (42) need). The per-sample constants of (4)/(5) over the drawn data are ``L1_sample`` and
  ``mu_sample``.
- LVM-A: ``mu`` = μ exactly (the infimum over θ of λ_min(∇²F), approached as ‖θ‖ → ∞).
  ``L1`` = p/4 + μ is an *upper bound*: the exact per-sample constant of (4) over the whole data
  domain x ∈ [0,1]^p (λ_max(σ'(θᵀx)xxᵀ) ≤ ‖x‖²/4 ≤ p/4, attained at x = 1, θ = 0). App. A's
  printed (68), (d − 1)/2 + μ = p/2 + μ, is 2× loose on the data term and is kept as
  ``L1_printed``; the exact smoothness of F on the drawn data, λ_max(XᵀX)/(4n) + μ (attained
  at θ = 0), is ``L_F``.

References
----------
.. [1] A. Jadbabaie, A. Makur & D. Shah, Federated optimization of smooth loss functions,
   arXiv:2201.01954v2; eqs. (1), (3)–(5), (7), (66)–(68), App. A.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import expit

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real, check_vector
from fedtheory._seeds import Seed, seed_sequence
from fedtheory.errors import ParameterError
from fedtheory.exact.logistic import logistic_erm

__all__ = [
    "LatentERM",
    "LogisticLatentERM",
    "QuadraticLatentERM",
    "logistic_latent_erm",
    "quadratic_latent_erm",
]


@dataclass(frozen=True, eq=False)
class LatentERM:
    """The federated ERM (3): server samples, client samples, loss, constants and the optimum.

    Subclasses (:class:`LogisticLatentERM`, :class:`QuadraticLatentERM`) define the loss and its
    per-sample gradient; everything else (the objective, its gradient, the sample layout) is
    shared.

    Attributes
    ----------
    server : numpy.ndarray
        The server's samples x^{(0,j)}, shape (r, d_x).
    clients : numpy.ndarray
        The clients' samples x^{(c,j)}, shape (m, s, d_x).
    mu : float
        Strong-convexity constant (see the subclass for how exact it is).
    L1 : float
        Smoothness constant, L1 > mu (see the subclass for how exact it is).
    theta_star : numpy.ndarray
        The unique minimiser θ^⋆ of F, shape (p,).
    F_star : float
        F(θ^⋆), (10).
    theta_box : tuple of float
        (lo, hi): the box [lo, hi]^p in which FedLRGD draws its pivots by default (an
        assumption; the paper gives no rule, guide §2.3.1).
    """

    server: np.ndarray
    clients: np.ndarray
    mu: float
    L1: float
    theta_star: np.ndarray
    F_star: float
    theta_box: tuple[float, float]

    # ------------------------------------------------------------------ layout
    @property
    def m(self) -> int:
        """Number of clients."""
        return int(self.clients.shape[0])

    @property
    def s(self) -> int:
        """Samples per client."""
        return int(self.clients.shape[1])

    @property
    def server_size(self) -> int:
        """Number of server samples (the paper's r when FedLRGD uses all of them)."""
        return int(self.server.shape[0])

    @property
    def n(self) -> int:
        """Total number of samples n = ms + r."""
        return self.m * self.s + self.server_size

    @property
    def d_x(self) -> int:
        """Length of one data point (the paper's d)."""
        return int(self.server.shape[1])

    @property
    def p(self) -> int:
        """Parameter dimension."""
        return int(self.theta_star.shape[0])

    @property
    def kappa(self) -> float:
        """Condition number κ = L1/μ (> 1)."""
        return self.L1 / self.mu

    @property
    def samples(self) -> np.ndarray:
        """All n samples stacked as in the proof of Theorem 2: server first, then the clients
        in order, shape (n, d_x)."""
        return np.concatenate([self.server, self.clients.reshape(-1, self.d_x)])

    # ------------------------------------------------------------------ loss interface
    def _loss(self, x: np.ndarray, theta: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _gradient(self, x: np.ndarray, theta: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _check_points(self, x: Any) -> np.ndarray:
        array = np.asarray(x, dtype=np.float64)
        if array.ndim != 2 or array.shape[1] != self.d_x:
            raise ParameterError(
                parameter="x",
                value=f"array of shape {array.shape}",
                rule=f"must have shape (N, {self.d_x}) (one data point per row)",
            )
        return array

    def _check_theta(self, theta: Any) -> np.ndarray:
        array = np.asarray(theta, dtype=np.float64)
        if array.ndim not in (1, 2) or array.shape[-1] != self.p:
            raise ParameterError(
                parameter="theta",
                value=f"array of shape {array.shape}",
                rule=f"must have shape ({self.p},) or (q, {self.p})",
            )
        return array

    def gradient(self, x: Any, theta: Any) -> np.ndarray:
        """Per-sample gradients ∇_θ f(x_j; θ_k), vectorised.

        Parameters
        ----------
        x
            Data points, shape (N, d_x).
        theta
            One parameter, shape (p,), or q parameters, shape (q, p).

        Returns
        -------
        numpy.ndarray
            Shape (N, p) for one θ; shape (N, q, p) for q of them, entry [j, k, i] =
            g_i(x_j; θ_k) — with x the server samples and θ the pivots, slice [:, :, i] is
            G^{(i)} of (7)/(34).
        """
        return self._gradient(self._check_points(x), self._check_theta(theta))

    def loss(self, x: Any, theta: Any) -> np.ndarray:
        """Per-sample losses f(x_j; θ), shape (N,) (or (N, q) for θ of shape (q, p))."""
        return self._loss(self._check_points(x), self._check_theta(theta))

    def objective(self, theta: Any) -> float | np.ndarray:
        """F(θ) of (3): the mean loss over all n samples (shape (q,) for θ of shape (q, p))."""
        theta = self._check_theta(theta)
        values = np.mean(self._loss(self.samples, theta), axis=0)
        return float(values) if theta.ndim == 1 else np.asarray(values)

    def full_gradient(self, theta: Any) -> np.ndarray:
        """∇F(θ) = (1/n) Σ_k ∇_θ f(x^{(k)}; θ), shape (p,) (or (q, p))."""
        theta = self._check_theta(theta)
        return np.asarray(np.mean(self._gradient(self.samples, theta), axis=0))

    # ------------------------------------------------------------------ the problem protocol
    # (fedtheory.problems.protocol): client c's objective is its empirical risk
    # f_c(θ) = (1/s) Σ_j f(x^{(c,j)}; θ); F of (3) also holds the server's samples, so the
    # client weights s/n sum to ms/n < 1.

    def _optimum_of(self, samples: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    @property
    def num_clients(self) -> int:
        """m."""
        return self.m

    @property
    def dimension(self) -> int:
        """p."""
        return self.p

    @property
    def client_weights(self) -> np.ndarray:
        """s/n for every client (the server's share r/n completes the sum)."""
        return np.full(self.m, self.s / self.n)

    def constants(self) -> dict[str, float]:
        """``{"smoothness": L1, "strong_convexity": mu}`` (see the subclass for how exact)."""
        return {"smoothness": float(self.L1), "strong_convexity": float(self.mu)}

    def _client(self, client: Any) -> int:
        client = check_int("client", client, minimum=0)
        if client >= self.m:
            raise ParameterError(parameter="client", value=client, rule=f"must be below {self.m}")
        return int(client)

    def client_value(self, client: int, w: Any) -> float:
        """f_c(θ): the mean loss over client ``client``'s samples."""
        samples = self.clients[self._client(client)]
        return float(np.mean(self._loss(samples, check_vector("w", w, shape=(self.p,)))))

    def client_gradient(self, client: int, w: Any) -> np.ndarray:
        """∇f_c(θ), shape (p,)."""
        samples = self.clients[self._client(client)]
        theta = check_vector("w", w, shape=(self.p,))
        return np.asarray(np.mean(self._gradient(samples, theta), axis=0))

    def global_value(self, w: Any) -> float:
        """F(θ) of (3)."""
        return float(self.objective(check_vector("w", w, shape=(self.p,))))

    def global_gradient(self, w: Any) -> np.ndarray:
        """∇F(θ)."""
        return self.full_gradient(check_vector("w", w, shape=(self.p,)))

    def global_optimum(self) -> np.ndarray:
        """θ^⋆."""
        return np.array(self.theta_star)

    def client_optima(self) -> np.ndarray:
        """argmin f_c for every client, shape (m, p) (each f_c is μ-strongly convex)."""
        return np.stack([self._optimum_of(self.clients[c]) for c in range(self.m)])

    def gap(self, theta: Any) -> float | np.ndarray:
        """F(θ) − F_* (shape (q,) for θ of shape (q, p))."""
        value = self.objective(theta)
        if isinstance(value, float):
            return value - self.F_star
        return np.asarray(value - self.F_star)


# ---------------------------------------------------------------------------------------------
# LVM-A: logistic regression with soft labels (App. A)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class LogisticLatentERM(LatentERM):
    """LVM-A: ridge-regularised logistic regression with soft labels, eq. (66) of App. A.

    A data point is (x, y) ∈ [0,1]^{p+1}, the last coordinate the soft label y. The loss is
    f(x, y; θ) = log(1 + e^{θᵀx}) − y θᵀx + (μ/2)‖θ‖² (equal to (66)), with gradient
    ∇_θ f = (σ(θᵀx) − y)x + μθ and Hessian σ'(θᵀx)xxᵀ + μI.

    Constants: ``mu`` = μ (exact), ``L1`` = p/4 + μ (an upper bound: the exact per-sample
    constant of (4) over the domain [0,1]^p), ``L1_printed`` = p/2 + μ (App. A (68), 2× loose
    on the data term), ``L_F`` = λ_max(XᵀX)/(4n) + μ (the exact smoothness of F on the drawn
    data, attained at θ = 0). θ^⋆ is computed by the exact logistic solver
    (:mod:`fedtheory.exact.logistic`) to the floating-point floor of ‖∇F‖.

    Attributes
    ----------
    ridge : float
        μ of (66).
    label_direction : numpy.ndarray
        w of the label model y = clip(σ(a·wᵀx + ε), 0, 1), shape (p,).
    label_scale : float
        a.
    label_noise : float
        Standard deviation of ε.
    L1_printed : float
        p/2 + μ, App. A (68).
    L_F : float
        Exact smoothness constant of F on the drawn data.
    """

    ridge: float
    label_direction: np.ndarray
    label_scale: float
    label_noise: float
    L1_printed: float
    L_F: float

    def _margins(self, x: np.ndarray, theta: np.ndarray) -> np.ndarray:
        return np.asarray(x[:, :-1] @ theta.T)  # (N,) or (N, q)

    def _loss(self, x: np.ndarray, theta: np.ndarray) -> np.ndarray:
        z = self._margins(x, theta)
        y = x[:, -1] if theta.ndim == 1 else x[:, -1:]
        ridge = 0.5 * self.ridge * np.sum(theta * theta, axis=-1)
        return np.asarray(np.logaddexp(0.0, z) - y * z + ridge)

    def _gradient(self, x: np.ndarray, theta: np.ndarray) -> np.ndarray:
        z = self._margins(x, theta)
        features = x[:, :-1]
        if theta.ndim == 1:
            residual = expit(z) - x[:, -1]
            return np.asarray(residual[:, None] * features + self.ridge * theta)
        residual = expit(z) - x[:, -1:]  # (N, q)
        return np.asarray(
            residual[:, :, None] * features[:, None, :] + self.ridge * theta[None, :, :]
        )

    def _optimum_of(self, samples: np.ndarray) -> np.ndarray:
        return _logistic_optimum(samples, self.ridge)

    def hessian(self, theta: Any) -> np.ndarray:
        """∇²F(θ) = (1/n) Σ_k σ'(θᵀx_k) x_k x_kᵀ + μI, shape (p, p)."""
        theta = check_vector("theta", theta, shape=(self.p,))
        return _logistic_hessian(self.samples, theta, self.ridge)


def _logistic_hessian(samples: np.ndarray, theta: np.ndarray, ridge: float) -> np.ndarray:
    features = samples[:, :-1]
    z = features @ theta
    weight = expit(z) * expit(-z)
    p = features.shape[1]
    return np.asarray(
        (features * weight[:, None]).T @ features / samples.shape[0]
    ) + ridge * np.eye(p)


def _logistic_optimum(samples: np.ndarray, ridge: float) -> np.ndarray:
    """θ^⋆ of LVM-A by the package's one exact logistic solver
    (:func:`fedtheory.exact.logistic.logistic_erm`).

    A soft label y ∈ [0, 1] is the pair of samples (x, +1) with weight y/n and (x, −1) with
    weight (1 − y)/n, since log(1 + e^{z}) − yz = y·log(1 + e^{−z}) + (1 − y)·log(1 + e^{z}); the
    ridge is the solver's. F is μ-strongly convex, so the minimiser exists for any data; the
    relative gradient tolerance 1e−15 is the floating-point floor of the gradient's terms.
    """
    features, labels = samples[:, :-1], samples[:, -1]
    n = samples.shape[0]
    theta, _ = logistic_erm(
        np.concatenate([features, features]),
        np.concatenate([np.ones(n), -np.ones(n)]),
        sample_weights=np.concatenate([labels, 1.0 - labels]) / n,
        ridge=ridge,
        tol=1e-15,
    )
    return theta


def _check_box(box: Any) -> tuple[float, float]:
    try:
        lo, hi = (float(v) for v in box)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter="theta_box", value=box, rule="must be a pair (lo, hi) of real numbers"
        ) from None
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ParameterError(
            parameter="theta_box", value=box, rule="must satisfy -inf < lo < hi < inf"
        )
    return lo, hi


def _check_sizes(m: Any, s: Any, r: Any, p: Any) -> tuple[int, int, int, int]:
    return (
        check_int("m", m, minimum=1),
        check_int("s", s, minimum=1),
        check_int("r", r, minimum=1),
        check_int("p", p, minimum=1),
    )


def _check_constants(smoothness: float, mu: float) -> None:
    """Theorem 2 silently needs κ > 1 and Theorem 3 assumes L1 > μ > 0 (guide §6.8)."""
    if not (mu > 0 and smoothness > mu):
        raise ParameterError(
            parameter="L1",
            value=smoothness,
            rule=f"the computed constants must satisfy L1 > mu > 0 (mu = {mu:.6g}); "
            "kappa = 1 makes (48) and Lemma 2 degenerate",
        )


def logistic_latent_erm(
    m: int,
    s: int,
    r: int,
    p: int,
    *,
    mu: float = 0.1,
    label_scale: float = 4.0,
    label_noise: float = 0.3,
    theta_box: tuple[float, float] = (-1.0, 1.0),
    seed: Seed,
) -> LogisticLatentERM:
    """LVM-A: federated logistic regression with soft labels (App. A; guide §5.1, §3.2.8).

    Every sample is x ∼ U[0,1]^p with the soft label y = clip(σ(a·wᵀx + ε), 0, 1),
    ε ∼ N(0, noise²), and w ∼ U[−1,1]^p drawn once per instance (the guide fixes the label
    model up to w; drawing it uniformly in App. A's parameter box is our choice). The server's
    r samples and the clients' m·s samples are i.i.d. from the same model (the analysis allows
    heterogeneity; nothing here depends on it).

    Parameters
    ----------
    m, s, r
        Clients, samples per client, server samples (all ≥ 1).
    p
        Parameter dimension (the data dimension is d = p + 1, label included).
    mu
        Ridge μ > 0 of (66).
    label_scale, label_noise
        a ≥ 0 and the noise standard deviation ≥ 0 of the label model.
    theta_box
        (lo, hi), the default pivot box [lo, hi]^p of FedLRGD; default App. A's [−1, 1].
    seed
        Integer or SeedSequence. Independent streams draw w, the server data and the client
        data, so two instances with the same seed and m, s share their clients and the smaller
        server sample is a prefix of the larger (useful for sweeps over r).

    Returns
    -------
    LogisticLatentERM

    Examples
    --------
    >>> inst = logistic_latent_erm(4, 5, 3, 2, seed=0)
    >>> inst.samples.shape, inst.p, inst.n
    ((23, 3), 2, 23)
    >>> bool(np.linalg.norm(inst.full_gradient(inst.theta_star)) < 1e-12)
    True
    """
    m, s, r, p = _check_sizes(m, s, r, p)
    mu = check_real("mu", mu, positive=True)
    label_scale = check_real("label_scale", label_scale, nonnegative=True)
    label_noise = check_real("label_noise", label_noise, nonnegative=True)
    box = _check_box(theta_box)
    rng_w, rng_server, rng_clients = (
        np.random.default_rng(child) for child in seed_sequence(seed).spawn(3)
    )
    w = rng_w.uniform(-1.0, 1.0, p)

    def draw(rng: np.random.Generator, count: int) -> np.ndarray:
        rows = rng.random((count, p + 1))  # last column: uniform noise seed, turned Gaussian
        x = rows[:, :p]
        eps = label_noise * _normal_from_uniform(rows[:, p])
        y = np.clip(expit(label_scale * (x @ w) + eps), 0.0, 1.0)
        return np.column_stack([x, y])

    server = draw(rng_server, r)
    clients = draw(rng_clients, m * s).reshape(m, s, p + 1)
    samples = np.concatenate([server, clients.reshape(-1, p + 1)])
    theta_star = _logistic_optimum(samples, mu)
    features = samples[:, :-1]
    L_F = float(np.linalg.eigvalsh(features.T @ features / (4.0 * samples.shape[0]))[-1]) + mu
    L1 = p / 4.0 + mu
    _check_constants(L1, mu)
    z = features @ theta_star
    F_star = float(
        np.mean(np.logaddexp(0.0, z) - samples[:, -1] * z) + 0.5 * mu * theta_star @ theta_star
    )
    return LogisticLatentERM(
        server=readonly(server),
        clients=readonly(clients),
        mu=mu,
        L1=L1,
        theta_star=readonly(theta_star),
        F_star=F_star,
        theta_box=box,
        ridge=mu,
        label_direction=readonly(w),
        label_scale=label_scale,
        label_noise=label_noise,
        L1_printed=p / 2.0 + mu,
        L_F=L_F,
    )


def _normal_from_uniform(u: np.ndarray) -> np.ndarray:
    """Standard normals from uniforms in [0, 1) by the inverse CDF (keeps one draw per row, so
    that server samples of different sizes are prefixes of each other)."""
    from scipy.special import ndtri

    return np.asarray(ndtri(np.clip(u, 1e-300, 1.0 - 1e-16)))


# ---------------------------------------------------------------------------------------------
# LVM-Q: exactly low-rank quadratic
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class QuadraticLatentERM(LatentERM):
    """LVM-Q: f(x; θ) = ½θᵀ(Σ_{k≤K'} φ_k(x)H_k + μI)θ − θᵀb(x), exactly of gradient rank K' + 2.

    φ_k(x) = exp(−‖x − c_k‖²/(2w²)), H_k positive semi-definite, b(x) = b_0 + B_1x. F is the
    quadratic ½θᵀĀθ − θᵀb̄ with Ā, b̄ the sample means of the per-sample Hessian and linear
    term, so θ^⋆ = Ā^{−1}b̄ and F_* = −½b̄ᵀθ^⋆ in closed form.

    Constants (exact): ``L1`` = λ_max(Ā), ``mu`` = λ_min(Ā) (smoothness and strong convexity
    of F); ``L1_sample`` = max_k λ_max(∇²f(x^{(k)})), ``mu_sample`` = min_k λ_min(∇²f(x^{(k)}))
    (the constants of (4)/(5) over the drawn data, L1_sample ≥ L1 ≥ mu ≥ mu_sample ≥ ridge).

    Attributes
    ----------
    centres : numpy.ndarray
        c_k, shape (K', d).
    width : float
        w.
    curvatures : numpy.ndarray
        H_k, shape (K', p, p).
    b0 : numpy.ndarray
        Shape (p,).
    B1 : numpy.ndarray
        Shape (p, d).
    ridge : float
        μ of the model.
    L1_sample, mu_sample : float
        Per-sample constants of (4)/(5) over the drawn data.
    """

    centres: np.ndarray
    width: float
    curvatures: np.ndarray
    b0: np.ndarray
    B1: np.ndarray
    ridge: float
    L1_sample: float
    mu_sample: float

    @property
    def rank(self) -> int:
        """ρ = K' + 2: the rank of every g_i(·; ·) as a data × parameter kernel (D5)."""
        return int(self.centres.shape[0]) + 2

    def bumps(self, x: Any) -> np.ndarray:
        """φ_k(x_j), shape (N, K')."""
        x = self._check_points(x)
        return self._bumps(x)

    def _bumps(self, x: np.ndarray) -> np.ndarray:
        diff = x[:, None, :] - self.centres[None, :, :]
        return np.asarray(np.exp(-np.sum(diff * diff, axis=2) / (2.0 * self.width**2)))

    def linear_term(self, x: Any) -> np.ndarray:
        """b(x_j) = b_0 + B_1x_j, shape (N, p)."""
        return self._linear(self._check_points(x))

    def _linear(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(self.b0 + x @ self.B1.T)

    def _gradient(self, x: np.ndarray, theta: np.ndarray) -> np.ndarray:
        phi = self._bumps(x)
        b = self._linear(x)
        if theta.ndim == 1:
            h_theta = self.curvatures @ theta  # (K, p)
            return np.asarray(phi @ h_theta + self.ridge * theta - b)
        h_theta = np.einsum("kij,qj->kqi", self.curvatures, theta)
        return np.asarray(
            np.einsum("nk,kqi->nqi", phi, h_theta) + self.ridge * theta[None] - b[:, None, :]
        )

    def _loss(self, x: np.ndarray, theta: np.ndarray) -> np.ndarray:
        phi = self._bumps(x)
        b = self._linear(x)
        if theta.ndim == 1:
            quad = np.einsum("i,kij,j->k", theta, self.curvatures, theta)
            return np.asarray(0.5 * (phi @ quad + self.ridge * theta @ theta) - b @ theta)
        quad = np.einsum("qi,kij,qj->kq", theta, self.curvatures, theta)
        ridge = self.ridge * np.sum(theta * theta, axis=1)
        return np.asarray(0.5 * (phi @ quad + ridge[None, :]) - b @ theta.T)

    def _optimum_of(self, samples: np.ndarray) -> np.ndarray:
        """The minimiser of the mean loss over ``samples``: Ā θ = b̄ (a quadratic)."""
        phi = self._bumps(samples)
        A = np.einsum("k,kij->ij", phi.mean(axis=0), self.curvatures) + self.ridge * np.eye(self.p)
        A = 0.5 * (A + A.T)
        return np.asarray(np.linalg.solve(A, self.b0 + samples.mean(axis=0) @ self.B1.T))

    def hessian(self) -> np.ndarray:
        """Ā = ∇²F = Σ_k mean(φ_k) H_k + μI, shape (p, p)."""
        phi_bar = self._bumps(self.samples).mean(axis=0)
        return np.asarray(np.einsum("k,kij->ij", phi_bar, self.curvatures)) + self.ridge * np.eye(
            self.p
        )


def quadratic_latent_erm(
    m: int,
    s: int,
    r: int,
    p: int,
    *,
    d: int = 2,
    bumps: int = 2,
    mu: float = 0.5,
    width: float = 0.3,
    theta_box: tuple[float, float] = (-1.0, 1.0),
    seed: Seed,
) -> QuadraticLatentERM:
    """LVM-Q: an exactly low-rank federated quadratic (guide §5.1, D5; V6).

    Data x ∼ U[0,1]^d i.i.d. (server and clients). Drawn once per instance: bump centres
    c_k ∼ U[0,1]^d, H_k = M_kM_kᵀ/p with M_k standard Gaussian p × p, b_0 ∼ N(0, I_p) and
    B_1 standard Gaussian p × d. Every G^{(i)} then has rank ρ = K' + 2 (``instance.rank``).

    Parameters
    ----------
    m, s, r
        Clients, samples per client, server samples (all ≥ 1).
    p
        Parameter dimension, at least K' + 1 (so that the rank is exactly K' + 2: the K' + 1
        linear functions θ ↦ (H_kθ)_i, θ_i must be independent).
    d
        Data dimension ≥ 1.
    bumps
        K' ≥ 1.
    mu
        Ridge μ > 0.
    width
        Bump width w > 0.
    theta_box
        Default pivot box of FedLRGD.
    seed
        Integer or SeedSequence; as in :func:`logistic_latent_erm`, the model, the server data
        and the client data come from independent streams (server samples of different sizes
        are prefixes of each other).

    Returns
    -------
    QuadraticLatentERM

    Examples
    --------
    >>> inst = quadratic_latent_erm(5, 4, 6, 5, seed=0)
    >>> inst.rank
    4
    >>> G = inst.gradient(inst.server, np.random.default_rng(1).uniform(-1, 1, (6, 5)))
    >>> [int(np.linalg.matrix_rank(G[:, :, i])) for i in range(inst.p)]
    [4, 4, 4, 4, 4]
    """
    m, s, r, p = _check_sizes(m, s, r, p)
    d = check_int("d", d, minimum=1)
    bumps = check_int("bumps", bumps, minimum=1)
    if p < bumps + 1:
        raise ParameterError(
            parameter="p",
            value=p,
            rule=f"must be at least bumps + 1 = {bumps + 1} so that the gradient rank is "
            f"exactly bumps + 2",
        )
    mu = check_real("mu", mu, positive=True)
    width = check_real("width", width, positive=True)
    box = _check_box(theta_box)
    rng_model, rng_server, rng_clients = (
        np.random.default_rng(child) for child in seed_sequence(seed).spawn(3)
    )
    centres = rng_model.random((bumps, d))
    M = rng_model.standard_normal((bumps, p, p))
    curvatures = np.einsum("kij,klj->kil", M, M) / p
    b0 = rng_model.standard_normal(p)
    B1 = rng_model.standard_normal((p, d))
    server = rng_server.random((r, d))
    clients = rng_clients.random((m * s, d)).reshape(m, s, d)
    samples = np.concatenate([server, clients.reshape(-1, d)])
    diff = samples[:, None, :] - centres[None, :, :]
    phi = np.exp(-np.sum(diff * diff, axis=2) / (2.0 * width**2))  # (n, K)
    A_bar = np.einsum("k,kij->ij", phi.mean(axis=0), curvatures) + mu * np.eye(p)
    A_bar = 0.5 * (A_bar + A_bar.T)
    b_bar = b0 + samples.mean(axis=0) @ B1.T
    eigen = np.linalg.eigvalsh(A_bar)
    L1, mu_F = float(eigen[-1]), float(eigen[0])
    _check_constants(L1, mu_F)
    per_sample = np.linalg.eigvalsh(np.einsum("nk,kij->nij", phi, curvatures) + mu * np.eye(p))
    theta_star = np.linalg.solve(A_bar, b_bar)
    return QuadraticLatentERM(
        server=readonly(server),
        clients=readonly(clients),
        mu=mu_F,
        L1=L1,
        theta_star=readonly(theta_star),
        F_star=float(-0.5 * b_bar @ theta_star),
        theta_box=box,
        centres=readonly(centres),
        width=width,
        curvatures=readonly(curvatures),
        b0=readonly(b0),
        B1=readonly(B1),
        ridge=mu,
        L1_sample=float(per_sample[:, -1].max()),
        mu_sample=float(per_sample[:, 0].min()),
    )
