"""Link relevance, priority buckets, the tunnelling rule and harvest intervals."""

from __future__ import annotations

import pytest

from crawler.focus import (
    HarvestIntervals,
    LinkScoreParams,
    RelevanceModel,
    TunnelPolicy,
    WeightParams,
    link_relevance,
    parent_share,
    parse_query,
    priority_bucket,
)


def test_parent_share():
    assert parent_share(0.0, 1.0) == 0.0
    assert parent_share(1.0, 1.0) == 0.5
    assert parent_share(3.0, 1.0) == 0.75
    assert parent_share(-2.0, 1.0) == 0.0


def test_link_relevance_is_the_weighted_mean_of_its_parts():
    assert link_relevance(parent=0.75, anchor=1.0, url=0.5) == pytest.approx(0.75)
    params = LinkScoreParams(parent=2.0, anchor=1.0, url=0.0)
    assert link_relevance(parent=0.5, anchor=1.0, url=1.0, params=params) == pytest.approx(2 / 3)
    with pytest.raises(ValueError):
        LinkScoreParams(parent=0, anchor=0, url=0)


def test_priority_buckets():
    assert [priority_bucket(r, 100) for r in (0.0, 0.004, 0.5, 0.999, 1.0, 7.0, -1.0)] == [
        0, 0, 50, 100, 100, 100, 0,
    ]


def test_link_scores_of_a_judged_page():
    model = RelevanceModel(parse_query("java"), weights=WeightParams())
    page = model.judge(url="http://www.javadev.test/a", title="Java tips", text="java " * 3,
                       outlinks=0)
    assert page.weight == pytest.approx(1.0 + 1.0 + 3.0)
    scores = model.link_scores(page, [
        ("Java generics", "http://www.javadev.test/generics"),
        ("read more", "http://www.javadev.test/more"),
        ("Pasta", "http://www.cooking.test/pasta"),
    ])
    parent = 5.0 / 6.0
    assert scores == pytest.approx([(parent + 1 + 1) / 3, (parent + 0 + 1) / 3, parent / 3])


def test_tunnel_runs_and_limit():
    tunnel = TunnelPolicy(2)
    run = 0  # a seed
    runs = []
    for relevant in (False, False, False, True, False):
        run = tunnel.run_of(run, relevant)
        runs.append((run, tunnel.follows(run)))
    assert runs == [(1, True), (2, True), (3, False), (0, True), (1, True)]
    assert not TunnelPolicy(0).follows(1) and TunnelPolicy(0).follows(0)
    with pytest.raises(ValueError):
        TunnelPolicy(-1)


def test_harvest_intervals():
    intervals = HarvestIntervals(start=100.0)
    first = intervals.sample(10, 4, now=130.0)
    assert (first.pages, first.relevant, first.interval_pages, first.interval_relevant) == (
        10, 4, 10, 4)
    assert (first.rate, first.interval_rate, first.interval_seconds) == (0.4, 0.4, 30.0)
    second = intervals.sample(30, 19, now=190.0)
    assert (second.interval_pages, second.interval_relevant, second.interval_seconds) == (
        20, 15, 60.0)
    assert second.rate == pytest.approx(19 / 30) and second.interval_rate == 0.75
    empty = intervals.sample(30, 19, now=200.0)
    assert empty.interval_rate is None and empty.rate == pytest.approx(19 / 30)
    assert HarvestIntervals(0.0).sample(0, 0, 1.0).rate is None
