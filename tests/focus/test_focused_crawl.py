"""End-to-end: `scrapy crawl focused` against the sandbox web into PostgreSQL."""

from __future__ import annotations

import json

import pytest

from crawler.sandbox import SandboxWeb, build_synthetic_web, canonical, html_page

pytestmark = pytest.mark.slow

HUB = "http://www.hub.test/"


def requested_pages(server) -> list[str]:
    """Canonical URLs of the page requests in the sandbox log, in order (no robots.txt)."""
    return [
        canonical(f"http://{r.host}{r.path}" + (f"?{r.query}" if r.query else ""))
        for r in server.log if r.path != "/robots.txt"
    ]


def links(*targets: str) -> str:
    return " ".join(f'<a href="{url}">{text}</a>' for url, text in targets)


def hub_web() -> SandboxWeb:
    """Five pages whose weights for "java" are worked out by hand below."""
    web = SandboxWeb()
    web.add_page(HUB, html_page("Hub", "<p>Welcome to the hub.</p>" + links(
        ("/java/intro.html", "first"), ("/cooking/pasta.html", "second"),
        ("/misc/coffee.html", "third"), ("/misc/notes.txt", "fourth"), ("/gone.html", "fifth"),
    )))
    web.add_page(HUB + "java/intro.html",
                 html_page("Intro", "<p>Java is a language. Java runs everywhere.</p>"))
    web.add_page(HUB + "cooking/pasta.html", html_page("Pasta", "<p>Boil water, cook pasta.</p>"))
    web.add_page(HUB + "misc/coffee.html",
                 html_page("Coffee from Java island", "<p>Strong coffee.</p>"))
    web.add_page(HUB + "misc/notes.txt", "java java", content_type="text/plain")
    return web


# url -> (weight, relevant); threshold 1.0, a page is relevant when its weight is above it
HUB_WEIGHTS = {
    # body "Welcome to the hub. first second third fourth fifth": 7 words, no java;
    # 5 outlinks: 0.2 * 5 / 20
    HUB: (0.05, False),
    # URL has "java": 1.0; body: 2 occurrences in 5 words (< 100: as they are): 2.0
    HUB + "java/intro.html": (3.0, True),
    HUB + "cooking/pasta.html": (0.0, False),
    # title has "java": 1.0, nothing else: exactly the threshold, not above it
    HUB + "misc/coffee.html": (1.0, False),
    # text page: 2 occurrences in 2 words
    HUB + "misc/notes.txt": (2.0, True),
}


def test_output_items_are_the_relevant_pages_and_every_page_is_stored(
    sandbox, run_crawl, db, tmp_path
):
    server = sandbox(hub_web())
    output = tmp_path / "relevant.jsonl"
    result = run_crawl(
        "focused",
        proxy=server.proxy_url,
        args={"query": "java", "seed_urls": HUB},
        settings={"FEEDS": json.dumps({str(output): {"format": "jsonlines"}}),
                  "FOCUS_HARVEST_INTERVAL": 3600},
    ).check()

    exported = [json.loads(line) for line in output.read_text().splitlines()]
    assert sorted(item["url"] for item in exported) == [
        HUB + "java/intro.html", HUB + "misc/notes.txt",
    ]
    assert {item["url"]: (item["weight"], item["relevant"]) for item in exported} == {
        url: HUB_WEIGHTS[url] for url in (HUB + "java/intro.html", HUB + "misc/notes.txt")
    }

    rows = db.execute(
        "SELECT url, weight, relevant FROM pages WHERE crawl_id = %s", (result.crawl_id,)
    ).fetchall()
    assert {url: (pytest.approx(weight), relevant) for url, weight, relevant in rows} == {
        url: (pytest.approx(weight), relevant) for url, (weight, relevant) in HUB_WEIGHTS.items()
    }
    # the 404 is stored in `uncrawled`, not output
    assert db.execute(
        "SELECT url, category FROM uncrawled WHERE crawl_id = %s", (result.crawl_id,)
    ).fetchall() == [(HUB + "gone.html", "http_404")]

    # harvest rate: the row written when the spider closed (the interval is an hour)
    harvest = db.execute(
        "SELECT harvest_pages, harvest_relevant, harvest_rate, harvest_interval_pages,"
        " harvest_interval_relevant, harvest_interval_rate FROM crawl_stats"
        " WHERE crawl_id = %s AND harvest_pages IS NOT NULL", (result.crawl_id,)
    ).fetchall()
    assert harvest == [(5, 2, 0.4, 5, 2, 0.4)]
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (result.crawl_id,)).fetchone()[0]
    assert (stats["focus/pages"], stats["focus/relevant"], stats["focus/harvest_rate"]) == (
        5, 2, 0.4)
    assert stats["focus/output_dropped/irrelevant"] == 3
    assert stats["focus/output_dropped/uncrawled"] == 1
    assert stats["item_scraped_count"] == 2


def chain_web() -> SandboxWeb:
    """A relevant start page with two chains of irrelevant pages leading to relevant ones:
    a1 -> a2 -> java-a (2 irrelevant pages to cross) and b1 -> b2 -> b3 -> java-b (3)."""
    web = SandboxWeb()
    start, poor = "http://www.start.test/", "http://www.poor.test/"
    web.add_page(start, html_page(
        "Java start", "<p>All about java.</p>" + links((poor + "a1", "one"), (poor + "b1", "two"))))
    for chain, length in (("a", 2), ("b", 3)):
        for i in range(1, length + 1):
            target = poor + f"{chain}{i + 1}" if i < length else start + f"java-{chain}"
            # distinct texts: near-duplicate pages would be held back by the content-seen test
            text = f"<p>{_FILLER[chain + str(i)]}</p>" + links((target, "on"))
            web.add_page(poor + f"{chain}{i}", html_page(f"Elsewhere {chain}{i}", text))
        web.add_page(start + f"java-{chain}", html_page(
            f"Java found {chain}", f"<p>java java {_FILLER['java-' + chain]}</p>"
            + links((start + f"java-{chain}-more", "more"))))
        web.add_page(start + f"java-{chain}-more",
                     html_page("Java more", f"<p>java {_FILLER['more-' + chain]}</p>"))
    return web


_FILLER = {
    "a1": "Tomatoes ripen slowly in a cold greenhouse during the wet autumn months.",
    "a2": "The harbour ferry leaves at dawn and reaches the island before the market opens.",
    "b1": "A striker with quick feet scored twice before halftime in the cup final.",
    "b2": "Sourdough needs a lively starter, strong flour and a long cool fermentation.",
    "b3": "Bond yields climbed after the central bank signalled another rate increase.",
    "java-a": "Generics and records in the language since version sixteen.",
    "java-b": "The virtual machine compiles hot methods with its just in time compiler.",
    "more-a": "Streams, lambdas and collectors in everyday code.",
    "more-b": "Threads, executors and the memory model explained.",
}


@pytest.mark.parametrize(
    ("depth", "reached"),
    [
        (0, ["a1", "b1"]),
        (2, ["a1", "b1", "a2", "b2", "java-a", "b3", "java-a-more"]),
        (3, ["a1", "b1", "a2", "b2", "java-a", "b3", "java-a-more", "java-b", "java-b-more"]),
    ],
)
def test_tunnelling_crosses_at_most_the_tunnel_depth(sandbox, run_crawl, db, depth, reached):
    server = sandbox(chain_web())
    start = "http://www.start.test/"
    result = run_crawl(
        "focused",
        proxy=server.proxy_url,
        args={"query": "java", "seed_urls": start},
        settings={"FOCUS_TUNNEL_DEPTH": depth},
    ).check()
    host = {name: ("http://www.start.test/" if name.startswith("java") else
                   "http://www.poor.test/") + name for name in reached}
    requested = requested_pages(server)
    assert sorted(requested) == sorted([start, *host.values()])
    # the relevant page at the end of a chain resets the run: its links are followed
    relevant = {url for (url,) in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s AND relevant", (result.crawl_id,))}
    assert relevant == {start} | {url for name, url in host.items() if name.startswith("java")}
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (result.crawl_id,)).fetchone()[0]
    # the link of the last irrelevant page fetched in each chain not crossed is dropped
    assert stats.get("focus/tunnel_links_dropped", 0) == {0: 2, 2: 1, 3: 0}[depth]


def test_relevant_site_is_reached_first_from_the_portal(sandbox, run_crawl, db):
    web = build_synthetic_web(trap=False, faults=False, mirrors=False)
    server = sandbox(web)
    java_host = "www.javadev.test"
    result = run_crawl(
        "focused",
        proxy=server.proxy_url,
        args={"query": "java", "seed_urls": web.portal},
        # one request at a time: the order is the frontier's choice
        settings={"CONCURRENT_REQUESTS": 1, "CLOSESPIDER_PAGECOUNT": 50},
    ).check()
    requested = requested_pages(server)
    assert requested[:2] == [web.portal, f"http://{java_host}/"]
    # The engine asks for the next request as soon as a download ends, before the page's
    # links are scheduled: right after the Java home page (the only Java URL queued then)
    # one other home page is fetched; from then on the Java site's links come first.
    others = [url for url in requested[2:45] if canonical(url).split("/")[2] != java_host]
    assert len(others) <= 1, others
    first_45 = requested[:45]
    assert sum(web.topic_of(url) == "java" for url in first_45) >= 43
    # and the pages of the Java site are the ones flagged relevant
    rows = db.execute(
        "SELECT url, relevant FROM pages WHERE crawl_id = %s", (result.crawl_id,)).fetchall()
    assert {url for url, relevant in rows if relevant} <= {
        url for url, _ in rows if web.topic_of(url) == "java"} | {web.portal}


def test_topic_by_example(sandbox, run_crawl, db, tmp_path):
    web = hub_web()
    web.add_page("http://www.examples.test/jvm.html", html_page(
        "The JVM", "<p>Java bytecode runs on the JVM; the garbage collector frees the heap. "
                   "Java classes, interfaces and generics.</p>"))
    server = sandbox(web)
    (tmp_path / "pasta.txt").write_text("Boil water and cook the pasta with tomato sauce.")
    (tmp_path / "java.html").write_text(
        "<title>Java language</title><p>Java is a language; java code compiles to bytecode.</p>")
    examples = tmp_path / "examples.txt"
    examples.write_text(
        "http://www.examples.test/jvm.html\njava.html\n- pasta.txt\n"
        "- http://www.examples.test/missing.html\n")
    result = run_crawl(
        "focused",
        proxy=server.proxy_url,
        args={"examples": str(examples), "seed_urls": HUB},
    ).check()
    requested = requested_pages(server)
    # the example URLs are fetched first, then the crawl starts
    assert sorted(requested[:2]) == ["http://www.examples.test/jvm.html",
                                     "http://www.examples.test/missing.html"]
    assert sorted(requested[2:]) == sorted([*HUB_WEIGHTS, HUB + "gone.html"])
    rows = dict(db.execute(
        "SELECT url, relevant FROM pages WHERE crawl_id = %s", (result.crawl_id,)).fetchall())
    assert set(rows) == set(HUB_WEIGHTS)  # the examples are not stored as pages
    assert rows[HUB + "java/intro.html"] and rows[HUB + "misc/notes.txt"]
    assert not rows[HUB + "cooking/pasta.html"]
    weights = [w for (w,) in db.execute(
        "SELECT weight FROM pages WHERE crawl_id = %s", (result.crawl_id,))]
    assert all(0.0 <= w <= 1.0 for w in weights)
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (result.crawl_id,)).fetchone()[0]
    assert stats["focus/classifier"] == "naive_bayes"
    assert (stats["focus/examples_fetched"], stats["focus/examples_failed"]) == (1, 1)


def test_no_readable_on_topic_example_crawls_nothing(sandbox, run_crawl, db, tmp_path):
    server = sandbox(hub_web())
    examples = tmp_path / "examples.txt"
    examples.write_text("http://www.hub.test/missing.html\n")
    result = run_crawl(
        "focused", proxy=server.proxy_url, args={"examples": str(examples), "seed_urls": HUB},
    ).check()
    assert requested_pages(server) == ["http://www.hub.test/missing.html"]
    assert "cannot train the topic classifier" in result.stderr
    assert db.execute("SELECT count(*) FROM pages WHERE crawl_id = %s",
                      (result.crawl_id,)).fetchone() == (0,)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "the focused spider needs -a query=WORDS"),
        ({"query": "the of"}, "has no searchable word"),
        ({"query": "java", "match": "most"}, "match must be one of all, any"),
        ({"examples": "no-such-file.txt"}, "examples file 'no-such-file.txt' does not exist"),
    ],
)
def test_bad_arguments_stop_before_the_crawl(run_crawl, args, message):
    result = run_crawl("focused", proxy=None, args={"seed_urls": HUB, **args})
    assert result.returncode == 2
    assert message in result.stderr
