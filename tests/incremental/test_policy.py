"""The revisit policy of issue 26 and the budget, tested directly (no Scrapy, no database):
exact allocations on small cases, round robin while the estimates are not credible."""

from __future__ import annotations

import numpy as np
import pytest

from crawler.incremental.allocation import (
    GainTable,
    age_gain,
    freshness_gain,
    optimal_frequencies,
    shrink_to_uniform,
)
from crawler.incremental.budget import RevisitPacer, revisit_budget
from crawler.incremental.estimators import RateGrid, Visit, url_pattern
from crawler.incremental.policy import RevisitPlanner, credibility

RATES = np.array([1 / 2, 1 / 60, 1 / 600, 1 / 3600, 0.0])
BUDGET = 1 / 30


def _known(objective: str) -> np.ndarray:
    table = GainTable(RATES, 1e-6, 1.0, objective)
    freq, _ = table.allocate(table.page_gains(np.eye(RATES.size), np.ones(RATES.size)), BUDGET)
    return freq


def test_expected_freshness_allocation_of_known_rates_is_the_closed_form() -> None:
    freq = _known("freshness")
    closed, _ = optimal_frequencies(RATES, None, BUDGET, 1e-6, 1.0)
    assert freq.sum() == pytest.approx(BUDGET, rel=1e-9)
    assert freq == pytest.approx(closed, rel=1e-3)
    # the numbers: the page changing every 2 s and the one never changing get the floor
    assert freq == pytest.approx([1e-6, 0.0216418, 0.0082020, 0.0034875, 1e-6], rel=1e-3)


def test_age_allocation_visits_the_fastest_most() -> None:
    freq = _known("age")
    assert freq.sum() == pytest.approx(BUDGET, rel=1e-9)
    assert freq == pytest.approx([0.0136523, 0.0107448, 0.0057120, 0.0032232, 1e-6], rel=1e-3)
    # Lagrange: equal marginal gains for every page above the floor
    gains = age_gain(RATES[:4], freq[:4])
    assert gains == pytest.approx(np.full(4, gains[0]), rel=2e-2)


def test_marginal_gains() -> None:
    # dF/df at r = f: g(1) / r with g(1) = 1 - 2/e
    assert float(freshness_gain(0.01, 0.01)) == pytest.approx((1 - 2 / np.e) / 0.01)
    assert float(freshness_gain(0.0, 0.01)) == 0.0
    # -dA/df = I^2 (1/2 - g(x)/x^2); at x = 1: 100^2 * (1/2 - (1 - 2/e))
    assert float(age_gain(0.01, 0.01)) == pytest.approx(1e4 * (0.5 - (1 - 2 / np.e)))
    assert float(age_gain(0.0, 0.01)) == 0.0


def test_one_observation_per_page_is_round_robin() -> None:
    """Whatever the first fetch suggested (Last-Modified seconds or months old), a page
    seen once is revisited as round robin would."""
    for objective in ("freshness", "age"):
        planner = RevisitPlanner("optimal", 10, 86400, objective=objective)
        grid = planner.grid
        logliks = [grid.first_fetch(age) for age in (2, 30, 600, 86400, 1e7, None)]
        planned, _ = planner.plan(logliks, [1.0] * 6, 0.06, observations=[1] * 6)
        assert [p.interval for p in planned] == pytest.approx([100.0] * 6, rel=1e-9)
        assert [p.credibility for p in planned] == [0.0] * 6


def test_two_observations_are_round_robin_then_the_optimum() -> None:
    planner = RevisitPlanner("optimal", 1, 86400)
    grid = planner.grid
    # evidence of a page changing every second or so, of one that never changes and of
    # two changing about every two minutes
    fast = grid.loglik([Visit(100, True, 1)] * 9)
    still = grid.loglik([Visit(1e6, False)] + [Visit(100, False)] * 8)
    medium = grid.loglik([Visit(100, True, 60), Visit(100, False)] * 5)
    logliks = [fast, still, medium, medium]
    uniform_interval = 100.0
    # counted as two observations each: round robin, whatever the evidence says
    planned, _ = planner.plan(logliks, [1.0] * 4, 0.04, observations=[2] * 4)
    assert [p.credibility for p in planned] == [0.0] * 4
    assert [p.interval for p in planned] == pytest.approx([uniform_interval] * 4)
    # seen ten times: the optimum, which gives up the page it cannot keep fresh
    many, _ = planner.plan(logliks, [1.0] * 4, 0.04, observations=[10] * 4)
    assert [p.credibility for p in many[:2]] == [1.0, 1.0]
    assert many[0].interval > 10 * uniform_interval
    assert many[1].interval > 10 * uniform_interval
    assert sum(1 / p.interval for p in many) == pytest.approx(0.04, rel=1e-6)


def test_credibility() -> None:
    grid = RateGrid()
    table = GainTable(grid.rates, 1e-6, 1.0)
    flat = grid.posterior(grid.empty())
    sure_still = grid.posterior(grid.loglik([Visit(1e7, False)] * 3))
    assert credibility(sure_still, table, 1.0, 1.0, 0.01, observations=1) == 0.0
    assert credibility(flat, table, 1.0, 1.0, 0.01, observations=9) == 0.0  # unknown
    assert credibility(sure_still, table, 1.0, 1.0, 0.01, observations=2) == 0.0
    assert credibility(sure_still, table, 1.0, 1.0, 0.01, observations=3) == 1.0


def test_shrink_to_uniform() -> None:
    target = np.array([0.0, 0.3, 0.7])
    assert shrink_to_uniform(target, np.zeros(3), 1.0) == pytest.approx([1 / 3] * 3)
    assert shrink_to_uniform(target, np.ones(3), 1.0) == pytest.approx(target)
    assert shrink_to_uniform(target, np.full(3, 0.5), 1.0).sum() == pytest.approx(1.0)


def test_creation_stamp_is_no_change() -> None:
    """A Last-Modified a day old that is the site's creation says "no change for a day",
    not "changed a day ago": the estimate is much slower."""
    grid = RateGrid()
    as_change = grid.estimate(grid.first_fetch(86400)).rate
    as_creation = grid.estimate(grid.first_fetch(86400, created=True)).rate
    assert as_creation < as_change / 5


def test_url_pattern() -> None:
    assert url_pattern("http://n.test/") == "/0"
    assert url_pattern("http://n.test/article/2026/11/x-123?p=1") == "article/4"
    assert url_pattern("http://n.test/2026/story") == "#/2"
    assert url_pattern("http://n.test/section/world") == "section/2"


def test_revisit_share_is_a_cap_not_a_reservation() -> None:
    assert revisit_budget(1.0, 0.8, 0.0, new_pages_waiting=False) == 1.0
    assert revisit_budget(1.0, 0.8, 0.0, new_pages_waiting=True) == 0.8
    assert revisit_budget(2.0, 0.8, 0.5, new_pages_waiting=False) == 0.5


def test_pacer() -> None:
    pacer = RevisitPacer(rate=2.0, burst=2, now=0.0)
    assert pacer.available(0.0) == 2
    pacer.take(2, 0.0)
    assert pacer.available(0.0) == 0
    assert pacer.wait(0.0) == pytest.approx(0.5)
    assert pacer.available(0.5) == 1
    assert pacer.available(10.0) == 2  # never more than the burst
