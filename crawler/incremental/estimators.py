"""Change-rate estimators for pages whose changes follow a Poisson process.

From Cho and Garcia-Molina, "Estimating frequency of change", ACM TOIT 3(3), 2003
(formulas and their use in docs/incremental.md):

* :func:`regular_rate`: the bias-reduced estimator for visits at a regular interval I,
  ``r = -log((n - X + 0.5) / (n + 0.5)) / I`` (n visits, X of them found a change);
* :func:`irregular_rate`: the maximum-likelihood estimator for irregular intervals,
  the root of ``sum_changed t_i / (exp(r t_i) - 1) = sum_unchanged t_j``;
* :func:`last_modified_rate`: the estimator that uses the Last-Modified date,
  ``r = (X - 1 - X / (N log(1 - X/N))) / T``;
* :class:`RateGrid` / :func:`bayes_rate`: the Bayesian estimator (EB): a posterior over
  a grid of candidate rates, whose prior is the site's rate distribution (empirical
  Bayes: the mean posterior of the site's pages), so a page with little history is
  pooled with its site.

A rate is in changes per second; 0 means "never seen to change".
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Visit:
    """One observation of a page: ``interval`` seconds since the previous visit,
    whether it ``changed``, and when it changed the seconds from its last modification
    (Last-Modified) to this visit, if known (``since_modified`` <= ``interval``)."""

    interval: float
    changed: bool
    since_modified: float | None = None


@dataclass(frozen=True)
class RateEstimate:
    """A rate (per second) and its interval (per second)."""

    rate: float
    low: float
    high: float


def regular_rate(n: int, changes: int, interval: float) -> float:
    """Cho and Garcia-Molina's bias-reduced estimator for ``n`` visits ``interval``
    seconds apart, ``changes`` of which found the page changed (their eq. for r-hat)."""
    if n <= 0 or interval <= 0:
        raise ValueError("need n > 0 visits and a positive interval")
    if not 0 <= changes <= n:
        raise ValueError("changes must be between 0 and n")
    return -math.log((n - changes + 0.5) / (n + 0.5)) / interval


def regular_rate_interval(n: int, changes: int, interval: float, z: float = 1.96) -> RateEstimate:
    """:func:`regular_rate` with a confidence interval: a visit finds no change with
    probability ``p = exp(-r I)``; the Wilson score interval of p (n trials, n - X
    successes) mapped through ``r = -log(p) / I`` (monotone) bounds r."""
    rate = regular_rate(n, changes, interval)
    p_hat = (n - changes) / n
    centre = (p_hat + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p_hat * (1 - p_hat) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    p_low, p_high = max(centre - half, 1e-12), min(centre + half, 1.0)
    return RateEstimate(rate, -math.log(p_high) / interval, -math.log(p_low) / interval)


def irregular_rate(visits: Iterable[Visit]) -> float:
    """The maximum-likelihood rate for visits at irregular intervals (Cho and
    Garcia-Molina, section on irregular access): the root r of
    ``sum over changed t_i / (exp(r t_i) - 1) = sum over unchanged t_j``.
    0 when no visit found a change; ``inf`` when every visit did (no finite root)."""
    changed = np.array([v.interval for v in visits if v.changed], dtype=float)
    unchanged = sum(v.interval for v in visits if not v.changed)
    if changed.size == 0:
        return 0.0
    if unchanged <= 0:
        return math.inf

    def excess(rate: float) -> float:  # decreasing in rate
        x = np.minimum(rate * changed, 700.0)
        return float(np.sum(changed / np.expm1(x))) - unchanged

    low, high = 1e-12, 1.0
    while excess(high) > 0:
        high *= 10
    for _ in range(200):
        mid = math.sqrt(low * high)
        if excess(mid) > 0:
            low = mid
        else:
            high = mid
        if high / low < 1 + 1e-9:
            break
    return math.sqrt(low * high)


def last_modified_rate(visits: Sequence[Visit]) -> float:
    """Cho and Garcia-Molina's estimator using the last-modification date: over N visits,
    X found a change; T adds, for each visit, the time the page is known not to have
    changed (since its last modification for a changed visit, the whole interval
    otherwise); ``r = (X - 1 - X / (N log(1 - X/N))) / T`` (bias-reduced X / T).
    A changed visit without a known modification time counts its whole interval."""
    n = len(visits)
    x = sum(1 for v in visits if v.changed)
    total = sum(
        (v.since_modified if v.changed and v.since_modified is not None else v.interval)
        for v in visits
    )
    if n == 0 or x == 0 or total <= 0:
        return 0.0
    correction = 0.0 if x == n else x / (n * math.log(1 - x / n))
    return max(x - 1 - correction, 0.0) / total


class RateGrid:
    """The Bayesian estimator over a log-spaced grid of candidate rates.

    A page's evidence is its log-likelihood vector over the grid (added to visit by
    visit, so it is stored instead of the history); its posterior is that plus the log
    prior. The prior is the site's: :meth:`site_prior` averages the posteriors (under a
    flat prior) of the site's pages and keeps a share ``floor`` of the flat prior so that
    no rate is ever excluded.
    """

    def __init__(
        self, slowest: float = 1e-7, fastest: float = 10.0, points: int = 121, floor: float = 0.05
    ) -> None:
        self.rates = np.geomspace(slowest, fastest, points)
        self.log_rates = np.log(self.rates)
        self.floor = floor

    @property
    def size(self) -> int:
        return int(self.rates.size)

    def empty(self) -> np.ndarray:
        """The log-likelihood of no evidence."""
        return np.zeros(self.rates.size)

    def visit_loglik(self, visit: Visit) -> np.ndarray:
        """log P(visit | rate) for every grid rate: no change in the interval
        ``exp(-r I)``; a change with a known last modification s before the visit: the
        last change's density ``r exp(-r s)``; a change otherwise ``1 - exp(-r I)``."""
        r = self.rates
        if not visit.changed:
            return -r * max(visit.interval, 0.0)
        if visit.since_modified is not None and visit.since_modified >= 0:
            return self.log_rates - r * visit.since_modified
        return np.log(-np.expm1(-r * max(visit.interval, 1e-9)))

    def first_fetch(self, age: float | None, created: bool = False) -> np.ndarray:
        """The evidence of a first fetch whose Last-Modified was ``age`` seconds old: no
        change since, and a change then (none when the age is unknown or negative).
        ``created``: the Last-Modified is the page's creation, not a change (a stamp
        shared by many pages of the site, at the same second): only "no change
        for ``age`` seconds" is known. Counting a creation as a change gives a page that
        never changed the rate 1/age, however slow it really is."""
        if age is None or age < 0:
            return self.empty()
        if created:
            return self.visit_loglik(Visit(age, False))
        return self.visit_loglik(Visit(age, True, age))

    def loglik(self, visits: Iterable[Visit]) -> np.ndarray:
        total = self.empty()
        for visit in visits:
            total += self.visit_loglik(visit)
        return total

    def posterior(self, loglik: np.ndarray, prior: np.ndarray | None = None) -> np.ndarray:
        log_post = loglik + (np.log(prior) if prior is not None else 0.0)
        log_post = log_post - log_post.max()
        post = np.exp(log_post)
        return post / post.sum()

    def site_prior(self, logliks: Sequence[np.ndarray]) -> np.ndarray:
        """The empirical-Bayes prior of a site: the mean of its pages' posteriors under a
        flat prior, mixed with the flat prior (share ``floor``)."""
        flat = np.full(self.rates.size, 1.0 / self.rates.size)
        if not logliks:
            return flat
        mean = np.mean([self.posterior(ll) for ll in logliks], axis=0)
        return (1 - self.floor) * mean + self.floor * flat

    def estimate(
        self, loglik: np.ndarray, prior: np.ndarray | None = None, mass: float = 0.95
    ) -> RateEstimate:
        """The posterior's geometric-mean rate (``exp E[log r]``: on a grid spanning eight
        decades the arithmetic mean would be set by the floor's fast tail) and the
        central ``mass`` credible interval."""
        post = self.posterior(loglik, prior)
        cdf = np.cumsum(post)
        tail = (1 - mass) / 2
        low = self.rates[min(int(np.searchsorted(cdf, tail)), self.rates.size - 1)]
        high = self.rates[min(int(np.searchsorted(cdf, 1 - tail)), self.rates.size - 1)]
        return RateEstimate(float(np.exp(np.dot(post, self.log_rates))), float(low), float(high))


def url_pattern(url: str) -> str:
    """The kind of page a URL is, for pooling rates: its path's first segment and its
    depth, digits folded (``/article/2026/11/x-123`` -> ``article/4``; ``/`` -> ``/0``)."""
    path = url.split("://", 1)[-1].partition("/")[2].split("?", 1)[0].split("#", 1)[0]
    segments = [s for s in path.split("/") if s]
    head = re.sub(r"\d+", "#", segments[0]) if segments else ""
    return f"{head}/{len(segments)}"


def bayes_rate(
    visits: Iterable[Visit], prior: np.ndarray | None = None, grid: RateGrid | None = None
) -> RateEstimate:
    """The Bayesian (EB) estimate of a page's rate from its visits."""
    grid = grid or RateGrid()
    return grid.estimate(grid.loglik(visits), prior)
