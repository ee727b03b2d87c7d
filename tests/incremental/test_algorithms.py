"""The incremental crawler's algorithms, tested directly (no Scrapy, no database)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from crawler.incremental.allocation import (
    age,
    freshness,
    optimal_frequencies,
    proportional_frequencies,
    uniform_frequencies,
)
from crawler.incremental.change import (
    BOILERPLATE,
    CONTENT,
    UNCHANGED,
    classify_change,
    text_digests,
)
from crawler.incremental.estimators import (
    RateGrid,
    Visit,
    bayes_rate,
    irregular_rate,
    last_modified_rate,
    regular_rate,
    regular_rate_interval,
)
from crawler.incremental.policy import RevisitPlanner
from crawler.incremental.refinement import Refinement, refinement_decision
from crawler.sandbox.changing import ChangingSite, spread_rates


def _regular_history(site: ChangingSite, page: int, interval: float, n: int) -> list[Visit]:
    """Visits of a sandbox page every ``interval`` seconds: changed or not, and the
    seconds since its Last-Modified time when it changed."""
    visits, previous = [], site.epoch
    for k in range(1, n + 1):
        t = site.epoch + k * interval
        before, _ = site.version(page, previous)
        after, modified = site.version(page, t)
        changed = after != before
        visits.append(Visit(interval, changed, t - modified if changed else None))
        previous = t
    return visits


def test_regular_estimator_on_simulated_history_lands_in_its_interval() -> None:
    rate = 1 / 90.0  # the sandbox page's true rate: one change in 90 s on average
    site = ChangingSite([rate], seed=3, epoch=0.0, clock=lambda: 0.0)
    visits = _regular_history(site, 0, 60.0, 400)
    changes = sum(v.changed for v in visits)
    estimate = regular_rate_interval(400, changes, 60.0)
    assert estimate.low <= rate <= estimate.high
    assert estimate.rate == pytest.approx(regular_rate(400, changes, 60.0))
    # the other estimators on the same history agree with the truth
    assert irregular_rate(visits) == pytest.approx(rate, rel=0.2)
    assert last_modified_rate(visits) == pytest.approx(rate, rel=0.2)
    bayes = bayes_rate(visits)
    assert bayes.low <= rate <= bayes.high


def test_bias_reduced_estimator_formula_and_edges() -> None:
    assert regular_rate(10, 0, 60) == pytest.approx(-math.log(10.5 / 10.5) / 60)
    assert regular_rate(10, 10, 60) == pytest.approx(-math.log(0.5 / 10.5) / 60)
    assert irregular_rate([Visit(10, False)]) == 0.0
    assert irregular_rate([Visit(10, True)]) == math.inf
    assert last_modified_rate([Visit(10, False), Visit(10, False)]) == 0.0


def test_irregular_estimator_solves_its_likelihood_equation() -> None:
    rng = random.Random(5)
    visits = [Visit(rng.uniform(5, 200), rng.random() < 0.4) for _ in range(50)]
    r = irregular_rate(visits)
    lhs = sum(v.interval / math.expm1(r * v.interval) for v in visits if v.changed)
    rhs = sum(v.interval for v in visits if not v.changed)
    assert lhs == pytest.approx(rhs, rel=1e-6)


def test_site_prior_pools_a_page_without_history() -> None:
    grid = RateGrid()
    fast = [grid.loglik([Visit(10, True)] * 5 + [Visit(10, False)] * 5) for _ in range(5)]
    slow = [grid.loglik([Visit(3600, False)] * 10) for _ in range(5)]
    for site in (fast, slow):
        prior = grid.site_prior(site)
        new_page = grid.estimate(grid.empty(), prior)
        own = grid.estimate(site[0], prior)
        assert abs(math.log(new_page.rate / own.rate)) < math.log(3)  # within 3x
    fast_new = grid.estimate(grid.empty(), grid.site_prior(fast)).rate
    slow_new = grid.estimate(grid.empty(), grid.site_prior(slow)).rate
    assert fast_new > 100 * slow_new


def test_never_changing_page_interval_grows() -> None:
    for policy in ("plugin", "optimal"):
        planner = RevisitPlanner(policy, min_interval=10, max_interval=86400)
        grid = planner.grid
        rng = random.Random(1)
        # the host's other pages change about once a minute
        logliks = [grid.loglik(Visit(60, rng.random() < 0.6) for _ in range(20)) for _ in range(9)]
        logliks.insert(0, grid.empty())
        intervals = []
        for _ in range(8):
            planned, _ = planner.plan(logliks, [1.0] * 10, budget=0.1)
            intervals.append(planned[0].interval)
            logliks[0] = logliks[0] + grid.visit_loglik(Visit(planned[0].interval, False))
        if policy == "plugin":
            assert all(b >= a for a, b in zip(intervals, intervals[1:], strict=False))
        else:  # while unsure it is held at round robin's 100 s, never shorter
            assert min(intervals) >= 100 - 1e-6
        assert intervals[-1] > 3 * intervals[0]


def test_replan_page_matches_the_full_plan() -> None:
    planner = RevisitPlanner("optimal", min_interval=1, max_interval=86400)
    grid = planner.grid
    logliks = [grid.loglik([Visit(30 * (i + 1), i % 2 == 0)] * 4) for i in range(12)]
    importance = [1.0 + i for i in range(12)]
    planned, host = planner.plan(logliks, importance, budget=0.05)
    alone = planner.replan_page(logliks[3], importance[3], host)
    # the full plan spreads its bisection's last rounding over the pages
    assert alone.interval == pytest.approx(planned[3].interval, rel=5e-3)


def test_optimal_allocation_spends_the_budget_and_starves_the_fastest() -> None:
    rates = np.array([1 / 2, 1 / 60, 1 / 600, 1 / 3600, 0.0])
    budget = 1 / 30
    freq, mu = optimal_frequencies(rates, None, budget, f_min=1e-6, f_max=1.0)
    assert freq.sum() == pytest.approx(budget, rel=1e-6)
    assert mu > 0
    # the page changing every 2 s cannot be kept fresh: it gets the floor, not the most
    assert freq[0] == pytest.approx(1e-6)
    assert freq[4] == pytest.approx(1e-6)
    best = np.mean(freshness(rates, freq))
    assert best > np.mean(freshness(rates, uniform_frequencies(5, budget)))
    assert best > np.mean(freshness(rates, proportional_frequencies(rates, budget, 1e-6)))
    # importance shifts visits toward the important page
    weighted, _ = optimal_frequencies(rates, np.array([1, 1, 10, 1, 1.0]), budget, 1e-6, 1.0)
    assert weighted[2] > freq[2]


def test_freshness_and_age_formulas() -> None:
    assert float(freshness(1 / 60, 1 / 60)) == pytest.approx(1 - math.exp(-1))
    assert float(freshness(0.0, 1.0)) == 1.0
    interval, rate = 60.0, 1 / 60
    x = rate * interval
    assert float(age(rate, 1 / interval)) == pytest.approx(
        interval * (0.5 - 1 / x + (1 - math.exp(-x)) / x**2)
    )


def test_change_kinds() -> None:
    old = text_digests("News", "Lead story about rivers. Page generated on 2026-11-23 15:32")
    same = text_digests("News", "Lead story about rivers. Page generated on 2026-11-23 15:32")
    footer = text_digests("News", "Lead story about rivers. Page generated on 2026-11-23 15:33")
    real = text_digests("News", "Lead story about glaciers. Page generated on 2026-11-23 15:33")
    assert classify_change(old, same) == UNCHANGED
    assert classify_change(old, footer) == BOILERPLATE
    assert classify_change(old, real) == CONTENT
    assert classify_change(None, real) == CONTENT


def test_refinement_decision() -> None:
    assert refinement_decision(3, 5, 0.1, ("a", 0.5)) == Refinement(True)
    assert refinement_decision(5, 5, 0.9, ("a", 0.5)) == Refinement(True, "a")
    assert refinement_decision(5, 5, 0.4, ("a", 0.5)) == Refinement(False)
    assert refinement_decision(500, 0, 0.0, ("a", 0.5)) == Refinement(True)


def test_changing_site_is_deterministic_and_serves_validators() -> None:
    rates = spread_rates(50, seed=9)
    a = ChangingSite(rates, seed=9, epoch=1000.0, clock=lambda: 5000.0)
    b = ChangingSite(rates, seed=9, epoch=1000.0, clock=lambda: 5000.0)
    assert [a.version(i, 5000.0) for i in range(50)] == [b.version(i, 5000.0) for i in range(50)]
    assert a.page(7).body == b.page(7).body
    assert sum(r == 0 for r in rates) > 0 and max(rates) > 100 * min(r for r in rates if r)
    first = a.page(1, 1000.0)
    assert set(first.headers) == {"ETag", "Last-Modified"}
