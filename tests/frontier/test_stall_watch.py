"""The stall invariant's clock (crawler/frontier/stalls.py)."""

from __future__ import annotations

from crawler.frontier.stalls import StallWatch


def test_a_host_starved_longer_than_allowed_is_one_stall_until_it_recovers():
    watch = StallWatch()
    assert watch.observe("a.test", True, 5.0, 100.0) is None  # starved from 100
    assert watch.observe("a.test", True, 5.0, 105.0) is None  # 5 s: not more than allowed
    assert watch.observe("a.test", True, 5.0, 105.5) == 5.5  # a stall, reported once
    assert watch.observe("a.test", True, 5.0, 110.0) is None
    assert watch.stalled == ["a.test"] and watch.stalls == 1
    assert watch.observe("a.test", False, 5.0, 111.0) is None  # served again: recovered
    assert watch.stalled == []
    assert watch.observe("a.test", True, 5.0, 120.0) is None
    assert watch.observe("a.test", True, 5.0, 126.0) == 6.0  # a second episode
    assert watch.stalls == 2


def test_a_host_served_between_checks_never_stalls_and_forgotten_hosts_recover():
    watch = StallWatch()
    for t in range(0, 60, 2):
        assert watch.observe("busy.test", t % 4 == 0, 5.0, float(t)) is None
    watch.observe("gone.test", True, 1.0, 0.0)
    assert watch.observe("gone.test", True, 1.0, 2.0) == 2.0
    watch.forget({"busy.test"})
    assert watch.stalled == []
