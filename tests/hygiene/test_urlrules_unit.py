"""Unit tests of the URL-parameter rule learner (crawler.urlrules.learner)."""

from __future__ import annotations

from crawler.urlrules.learner import HOST_WIDE, ParameterRules

G = "http://g.test/gallery/1"


def test_never_learned_from_a_single_pair():
    rules = ParameterRules()
    assert rules.duplicate(f"{G}?view=grid", G) == []
    assert rules.without_irrelevant(f"{G}?view=list")[0] == f"{G}?view=list"


def test_two_pairs_with_two_values_make_a_path_rule():
    rules = ParameterRules()
    rules.duplicate(f"{G}?size=s&view=grid", G, now=1.0)
    changes = rules.duplicate(f"{G}?size=m&view=list", G, now=2.0)
    assert sorted(c.rule.parameter for c in changes) == ["size", "view"]
    assert all(c.learned and c.rule.path == "/gallery/1" for c in changes)
    assert changes[0].rule.evidence.startswith(
        "3 pairs of same-content pages of g.test/gallery/1 differ in 'size'")
    url, applied = rules.without_irrelevant(f"{G}?id=7&size=l&view=grid")
    assert url == f"{G}?id=7"
    assert [r.parameter for r in applied] == ["size", "view"]
    assert rules.without_irrelevant("http://g.test/gallery/2?view=grid")[0] == (
        "http://g.test/gallery/2?view=grid")  # another path: no rule yet


def test_pairs_among_duplicates_count_too():
    rules = ParameterRules()
    rules.duplicate(f"{G}?size=m&view=grid", f"{G}?size=s&view=grid")
    changes = rules.duplicate(f"{G}?size=s&view=list", f"{G}?size=s&view=grid")
    # size: (s,m) and (m,s among the duplicates); view: (grid,list) twice
    assert sorted(c.rule.parameter for c in changes) == ["size", "view"]


def test_a_default_value_alone_proves_nothing():
    rules = ParameterRules()
    rules.duplicate("http://p.test/list?page=1", "http://p.test/list")
    rules.duplicate("http://p.test/list?page=1&x=1", "http://p.test/list")
    assert rules.irrelevant("p.test", "/list") == set()  # page had only the value 1


def test_host_rule_after_several_paths_and_undone_by_a_proof():
    rules = ParameterRules(host_min_paths=3)
    changes = []
    for n in range(3):
        base = f"http://g.test/gallery/{n}"
        rules.duplicate(f"{base}?view=grid", base)
        changes += rules.duplicate(f"{base}?view=list", base)
    host_rules = [c.rule for c in changes if c.rule.path == HOST_WIDE]
    assert [(r.host, r.parameter) for r in host_rules] == [("g.test", "view")]
    assert rules.without_irrelevant("http://g.test/other?view=grid&q=1")[0] == "http://g.test/other?q=1"
    # a page that differs only in view with another content: view matters
    rules.admitted("http://g.test/gallery/0")
    undone = rules.admitted("http://g.test/gallery/0?view=grid")
    assert sorted((c.rule.path, c.learned) for c in undone) == [
        ("", False), ("/gallery/0", False)]
    assert "differ only in 'view' and have different content" in undone[0].undone_because
    assert rules.without_irrelevant("http://g.test/other?view=grid")[0] == "http://g.test/other?view=grid"
    assert rules.without_irrelevant("http://g.test/gallery/1?view=grid")[0] == "http://g.test/gallery/1"
    # the host rule is not learned again
    rules.duplicate("http://g.test/gallery/3?view=grid", "http://g.test/gallery/3")
    assert [c.rule.path for c in rules.duplicate(
        "http://g.test/gallery/3?view=list", "http://g.test/gallery/3")] == ["/gallery/3"]


def test_paging_keeps_every_page():
    rules = ParameterRules()
    for n in range(1, 6):
        rules.admitted(f"http://p.test/list?page={n}&view=a")
    # later duplicates differing in page and view do not teach anything about page
    rules.duplicate("http://p.test/list?page=1&view=b", "http://p.test/list?page=1&view=a")
    rules.duplicate("http://p.test/list?page=2&view=c", "http://p.test/list?page=2&view=a")
    assert "page" not in rules.irrelevant("p.test", "/list")


def test_requested_finds_the_same_page_under_the_rules():
    rules = ParameterRules()
    assert rules.requested(G) is None  # no query: its path is not tracked (memory)
    assert rules.requested(f"{G}?view=grid") is None
    rules.duplicate(f"{G}?view=grid", G)
    rules.duplicate(f"{G}?view=list", G)
    assert rules.requested(f"{G}?view=tiles") == f"{G}?view=grid"
    assert rules.requested(G) is None  # nothing to drop: the canonical form itself
    assert rules.requested("http://g.test/gallery/9?view=tiles") is None


def test_load_restores_rules_and_proofs():
    first = ParameterRules()
    first.duplicate(f"{G}?view=grid", G)
    first.duplicate(f"{G}?view=list", G)
    second = ParameterRules()
    second.load(first.active(), [("g.test", "/list", "page")])
    assert second.without_irrelevant(f"{G}?view=x")[0] == G
    assert second.proven == {("g.test", "page"): {"/list"}}
    second.load([], [("g.test", "/gallery/1", "view")])  # undone by another agent
    assert second.without_irrelevant(f"{G}?view=x")[0] == f"{G}?view=x"


def test_variants_wait_for_the_verdicts_that_may_remove_them():
    rules = ParameterRules(max_pending=2)
    rules.requested(f"{G}?view=a")
    rules.judged(f"{G}?view=a")  # admitted
    assert not rules.must_wait(f"{G}?view=b")
    rules.requested(f"{G}?view=b")
    assert not rules.must_wait(f"{G}?view=c")
    rules.requested(f"{G}?view=c")
    assert rules.must_wait(f"{G}?view=d")  # two pending
    rules.judged(f"{G}?view=b")
    rules.duplicate(f"{G}?view=b", f"{G}?view=a")
    assert rules.must_wait(f"{G}?view=d")  # enough requested: c may complete a rule
    rules.judged(f"{G}?view=c")
    rules.duplicate(f"{G}?view=c", f"{G}?view=a")
    assert not rules.must_wait(f"{G}?view=d")
    assert rules.requested(f"{G}?view=d") == f"{G}?view=a"


def test_distinct_pages_do_not_wait_once_their_parameter_is_known_to_matter():
    rules = ParameterRules(max_pending=2)
    item = "http://s.test/item"
    for n in (1, 2):
        rules.requested(f"{item}?id={n}")
        rules.judged(f"{item}?id={n}")
        rules.admitted(f"{item}?id={n}")
    rules.requested(f"{item}?id=3")
    assert not rules.must_wait(f"{item}?id=4")
