"""Weighted rendezvous hashing: deterministic, shares by capacity, minimal movement."""

from __future__ import annotations

from collections import Counter

from crawler.agents.assignment import assign, owner

HOSTS = [f"h{i}.test" for i in range(20000)]


def test_the_same_owner_for_everyone_and_none_without_agents():
    agents = {"a": 1.0, "b": 1.0, "c": 1.0}
    assert assign(HOSTS[:100], agents) == assign(HOSTS[:100], dict(reversed(agents.items())))
    assert owner("h.test", {}) is None
    assert owner("h.test", {"a": 0.0}) is None


def test_shares_follow_capacity():
    shares = Counter(assign(HOSTS, {"a": 1.0, "b": 1.0, "c": 2.0}).values())
    assert abs(shares["a"] / len(HOSTS) - 0.25) < 0.015
    assert abs(shares["b"] / len(HOSTS) - 0.25) < 0.015
    assert abs(shares["c"] / len(HOSTS) - 0.50) < 0.015


def test_a_joining_agent_takes_hosts_only_for_itself_and_a_leaving_one_gives_only_its_own():
    before = assign(HOSTS, {"a": 1.0, "b": 1.0})
    after = assign(HOSTS, {"a": 1.0, "b": 1.0, "c": 1.0})
    moved = [h for h in HOSTS if before[h] != after[h]]
    assert all(after[h] == "c" for h in moved)
    assert abs(len(moved) / len(HOSTS) - 1 / 3) < 0.015
    left = assign(HOSTS, {"a": 1.0, "c": 1.0})
    assert all(left[h] == after[h] for h in HOSTS if after[h] != "b")
