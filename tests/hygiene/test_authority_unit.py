"""Unit tests of the copy-importance comparison (crawler.dedup.authority)."""

from __future__ import annotations

from crawler.dedup.authority import INCUMBENT_MARGIN, CopyImportance, LinkEvidence


def test_other_hosts_linking_to_the_host_win_over_stored_pages():
    evidence = LinkEvidence()
    for n in range(10):  # the mirror was crawled first
        evidence.admitted(f"http://copy.test/{n}.html", cash=0.0, canonical=None)
        evidence.link(f"http://copy.test/{n}.html", f"http://copy.test/{n + 1}.html")
    for hub in ("hub1.test", "hub2.test"):
        evidence.link(f"http://{hub}/", "http://original.test/")
    keep_new, why = evidence.choose("http://original.test/5.html", 0.0, None,
                                    "http://copy.test/5.html")
    assert keep_new
    assert why.startswith("kept http://original.test/5.html score 4.00 (canonical votes 0, "
                          "hosts linking to its host 2, to it 0, backlinks 0")
    assert why.endswith("over http://copy.test/5.html score 1.11 (canonical votes 0, hosts "
                        "linking to its host 0, to it 0, backlinks 1, cash 0.000, host pages 10)")
    # the other way round: the admitted original stays
    assert not evidence.choose("http://copy.test/5.html", 0.0, None,
                               "http://original.test/5.html")[0]


def test_a_marginal_difference_keeps_the_admitted_copy():
    evidence = LinkEvidence()
    evidence.admitted("http://a.test/x", cash=0.0, canonical=None)
    for hub in ("hub1.test", "hub2.test"):
        evidence.link(f"http://{hub}/", "http://a.test/")
    evidence.link("http://a.test/", "http://mirror.test/x")  # the original links its mirror
    keep_new, why = evidence.choose("http://mirror.test/x", 0.0, None, "http://a.test/x")
    assert not keep_new, why  # 4.25 (mirror) < 4.25 (original) + INCUMBENT_MARGIN


def test_rel_canonical_votes():
    evidence = LinkEvidence()
    evidence.admitted("http://copy.test/x", cash=0.0, canonical="http://orig.test/x")
    assert evidence.choose("http://orig.test/x", 0.0, None, "http://copy.test/x")[0]
    other = LinkEvidence()
    other.admitted("http://orig.test/y", cash=0.0, canonical=None)
    # the newcomer declares the admitted copy canonical: it stays a duplicate
    assert not other.choose("http://copy.test/y", 0.0, "http://orig.test/y",
                            "http://orig.test/y")[0]


def test_score_weights():
    copy = CopyImportance("u", 1, 2, 1, 40, 0.5, 3)
    assert copy.score == 10 + 4 + 2 + 5 + 0.5 + 0.5
    assert INCUMBENT_MARGIN == 2.0
