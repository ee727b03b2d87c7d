"""FRONTIER_HOLD_FOR_BETTER at algorithm level (in-memory store, fake clock): a free slot
is not given to a URL far below the best URL waiting for a busy or delayed host."""

from __future__ import annotations

import asyncio

import pytest

from crawler.frontier.scores import seed_stats
from crawler.frontier.seen import url_fingerprint
from crawler.schedulers.best_first import hold_margin_setting
from tests.frontier.graphs import host, make_frontier


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def add(frontier, url: str, backlinks: int, priority: int = 0) -> None:
    stats = seed_stats(cash=1.0)
    stats.backlinks = backlinks  # the "backlink" strategy's score
    assert frontier.add(url_fingerprint(url), url, host(url), priority, stats, False, url)


def name(url: str) -> str:
    return url.split("//")[1].split(".")[0] + url.rsplit("/", 1)[1]


def simulate(margin: float | None, urls: dict[str, int]) -> str:
    """Crawl ``urls`` (url -> score) with one request per host at a time and unlimited
    slots: hand out requests until none is ready, then finish the oldest in flight
    ("|"), and so on. Returns the log."""

    async def run() -> str:
        frontier = make_frontier("backlink", hold_margin=margin)
        await frontier.open()
        for url, score in urls.items():
            add(frontier, url, score)
        busy: set[str] = set()
        inflight = []
        log = []
        while True:
            while (entry := frontier.pop(lambda h: None if h in busy else 0.0)) is not None:
                log.append(name(entry.url))
                busy.add(entry.host)
                inflight.append(entry)
            if not inflight:
                return " ".join(log)
            entry = inflight.pop(0)
            busy.discard(entry.host)
            frontier.done(entry)
            log.append("|")

    return asyncio.run(run())


GRAPH = {
    "http://good.test/1": 9,
    "http://good.test/2": 8,
    "http://good.test/3": 7,
    "http://near.test/1": 6,
    "http://other.test/1": 1,
    "http://other.test/2": 1,
}


def test_without_the_setting_a_free_slot_goes_to_any_ready_host():
    # good.test is busy after its first URL: near and other fill the free slots at once
    assert simulate(None, GRAPH) == "good1 near1 other1 | good2 | | other2 | good3 | |"


def test_a_url_far_below_the_best_waiting_one_is_held_back():
    # near1 (6) is within 2 of good2 (8), waiting for its busy host: served at once.
    # other1 (1) is 7 below: held while good.test has URLs waiting, served with good3
    # in flight (nothing better waits then).
    assert simulate(2.0, GRAPH) == "good1 near1 | good2 | | good3 other1 | | other2 |"


def test_margin_zero_serves_in_score_order_only():
    assert simulate(0.0, GRAPH) == "good1 | good2 | good3 near1 other1 | | | other2 |"


def test_a_large_margin_is_the_same_as_none():
    assert simulate(100.0, GRAPH) == simulate(None, GRAPH)


def test_a_delayed_host_and_a_higher_priority_hold_too():
    clock = FakeClock()
    ready_at = {"good.test": clock.t + 5.0}

    def readiness(h: str) -> float:
        return max(0.0, ready_at.get(h, 0.0) - clock.t)

    async def run():
        frontier = make_frontier("backlink", hold_margin=2.0, now=clock)
        await frontier.open()
        add(frontier, "http://good.test/1", 9)
        add(frontier, "http://other.test/1", 1)
        # a delayed host's better URL holds the others until it is ready
        first = frontier.pop(readiness)
        assert frontier.next_ready_at() == clock.t + 5.0
        assert frontier.buffer.held == 1
        clock.t += 5.0
        second = frontier.pop(readiness)
        third = frontier.pop(readiness)
        # priority outranks any score: a prioritised URL on a delayed host holds a
        # better-scored one of a ready host
        add(frontier, "http://good.test/2", 0, priority=1)
        add(frontier, "http://other.test/2", 50)
        ready_at["good.test"] = clock.t + 1.0
        fourth = frontier.pop(readiness)
        clock.t += 1.0
        fifth = [frontier.pop(readiness).url, frontier.pop(readiness).url]
        return first, second.url, third.url, fourth, fifth, frontier.buffer.held

    first, second, third, fourth, fifth, held = asyncio.run(run())
    assert first is None
    assert (second, third) == ("http://good.test/1", "http://other.test/1")
    assert fourth is None
    assert fifth == ["http://good.test/2", "http://other.test/2"]
    assert held == 2


@pytest.mark.parametrize(
    ("value", "margin"),
    [(None, None), ("", None), ("None", None), ("2", 2.0), (0, 0.0), (1.5, 1.5)],
)
def test_setting_values(value, margin):
    assert hold_margin_setting(value) == margin


@pytest.mark.parametrize("value", ["-1", "abc", "inf", "nan", [1]])
def test_bad_setting_values_are_refused_with_a_clear_error(value):
    with pytest.raises(ValueError, match="FRONTIER_HOLD_FOR_BETTER must be a score margin"):
        hold_margin_setting(value)
