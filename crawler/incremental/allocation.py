"""Revisit frequencies under a request budget (Cho and Garcia-Molina, "Synchronizing a
database to improve freshness", SIGMOD 2000).

A page changing at rate r (Poisson) and revisited every I = 1/f seconds is fresh, on
average over time, a share ``F(r, f) = (f / r) (1 - exp(-r / f))`` of the time; its mean
age is ``A(r, f) = I (1/2 - 1/(r I) + (1 - exp(-r I)) / (r I)^2)``.

:func:`optimal_frequencies` maximises ``sum_i w_i F(r_i, f_i)`` subject to
``sum_i f_i = B`` (the budget, revisits per second), each ``f_i`` within
``[f_min, f_max]``. With Lagrange multiplier mu the optimum satisfies
``w_i dF/df = mu``, and ``dF/df = g(r/f) / r`` with ``g(x) = 1 - (1 + x) exp(-x)``
increasing from 0 to 1: so ``f_i = r_i / g^-1(mu r_i / w_i)`` when ``mu r_i / w_i < 1``
and ``f_i = f_min`` otherwise -- a page changing too fast for the budget to follow gets
the fewest visits, not the most (the paper's central result). mu is found by bisection.

:func:`uniform_frequencies` and :func:`proportional_frequencies` are the two policies the
paper compares against.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def freshness(rate: np.ndarray | float, freq: np.ndarray | float) -> np.ndarray:
    """Time-averaged freshness F(r, f) (1 for a page that never changes, 0 unvisited)."""
    r = np.asarray(rate, dtype=float)
    f = np.asarray(freq, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = r / f
        value = np.where(x > 1e-9, -np.expm1(-x) / x, 1.0)
    return np.where(f > 0, value, np.where(r > 0, 0.0, 1.0))


def age(rate: np.ndarray | float, freq: np.ndarray | float) -> np.ndarray:
    """Time-averaged age A(r, f) in seconds (0 for a page that never changes)."""
    r = np.asarray(rate, dtype=float)
    f = np.asarray(freq, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        interval = 1.0 / f
        x = r * interval
        value = interval * (0.5 - 1.0 / x - np.expm1(-x) / (x * x))
    return np.where(x > 1e-6, value, 0.0)


def _g_inverse(y: np.ndarray) -> np.ndarray:
    """x with ``1 - (1 + x) exp(-x) = y`` for y in (0, 1) (bisection, vectorised)."""
    low = np.zeros_like(y)
    high = np.full_like(y, 60.0)
    for _ in range(80):
        mid = (low + high) / 2
        below = 1 - (1 + mid) * np.exp(-mid) < y
        low = np.where(below, mid, low)
        high = np.where(below, high, mid)
    return (low + high) / 2


def frequencies_at(
    mu: float, rates: np.ndarray, weights: np.ndarray, f_min: float, f_max: float
) -> np.ndarray:
    """The optimal frequencies at multiplier ``mu`` (one page can be planned alone with
    the mu of its host's last full allocation)."""
    freq = np.full(rates.shape, f_min)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = mu * rates / weights
    live = (rates > 0) & (weights > 0) & (y < 1)
    if live.any():
        x = _g_inverse(y[live])
        freq[live] = rates[live] / np.maximum(x, 1e-12)
    return np.clip(freq, f_min, f_max)


def optimal_frequencies(
    rates: np.ndarray,
    weights: np.ndarray | None,
    budget: float,
    f_min: float = 0.0,
    f_max: float = np.inf,
) -> tuple[np.ndarray, float]:
    """Revisit frequencies maximising weighted time-averaged freshness under
    ``sum f = budget`` (within ``[f_min, f_max]``), and the multiplier mu found."""
    rates = np.asarray(rates, dtype=float)
    weights = np.ones_like(rates) if weights is None else np.asarray(weights, dtype=float)
    n = rates.size
    if n == 0:
        return rates.copy(), 0.0
    if n * f_min >= budget:  # the floor alone spends the budget
        return np.full(n, f_min), np.inf
    ceiling = np.where((rates > 0) & (weights > 0), f_max, f_min)
    if ceiling.sum() <= budget:  # every changing page at f_max fits the budget
        return ceiling, 0.0
    low, high = 1e-30, 1.0
    while frequencies_at(high, rates, weights, f_min, f_max).sum() > budget:
        high *= 10
        if high > 1e30:
            break
    mu = bisect_mu(
        lambda m: float(frequencies_at(m, rates, weights, f_min, f_max).sum()), budget, low, high
    )
    freq = frequencies_at(mu, rates, weights, f_min, f_max)
    # spread rounding leftovers over the pages not at a bound (keeps sum f = budget)
    spare = budget - freq.sum()
    free = (freq > f_min) & (freq < f_max)
    if free.any() and abs(spare) > 0:
        freq[free] = np.clip(freq[free] * (1 + spare / freq[free].sum()), f_min, f_max)
    return freq, mu


def bisect_mu(
    spend: Callable[[float], float],
    budget: float,
    low: float,
    high: float,
    tolerance: float = 1e-9,
) -> float:
    """The multiplier mu at which ``spend(mu)`` (decreasing in mu) meets ``budget``:
    bisection in log scale between ``low`` and ``high``."""
    for _ in range(200):
        mid = np.sqrt(low * high)
        if spend(mid) > budget:
            low = mid
        else:
            high = mid
        if high / low < 1 + tolerance:
            break
    return float(np.sqrt(low * high))


def uniform_frequencies(n: int, budget: float) -> np.ndarray:
    """Every page revisited equally often (round robin)."""
    return np.full(n, budget / n) if n else np.zeros(0)


def proportional_frequencies(rates: np.ndarray, budget: float, f_min: float = 0.0) -> np.ndarray:
    """Revisit frequency proportional to the change rate (pages that never change get
    ``f_min``)."""
    rates = np.asarray(rates, dtype=float)
    freq = np.full(rates.shape, f_min)
    spare = budget - f_min * rates.size
    total = rates.sum()
    if total > 0 and spare > 0:
        freq = freq + spare * rates / total
    return freq


# --- allocation under uncertainty (issue 26) -------------------------------------------
#
# The closed form above needs each page's rate. With a posterior over a grid of rates,
# the allocation maximises the EXPECTED objective instead: each page's utility
# ``U_i(f) = w_i E_post[F(r, f)]`` (or ``-w_i E_post[A(r, f)]``) is still concave in f,
# so the optimum still equalises marginal gains, ``U_i'(f_i) = mu``. The marginal gains
# are tabulated on a log-spaced grid of frequencies (one matrix product per plan), and
# mu found by bisection on that table.

OBJECTIVES = ("freshness", "age")


def freshness_gain(rate: np.ndarray, freq: np.ndarray) -> np.ndarray:
    """dF/df = g(r/f) / r with g(x) = 1 - (1 + x) exp(-x) (0 for a page that never
    changes). Broadcasts ``rate`` against ``freq``."""
    r = np.asarray(rate, dtype=float)
    f = np.asarray(freq, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x = r / f
        g = np.where(x < 1e-4, x * x / 2 - x**3 / 3, -np.expm1(-x) - x * np.exp(-x))
        value = np.where(r > 0, g / r, 0.0)
    return np.maximum(value, 0.0)


def age_gain(rate: np.ndarray, freq: np.ndarray) -> np.ndarray:
    """-dA/df = I^2 (1/2 - g(x) / x^2), I = 1/f, x = r I: what one more visit per second
    takes off the page's mean age. Unlike freshness it does not vanish for a page
    changing much faster than it is visited (its age keeps growing between visits)."""
    r = np.asarray(rate, dtype=float)
    f = np.asarray(freq, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        interval = 1.0 / f
        x = r * interval
        g = -np.expm1(-x) - x * np.exp(-x)
        term = np.where(x < 1e-3, x / 3 - x * x / 8, 0.5 - g / (x * x))
        value = interval * interval * term
    return np.where(r > 0, np.maximum(value, 0.0), 0.0)


GAINS = {"freshness": freshness_gain, "age": age_gain}


class GainTable:
    """Marginal gains of every grid rate at every tabulated frequency:
    ``table[j, k] = gain(rates[j], freqs[k])`` for one objective, frequencies
    log-spaced over ``[f_min, f_max]``."""

    def __init__(
        self,
        rates: np.ndarray,
        f_min: float,
        f_max: float,
        objective: str = "freshness",
        points: int = 600,
    ) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"unknown objective {objective!r} (one of {', '.join(OBJECTIVES)})")
        self.objective = objective
        self.freqs = np.geomspace(f_min, f_max, points)
        self.log_freqs = np.log(self.freqs)
        self.table = GAINS[objective](np.asarray(rates, dtype=float)[:, None], self.freqs[None, :])

    def page_gains(self, posteriors: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """Expected marginal gain of each page (rows: posteriors over the grid rates) at
        each tabulated frequency, times its weight; rows are non-increasing."""
        gains = (np.atleast_2d(posteriors) @ self.table) * np.asarray(weights)[:, None]
        # concavity holds exactly; the running minimum removes rounding wiggles
        return np.minimum.accumulate(gains, axis=1)

    def frequencies_at(self, mu: float, gains: np.ndarray) -> np.ndarray:
        """Each page's frequency where its expected marginal gain falls to ``mu``
        (log-linear interpolation between tabulated frequencies)."""
        above = (gains >= mu).sum(axis=1)  # tabulated frequencies still worth mu
        k = np.clip(above - 1, 0, self.freqs.size - 2)
        rows = np.arange(gains.shape[0])
        g0, g1 = gains[rows, k], gains[rows, k + 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(g0 > g1, (g0 - mu) / (g0 - g1), 0.0)
        log_f = self.log_freqs[k] + np.clip(t, 0.0, 1.0) * (
            self.log_freqs[k + 1] - self.log_freqs[k]
        )
        freq = np.exp(log_f)
        freq = np.where(above == 0, self.freqs[0], freq)
        return np.where(above == self.freqs.size, self.freqs[-1], freq)

    def allocate(
        self, gains: np.ndarray, budget: float, shares: np.ndarray | None = None
    ) -> tuple[np.ndarray, float]:
        """Frequencies maximising the summed expected utility under ``sum f = budget``,
        and the multiplier mu. ``shares`` (0..1 per page): only that share of a page's
        frequency is allocated, the rest is held at round robin's ``budget / n``
        (:func:`shrink_to_uniform`); mu then balances what the credible shares take
        against what the others leave."""
        n = gains.shape[0]
        if n == 0:
            return np.zeros(0), 0.0
        if shares is not None:
            c = np.clip(np.asarray(shares, dtype=float), 0.0, 1.0)
            held = float(((1 - c) * (budget / n)).sum())
            if c.sum() <= 0:
                return np.full(n, budget / n), self.allocate(gains, budget)[1]
            weighted = gains[c > 0]
            part, mu = self._solve(weighted, budget - held, c[c > 0])
            target = self.frequencies_at(mu, gains)
            target[c > 0] = part
            return target, mu
        return self._solve(gains, budget, np.ones(n))

    def _solve(self, gains: np.ndarray, budget: float, c: np.ndarray) -> tuple[np.ndarray, float]:
        """mu with ``sum c f(mu) = budget``; the frequencies f(mu)."""
        n = gains.shape[0]
        if (c * self.freqs[0]).sum() >= budget:
            return np.full(n, self.freqs[0]), np.inf
        if (c * self.freqs[-1]).sum() <= budget:
            return np.full(n, self.freqs[-1]), 0.0
        positive = gains[gains > 0]
        if positive.size == 0:
            return np.full(n, budget / c.sum()), 0.0
        mu = bisect_mu(
            lambda m: float((c * self.frequencies_at(m, gains)).sum()),
            budget,
            float(positive.min()) * 1e-3,
            float(gains.max()) * 2,
            tolerance=1e-12,
        )
        freq = self.frequencies_at(mu, gains)
        spare = budget - (c * freq).sum()
        free = (freq > self.freqs[0]) & (freq < self.freqs[-1])
        if free.any() and spare:
            scale = 1 + spare / (c[free] * freq[free]).sum()
            freq[free] = np.clip(freq[free] * scale, self.freqs[0], self.freqs[-1])
        return freq, mu


def shrink_to_uniform(target: np.ndarray, credibility: np.ndarray, budget: float) -> np.ndarray:
    """``(1 - c) * uniform + c * target`` per page: a page whose estimate is not yet
    credible (c = 0) gets round robin's frequency. Both ends spend ``budget``, so the
    mixture does too."""
    n = target.size
    if n == 0:
        return target.copy()
    c = np.clip(np.asarray(credibility, dtype=float), 0.0, 1.0)
    return (1 - c) * (budget / n) + c * np.asarray(target, dtype=float)
