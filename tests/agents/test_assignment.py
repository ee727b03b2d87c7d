"""Weighted rendezvous hashing: deterministic, shares by capacity, minimal movement."""

from __future__ import annotations

from collections import Counter

import pytest

from crawler.agents.assignment import (
    HostLoad,
    assign,
    host_slots,
    need_hosts,
    owner,
    plan_lending,
)

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


# --- work-aware lending (plain functions) ---------------------------------------------------


def test_host_slots_from_concurrency_delay_and_latency():
    assert host_slots(2, 0.0, None) == 2.0  # no delay: the slot's concurrency
    assert host_slots(2, 0.5, 0.2) == pytest.approx(0.4)  # one request per delay
    assert host_slots(2, 0.5, 3.0) == 2.0  # at most the concurrency
    assert host_slots(1, 0.5, None) == 1.0  # latency not measured yet


def test_need_counts_hosts_with_work_only():
    load = HostLoad(4, {"a": 0.4, "b": 0.4, "c": 0.4}, new_host_slots=0.4)
    assert need_hosts({"a": 10, "b": 0, "c": 3}, load) == 8  # (4 - 0.8) / 0.4
    assert need_hosts({f"h{i}": 1 for i in range(10)}, HostLoad(4, {}, new_host_slots=1.0)) == 0
    assert need_hosts({}, HostLoad(4, {}, new_host_slots=1.5)) == 3


def test_lending_largest_queues_first_keeping_the_lender_full():
    work = {f"h{i}": 100 - i for i in range(8)}  # h0 has the largest queue
    load = HostLoad(3, {h: 1.0 for h in work})
    lent, returned = plan_lending(work, load, {"x": 2, "y": 4}, loans=())
    # 8 hosts fill 8 slots; 3 are kept (the smallest queues), 5 lent: the most needy first
    assert lent == {"h0": "y", "h1": "y", "h2": "x", "h3": "y", "h4": "x"}
    assert returned == set()
    # nobody needs: nothing lent
    assert plan_lending(work, load, {}, loans=()) == ({}, set())
    # a lender that only just fills its concurrency keeps everything
    assert plan_lending({"a": 5, "b": 5}, HostLoad(2, {"a": 1.0, "b": 1.0}), {"x": 3}, ()) == (
        {}, set())


def test_loans_go_home_when_empty_or_not_needed():
    load = HostLoad(2, {h: 1.0 for h in "abcde"})
    # d is borrowed and empty: back home; e borrowed with work, and needed: kept
    assert plan_lending({"a": 3, "d": 0, "e": 4}, load, {}, loans={"d", "e"}) == ({}, {"d"})
    # with 5 hosts of work for 2 slots, borrowed hosts beyond one to spare go back
    lent, returned = plan_lending({h: 5 for h in "abcde"}, load, {}, loans={"d", "e"})
    assert lent == {} and returned == {"d", "e"}
    lent, returned = plan_lending({h: 5 for h in "abde"}, load, {}, loans={"d", "e"})
    assert returned == {"d"}  # a, b, e left: 3 >= 2 + 1; without e: 2 < 2 + 1
