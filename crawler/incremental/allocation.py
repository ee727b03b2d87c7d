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


def frequencies_at(mu: float, rates: np.ndarray, weights: np.ndarray, f_min: float,
                   f_max: float) -> np.ndarray:
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
    for _ in range(200):
        mid = np.sqrt(low * high)
        if frequencies_at(mid, rates, weights, f_min, f_max).sum() > budget:
            low = mid
        else:
            high = mid
        if high / low < 1 + 1e-9:
            break
    mu = float(np.sqrt(low * high))
    freq = frequencies_at(mu, rates, weights, f_min, f_max)
    # spread rounding leftovers over the pages not at a bound (keeps sum f = budget)
    spare = budget - freq.sum()
    free = (freq > f_min) & (freq < f_max)
    if free.any() and abs(spare) > 0:
        freq[free] = np.clip(freq[free] * (1 + spare / freq[free].sum()), f_min, f_max)
    return freq, mu


def uniform_frequencies(n: int, budget: float) -> np.ndarray:
    """Every page revisited equally often (round robin)."""
    return np.full(n, budget / n) if n else np.zeros(0)


def proportional_frequencies(rates: np.ndarray, budget: float, f_min: float = 0.0
                             ) -> np.ndarray:
    """Revisit frequency proportional to the change rate (pages that never change get
    ``f_min``)."""
    rates = np.asarray(rates, dtype=float)
    freq = np.full(rates.shape, f_min)
    spare = budget - f_min * rates.size
    total = rates.sum()
    if total > 0 and spare > 0:
        freq = freq + spare * rates / total
    return freq
