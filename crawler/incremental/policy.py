"""The update decision (the survey's Update Module): when each collected page is revisited.

Per host (politeness makes the request budget a per-host quantity), the planner

1. gives every page a posterior over its change rate (the Bayesian estimator of
   :mod:`crawler.incremental.estimators`), its prior pooled from the site's other pages
   and from the pages of its kind (URL pattern);
2. turns the host's budget (revisits per second) into revisit frequencies with the
   selected policy:

   * ``optimal``: the allocation maximising the EXPECTED objective (freshness or age)
     over each page's posterior (Cho and Garcia-Molina's allocation when the rates are
     known), then shrunk toward round robin by how credible the page's estimate is:
     ``f = (1 - c) B/n + c f*``. A page seen once or twice (c = 0) is visited as round
     robin would: never given up, never starved, whatever its first observations
     suggested;
   * ``plugin``: the allocation of the point estimates taken as true (the policy of
     issue 18, kept for comparison: it gives up a page after two changed visits);
   * ``uniform`` (round robin), ``proportional`` (to the estimated rate);
3. returns each page's revisit interval, clamped to [min_interval, max_interval].

The page is due again ``interval`` seconds after its last fetch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from crawler import defaults
from crawler.incremental.allocation import (
    OBJECTIVES,
    GainTable,
    frequencies_at,
    optimal_frequencies,
    proportional_frequencies,
    shrink_to_uniform,
)
from crawler.incremental.estimators import RateEstimate, RateGrid, url_pattern

POLICIES = ("optimal", "uniform", "proportional", "plugin")
# Observations (the first fetch counts one) before a page's allocation may leave round
# robin's. With two, the simulation (bench/incremental_freshness.py) went below round
# robin in minutes 2-6: pages re-planned after one revisit took their new turns at once,
# while the turns the slowed pages gave back only came a round later.
CREDIBLE_AFTER = 3


def credibility(
    posterior: np.ndarray,
    gains: GainTable,
    mu: float,
    weight: float,
    uniform_freq: float,
    observations: int,
    quantiles: tuple[float, float] = (0.2, 0.8),
    spread: float = 10.0,
) -> float:
    """How far a page's allocation may move from round robin toward its target, 0..1.

    Decision-relevant: the frequencies the allocation (at multiplier ``mu``) would give
    the page if its rate were the posterior's lower or upper quantile. When both agree
    (a page surely never changing, surely too fast to follow, or surely in between) the
    estimate is credible; when they differ by ``spread`` times or more (say, between
    "visit often" and "give up") the page stays at round robin. With fewer than
    ``CREDIBLE_AFTER`` observations it is 0: a page seen once or twice is neither given
    up nor starved."""
    if observations < CREDIBLE_AFTER or not np.isfinite(mu):
        return 0.0
    cdf = np.cumsum(posterior)
    rows = [min(int(np.searchsorted(cdf, q)), cdf.size - 1) for q in quantiles]
    freq = gains.frequencies_at(mu, gains.table[rows] * weight)
    low, high = np.clip(freq, uniform_freq / spread, uniform_freq * spread)
    disagreement = abs(float(np.log(high / low))) / np.log(spread)
    return float(np.clip(1.0 - disagreement, 0.0, 1.0))


@dataclass
class PlannedPage:
    rate: RateEstimate
    interval: float
    credibility: float = 0.0


@dataclass
class HostPlan:
    """What a full plan of a host leaves for planning one page at a time until the next:
    the site's and each URL pattern's prior, the multiplier mu (optimal, plugin), the
    revisits per unit of rate (proportional), the uniform frequency, the weight floor."""

    prior: np.ndarray
    mu: float = 0.0
    full_mu: float = 0.0  # optimal: mu before the shrinkage, which credibility reads
    per_rate: float = 0.0
    uniform: float = 0.0
    weight_floor: float = 0.0
    pattern_priors: dict[str, np.ndarray] = field(default_factory=dict)


class RevisitPlanner:
    """Plans the revisits of one host's pages (plain algorithm, no I/O)."""

    def __init__(
        self,
        policy: str = defaults.INCREMENTAL_POLICY,
        min_interval: float = defaults.INCREMENTAL_MIN_INTERVAL,
        max_interval: float = defaults.INCREMENTAL_MAX_INTERVAL,
        grid: RateGrid | None = None,
        objective: str = defaults.INCREMENTAL_OBJECTIVE,
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown revisit policy {policy!r} (one of {', '.join(POLICIES)})")
        if objective not in OBJECTIVES:
            raise ValueError(f"unknown objective {objective!r} (one of {', '.join(OBJECTIVES)})")
        if not 0 < min_interval <= max_interval:
            raise ValueError("need 0 < min_interval <= max_interval")
        self.policy = policy
        self.objective = objective
        self.min_interval = min_interval
        self.max_interval = max_interval
        self.grid = grid or RateGrid()
        self.gains = GainTable(self.grid.rates, 1.0 / max_interval, 1.0 / min_interval, objective)

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
        self,
        logliks: Sequence[np.ndarray],
        importance: Sequence[float],
        budget: float,
        observations: Sequence[int] | None = None,
        urls: Sequence[str] | None = None,
    ) -> tuple[list[PlannedPage], HostPlan]:
        """Rate estimate and revisit interval of each page of one host, and the
        :class:`HostPlan` that :meth:`replan_page` uses until the next full plan.
        ``observations``: how many times each page was seen (its first fetch counts one;
        default: every page seen often); ``urls``: for the URL-pattern priors."""
        grid = self.grid
        host = HostPlan(grid.site_prior(logliks))
        if not logliks:
            return [], host
        n = len(logliks)
        groups = [url_pattern(u) for u in urls] if urls is not None else [""] * n
        for group in set(groups):
            members = [ll for ll, g in zip(logliks, groups, strict=True) if g == group]
            host.pattern_priors[group] = self._pattern_prior(members, host.prior)
        priors = [host.pattern_priors[g] for g in groups]
        posts = np.array([grid.posterior(ll, p) for ll, p in zip(logliks, priors, strict=True)])
        estimates = [grid.estimate(ll, p) for ll, p in zip(logliks, priors, strict=True)]
        rates = np.array([e.rate for e in estimates])
        f_min, f_max = self.f_bounds
        host.uniform = float(np.clip(budget / n, f_min, f_max))
        counts = list(observations) if observations is not None else [1 << 30] * n
        cred = np.zeros(n)
        if self.policy == "uniform":
            freq = np.full(n, host.uniform)
        elif self.policy == "proportional":
            total = rates.sum()
            host.per_rate = (budget - f_min * n) / total if total > 0 else 0.0
            freq = np.clip(proportional_frequencies(rates, budget, f_min), f_min, f_max)
        else:
            weights = np.maximum(np.asarray(importance, dtype=float), 0.0)
            host.weight_floor = weights[weights > 0].min() * 0.01 if weights.any() else 0.0
            w = self._weights(weights, host.weight_floor)
            if self.policy == "plugin":
                freq, host.mu = optimal_frequencies(rates, w, budget, f_min, f_max)
            else:
                gains = self.gains.page_gains(posts, w)
                _, host.full_mu = self.gains.allocate(gains, budget)
                # credibility at the unshrunk optimum's mu, then the budget re-balanced:
                # what uncertain pages keep at round robin, credible pages share
                cred = np.array(
                    [
                        credibility(p, self.gains, host.full_mu, wi, host.uniform, k)
                        for p, wi, k in zip(posts, w, counts, strict=True)
                    ]
                )
                target, host.mu = self.gains.allocate(gains, budget, cred)
                freq = np.clip(shrink_to_uniform(target, cred, budget), f_min, f_max)
        planned = [
            PlannedPage(e, float(i), float(c))
            for e, i, c in zip(estimates, self._interval(freq), cred, strict=True)
        ]
        return planned, host

    def _pattern_prior(self, members: Sequence[np.ndarray], site: np.ndarray) -> np.ndarray:
        """The prior of pages of one kind (URL pattern): pages of one kind (articles,
        section fronts) change alike, so their pooled posterior, trusted by the group's
        size (``m / (m + 3)``), and the site's prior for the rest (which keeps the flat
        prior's floor, so that no rate is excluded)."""
        grid = self.grid
        m = len(members)
        flat = np.full(grid.size, 1.0 / grid.size)
        kind = np.mean([grid.posterior(ll) for ll in members], axis=0)
        share = m / (m + 3.0)
        return (1 - grid.floor) * (share * kind + (1 - share) * site) + grid.floor * flat

    def replan_page(
        self,
        loglik: np.ndarray,
        importance: float,
        host: HostPlan,
        observations: int = 1 << 30,
        url: str | None = None,
    ) -> PlannedPage:
        """A page's new estimate and interval after a visit, at the host's last plan."""
        prior = host.prior
        if url is not None:
            prior = host.pattern_priors.get(url_pattern(url), host.prior)
        estimate = self.grid.estimate(loglik, prior)
        f_min, f_max = self.f_bounds
        rate = np.array([estimate.rate])
        cred = 0.0
        if host.uniform <= 0:  # no plan of its host yet: soon, the next plan decides
            freq = np.array([f_max])
        elif self.policy == "uniform":
            freq = np.array([host.uniform])
        elif self.policy == "proportional":
            freq = f_min + host.per_rate * rate
        else:
            weights = self._weights(np.array([max(importance, 0.0)]), host.weight_floor)
            if not np.isfinite(host.mu):
                freq = np.array([f_min])
            elif self.policy == "plugin":
                freq = frequencies_at(host.mu, rate, weights, f_min, f_max)
            else:
                post = self.grid.posterior(loglik, prior)
                target = self.gains.frequencies_at(
                    host.mu, self.gains.page_gains(post[None, :], weights)
                )
                cred = credibility(
                    post, self.gains, host.full_mu, float(weights[0]), host.uniform, observations
                )
                freq = (1 - cred) * host.uniform + cred * target
        interval = float(self._interval(np.clip(freq, f_min, f_max))[0])
        return PlannedPage(estimate, interval, cred)
