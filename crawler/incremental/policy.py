"""The update decision (the survey's Update Module): when each collected page is revisited.

Per host (politeness makes the request budget a per-host quantity), the planner

1. estimates every page's change rate with the Bayesian estimator of
   :mod:`crawler.incremental.estimators`, the site's pages pooled into its prior;
2. turns the host's budget (revisits per second) into revisit frequencies with the
   selected policy: ``optimal`` (Cho and Garcia-Molina's freshness-maximising
   allocation, weighted by importance), ``uniform`` (round robin) or ``proportional``
   (frequency proportional to the estimated rate);
3. returns each page's revisit interval, clamped to [min_interval, max_interval].

The page is due again ``interval`` seconds after its last fetch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from crawler import defaults
from crawler.incremental.allocation import (
    frequencies_at,
    optimal_frequencies,
    proportional_frequencies,
)
from crawler.incremental.estimators import RateEstimate, RateGrid

POLICIES = ("optimal", "uniform", "proportional")


@dataclass
class PlannedPage:
    rate: RateEstimate
    interval: float


@dataclass
class HostPlan:
    """What a full plan of a host leaves for planning one page at a time until the next:
    the site prior, the allocation's multiplier mu (optimal), the revisits per unit of
    rate (proportional), the uniform frequency, and the weight floor."""

    prior: np.ndarray
    mu: float = 0.0
    per_rate: float = 0.0
    uniform: float = 0.0
    weight_floor: float = 0.0


class RevisitPlanner:
    """Plans the revisits of one host's pages (plain algorithm, no I/O)."""

    def __init__(
        self,
        policy: str = defaults.INCREMENTAL_POLICY,
        min_interval: float = defaults.INCREMENTAL_MIN_INTERVAL,
        max_interval: float = defaults.INCREMENTAL_MAX_INTERVAL,
        grid: RateGrid | None = None,
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown revisit policy {policy!r} (one of {', '.join(POLICIES)})")
        if not 0 < min_interval <= max_interval:
            raise ValueError("need 0 < min_interval <= max_interval")
        self.policy = policy
        self.min_interval = min_interval
        self.max_interval = max_interval
        self.grid = grid or RateGrid()

    def estimates(self, logliks: Sequence[np.ndarray]) -> list[RateEstimate]:
        """Each page's rate, its site's pages pooled into the prior."""
        prior = self.grid.site_prior(logliks)
        return [self.grid.estimate(ll, prior) for ll in logliks]

    @property
    def f_bounds(self) -> tuple[float, float]:
        return 1.0 / self.max_interval, 1.0 / self.min_interval

    def _weights(self, importance: np.ndarray, floor: float) -> np.ndarray:
        # a page of unknown (0) importance still counts a little
        return np.maximum(importance, floor) if floor > 0 else np.ones(importance.size)

    def _interval(self, freq: np.ndarray | float) -> np.ndarray:
        return np.clip(1.0 / np.maximum(freq, 1e-300), self.min_interval, self.max_interval)

    def plan(
        self, logliks: Sequence[np.ndarray], importance: Sequence[float], budget: float
    ) -> tuple[list[PlannedPage], HostPlan]:
        """Rate estimate and revisit interval of each page of one host, and the
        :class:`HostPlan` that :meth:`replan_page` uses until the next full plan."""
        prior = self.grid.site_prior(logliks)
        host = HostPlan(prior)
        if not logliks:
            return [], host
        estimates = [self.grid.estimate(ll, prior) for ll in logliks]
        rates = np.array([e.rate for e in estimates])
        f_min, f_max = self.f_bounds
        n = rates.size
        if self.policy == "uniform":
            host.uniform = budget / n
            freq = np.clip(np.full(n, host.uniform), f_min, f_max)
        elif self.policy == "proportional":
            total = rates.sum()
            host.per_rate = (budget - f_min * n) / total if total > 0 else 0.0
            freq = np.clip(proportional_frequencies(rates, budget, f_min), f_min, f_max)
        else:
            weights = np.maximum(np.asarray(importance, dtype=float), 0.0)
            host.weight_floor = weights[weights > 0].min() * 0.01 if weights.any() else 0.0
            freq, host.mu = optimal_frequencies(
                rates, self._weights(weights, host.weight_floor), budget, f_min, f_max
            )
        planned = [
            PlannedPage(e, float(i)) for e, i in zip(estimates, self._interval(freq), strict=True)
        ]
        return planned, host

    def replan_page(self, loglik: np.ndarray, importance: float, host: HostPlan) -> PlannedPage:
        """A page's new estimate and interval after a visit, at the host's last plan."""
        estimate = self.grid.estimate(loglik, host.prior)
        f_min, f_max = self.f_bounds
        rate = np.array([estimate.rate])
        if self.policy == "uniform":
            freq = np.array([host.uniform])
        elif self.policy == "proportional":
            freq = f_min + host.per_rate * rate
        else:
            weights = self._weights(np.array([max(importance, 0.0)]), host.weight_floor)
            if not np.isfinite(host.mu):
                freq = np.array([f_min])
            else:
                freq = frequencies_at(host.mu, rate, weights, f_min, f_max)
        return PlannedPage(estimate, float(self._interval(np.clip(freq, f_min, f_max))[0]))
