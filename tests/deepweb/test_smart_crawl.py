"""End-to-end: `scrapy crawl smart -a topic=books` on the sandbox deep web."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from crawler.sandbox.deepweb import build_deepweb, smart_visits
from crawler.sandbox.web import canonical

pytestmark = pytest.mark.slow

# stop rules loose enough for every page of an on-topic site, and no stopped site resumed
# when the frontier runs dry (off-topic sites would be): the exact ground truth
WHOLE_SITES = {
    "SMART_SITE_MAX_PAGES_WITHOUT_FORM": 30,
    "SMART_SITE_MAX_PAGES": 30,
    "SMART_RESUME_SITES": "none",
}


def fetched(server) -> dict[str, list[str]]:
    pages = defaultdict(list)
    for r in server.log:
        if r.path != "/robots.txt":
            pages[r.host].append(
                canonical(f"http://{r.host}{r.path}" + (f"?{r.query}" if r.query else ""))
            )
    return {host: sorted(urls) for host, urls in pages.items()}


def test_smart_crawl_outputs_exactly_the_relevant_searchable_forms(
    sandbox, run_crawl, db, tmp_path
):
    deepweb = build_deepweb()
    server = sandbox(deepweb.web)
    output = tmp_path / "forms.jsonl"
    result = run_crawl(
        "smart",
        proxy=server.proxy_url,
        args={"topic": "books", "seed_urls": deepweb.directory, "probe": "0"},
        settings={**WHOLE_SITES, "FEEDS": json.dumps({str(output): {"format": "jsonlines"}})},
    ).check()

    # the output: the searchable forms of the books sites, nothing else
    exported = [json.loads(line) for line in output.read_text().splitlines()]
    assert sorted((f["page_url"], f["action_url"]) for f in exported) == sorted(
        deepweb.searchable_forms("books").items()
    )
    assert len(exported) == 3
    for item in exported:
        assert item["searchable"] and item["relevant"] and item["method"] == "GET"
        assert item["searchable_score"] >= 0.5 and item["relevance_score"] > 0.5
        assert {"name", "type", "options"} == set(item["fields"][0])

    # what was fetched: the directory, every page of the books sites it leads to, the
    # home page alone of every other site reached; never the robots-disallowed /cgi-bin/
    visits = smart_visits(deepweb, "books")
    assert fetched(server) == visits
    assert not any("/cgi-bin/" in url for urls in visits.values() for url in urls)

    # every form seen is in `forms`: searchable ones of off-topic sites are not relevant
    rows = db.execute(
        "SELECT site, page_url, action_url, searchable, relevant FROM forms WHERE crawl_id = %s",
        (result.crawl_id,),
    ).fetchall()
    searchable = {(r[1], r[2]): r[4] for r in rows if r[3]}
    expected = {
        (page, action): deepweb.site(page.split("/")[2]).topic == "books"
        for page, action in deepweb.searchable_forms().items()
        if page in visits.get(page.split("/")[2], [])
    }
    assert searchable == expected
    # not searchable: newsletter, login, comment and contact forms of the sites
    kinds = {r[2].split("/", 3)[3] for r in rows if not r[3]}
    assert kinds == {"newsletter/subscribe", "account/login", "comments/post", "contact/send"}
    assert {r[0] for r in rows} == set(visits) - {"www.sitedirectory.test"}


def test_probe_by_default_confirms_relevant_forms_politely(sandbox, run_crawl, db, tmp_path):
    deepweb = build_deepweb()
    server = sandbox(deepweb.web)
    output = tmp_path / "forms.jsonl"
    result = run_crawl(
        "smart",
        proxy=server.proxy_url,
        args={"topic": "books", "seed_urls": deepweb.directory},
        settings={**WHOLE_SITES, "FEEDS": json.dumps({str(output): {"format": "jsonlines"}})},
    ).check()
    actions = deepweb.searchable_forms("books").values()
    probes = sorted(
        u for urls in fetched(server).values() for u in urls if u.split("?")[0] in actions
    )
    # the two allowed actions were submitted once with the topic's word (and the select
    # option naming it); the third action is under /cgi-bin/, disallowed by its site's
    # robots.txt: never requested, recorded. No other form was submitted.
    assert probes == [
        "http://www.aspen.test/search/results?category=book&keywords=books",
        "http://www.fjord.test/search/results?q=books",
    ]
    pages = {host: [u for u in urls if u not in probes] for host, urls in fetched(server).items()}
    assert pages == smart_visits(deepweb, "books")
    exported = sorted(
        (f["action_url"], f["probe"], f["confirmed"], f["result_records"])
        for f in map(json.loads, output.read_text().splitlines())
    )
    assert exported == [
        ("http://www.aspen.test/search/results", "confirmed", True, 3),
        ("http://www.fjord.test/search/results", "confirmed", True, 3),
        ("http://www.kestrel.test/cgi-bin/search", "robots_disallowed", False, 0),
    ]
    rows = db.execute(
        "SELECT action_url, probe, confirmed FROM forms WHERE crawl_id = %s "
        "AND probe <> '' ORDER BY action_url",
        (result.crawl_id,),
    ).fetchall()
    assert rows == [(a, p, c) for a, p, c, _ in exported]
    stored = db.execute(
        "SELECT url, title FROM pages WHERE crawl_id = %s AND url LIKE "
        "'%%/search/results?%%' ORDER BY url",
        (result.crawl_id,),
    ).fetchall()
    assert stored == [
        (probes[0], "Search results - www.aspen.test"),
        (probes[1], "Search results - www.fjord.test"),
    ]
    refused = db.execute(
        "SELECT url, category FROM uncrawled WHERE crawl_id = %s AND url LIKE '%%/cgi-bin/%%'",
        (result.crawl_id,),
    ).fetchall()
    assert refused == [("http://www.kestrel.test/cgi-bin/search?q=books", "robots_disallowed")]


def test_smart_spider_without_topic_is_a_usage_error(run_crawl):
    result = run_crawl("smart", proxy=None, args={"seed_urls": "http://a.test/"})
    assert result.returncode == 2
    assert "error: the smart spider needs -a topic=WORDS" in result.stderr
    assert "Traceback" not in result.stderr


def test_topic_by_example_sites(sandbox, run_crawl, db, tmp_path):
    deepweb = build_deepweb()
    server = sandbox(deepweb.web)
    examples = tmp_path / "examples.txt"
    # two books sites (one a known deep-web site), one off-topic site of each other topic
    examples.write_text(
        "http://www.aspen.test/\nhttp://www.quartz.test/\n"
        "- http://www.juniper.test/\n- http://www.vesper.test/\n"
        "- http://www.sierra.test/\n- http://www.dune1.test/\n"
    )
    output = tmp_path / "forms.jsonl"
    result = run_crawl(
        "smart",
        proxy=server.proxy_url,
        args={"examples": str(examples), "seed_urls": deepweb.directory},
        settings={**WHOLE_SITES, "FEEDS": json.dumps({str(output): {"format": "jsonlines"}})},
    ).check()
    exported = sorted(
        (f["page_url"], f["action_url"]) for f in map(json.loads, output.read_text().splitlines())
    )
    # Naive Bayes trained on the six example home pages finds the books sites' forms
    assert exported == sorted(deepweb.searchable_forms("books").items())
    # the example URLs were fetched to train it; the books ones are crawled as seeds
    requested = {(r.host, r.path) for r in server.log}
    assert {("www.aspen.test", "/"), ("www.juniper.test", "/"), ("www.dune1.test", "/")} <= (
        requested
    )
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (result.crawl_id,)).fetchone()[0]
    assert stats["smart/forms_relevant"] == 3
