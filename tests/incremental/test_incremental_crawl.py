"""End to end: a general crawl of the changing sandbox site, then `scrapy crawl
incremental` on the same crawl id, with real PostgreSQL, sandbox server and Whoosh index."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime

import pytest
from whoosh import index as whoosh_index

from crawler.sandbox import SandboxWeb
from crawler.sandbox.changing import ChangingSite
from tests.commands import run_scrapy

# page 0: boilerplate footer; 1: never changes (-> 304); 2: changed by the test;
# 3: gone (410) by the test; 4, 5: never change
RATES = [0.0] * 6
FAST = {
    "INCREMENTAL_MIN_INTERVAL": 0.5,
    "INCREMENTAL_MAX_INTERVAL": 1.0,
    "INCREMENTAL_REPLAN_INTERVAL": 0.5,
    "INCREMENTAL_POLL_INTERVAL": 0.2,
}


def _site() -> tuple[SandboxWeb, ChangingSite]:
    web = SandboxWeb()
    site = ChangingSite(RATES, boilerplate_every=0)
    site.add_to(web)
    return web, site


def scrapy_command(database_url: str, cwd, *args: str) -> subprocess.CompletedProcess:
    return run_scrapy(*args, database_url=database_url, cwd=cwd, timeout=120)


def _search_urls(tmp_path) -> set[str]:
    ix = whoosh_index.open_dir(str(tmp_path / ".crawl" / "index"), indexname="pages")
    with ix.searcher() as searcher:
        urls = {doc["url"] for doc in searcher.all_stored_fields()}
    ix.close()
    return urls


@pytest.mark.slow
def test_revisits_conditional_get_change_and_removal(
    sandbox, run_crawl, db, tmp_path, database_url
):
    web, site = _site()
    server = sandbox(web)
    started = datetime.now(UTC)
    # the index is read right after each crawl: its indexer applies everything before the
    # crawl exits (else, on a loaded machine, the 1 s close target leaves pages in the
    # outbox: tests/search/test_indexer_close.py)
    whole_index = {"SEARCH_INDEX_CLOSE_TIMEOUT": -1}
    first = run_crawl(
        "general", proxy=server.proxy_url, args={"seed_urls": "http://changing.test/"},
        settings=whole_index,
    ).check()
    crawl = first.crawl_id
    assert len(_search_urls(tmp_path) & set(site.urls)) == 6
    site.touch(2)
    site.gone["/p/003"] = 410
    web.set_robots("changing.test", "User-agent: *\nDisallow: /p/005\n")
    server.clear_log()
    # robots.txt changed since the first crawl, whose verdict the database keeps for
    # ROBOTSTXT_CACHE_TTL (docs/politeness.md): not shared, the revisits read the new rules
    revisits = run_crawl(
        "incremental",
        proxy=server.proxy_url,
        args={"crawl_id": crawl},
        settings={**FAST, **whole_index, "CLOSESPIDER_TIMEOUT": 6,
                  "ROBOTSTXT_SHARE_VERDICTS": False},
    ).check()
    # the close by CLOSESPIDER_TIMEOUT ends the revisit loop cleanly (it once used the
    # closed connection pool: "Error while reading start items and requests")
    assert " ERROR: " not in revisits.stderr, revisits.stderr[-3000:]

    rows = db.execute(
        "SELECT url, outcome, status FROM page_changes WHERE crawl_id = %s ORDER BY id", (crawl,)
    ).fetchall()
    outcomes = {}
    for url, outcome, status in rows:
        outcomes.setdefault(url, []).append((outcome, status))
    # a never-changing page: 304s only, and its version in `pages` untouched
    assert {o for o in outcomes[site.url(1)]} == {("not_modified", 304)}
    assert outcomes[site.url(2)][0] == ("changed", 200)
    assert outcomes[site.url(3)] == [("removed", 410)]
    # robots.txt holds for revisits: the disallowed page is not fetched again
    assert not server.requests_for("changing.test") or all(
        r.path != "/p/005" for r in server.requests_for("changing.test")
    )
    assert {o for o in outcomes[site.url(5)]} == {("error", 0)}
    # conditional GETs: the server saw If-None-Match and answered 304
    statuses = {(r.path, r.status) for r in server.requests_for("changing.test")}
    assert ("/p/001", 304) in statuses and ("/p/003", 410) in statuses
    # the removed page: marked, recorded, out of the search index; the others stay
    state = db.execute(
        "SELECT state FROM revisit_schedule WHERE crawl_id = %s AND url = %s", (crawl, site.url(3))
    ).fetchone()
    assert state == ("removed",)
    assert db.execute(
        "SELECT reason FROM collection_removals WHERE crawl_id = %s", (crawl,)
    ).fetchall() == [("gone_410",)]
    removed_at = db.execute(
        "SELECT removed_at IS NOT NULL FROM pages WHERE crawl_id = %s AND url = %s",
        (crawl, site.url(3)),
    ).fetchone()
    assert removed_at == (True,)
    urls = _search_urls(tmp_path)
    assert site.url(3) not in urls and site.url(2) in urls
    # the changed page's new text is stored; the unchanged page kept its fetch time
    text = db.execute(
        "SELECT text FROM pages WHERE crawl_id = %s AND url = %s", (crawl, site.url(2))
    ).fetchone()[0]
    version, _ = site.version(2, site.clock())
    assert site.body(2, version, None).decode().split("<p>")[1].split("</p>")[0] in text

    # a 304 adds no version: the never-changing page keeps the general crawl's fetch
    fetched = db.execute(
        "SELECT fetched_at FROM pages WHERE crawl_id = %s AND url = %s", (crawl, site.url(1))
    ).fetchone()[0]
    first_seen = db.execute(
        "SELECT min(fetched_at) FROM page_changes WHERE crawl_id = %s", (crawl,)
    ).fetchone()[0]
    assert started <= fetched < first_seen

    report = scrapy_command(database_url, tmp_path, "freshness", "--crawl-id", crawl)
    assert report.returncode == 0, report.stderr
    not_modified = sum(o == ("not_modified", 304) for v in outcomes.values() for o in v)
    assert f"answered 304 Not Modified          {not_modified} (" in report.stdout
    assert "6 pages in the collection, 1 removed (404/410), 0 evicted" in report.stdout


def test_freshness_command_bad_input(database_url, tmp_path):
    missing = scrapy_command(database_url, tmp_path, "freshness")
    assert (missing.returncode, missing.stderr) == (2, "error: give the crawl with --crawl-id ID\n")
    unknown = scrapy_command(database_url, tmp_path, "freshness", "--crawl-id", "nope")
    assert unknown.returncode == 2
    assert unknown.stderr.startswith("error: crawl 'nope' has no revisit schedule")


@pytest.mark.slow
def test_fixed_capacity_collection_refinement(sandbox, run_crawl, db):
    web = SandboxWeb()
    site = ChangingSite([0.0] * 12, boilerplate_every=0)
    site.add_to(web)
    server = sandbox(web)
    crawl = (
        run_crawl(
            "general",
            proxy=server.proxy_url,
            args={"seed_urls": "http://changing.test/"},
            settings={"CLOSESPIDER_PAGECOUNT": 4, "CONCURRENT_REQUESTS_PER_DOMAIN": 1},
        )
        .check()
        .crawl_id
    )
    stored = db.execute("SELECT count(*) FROM pages WHERE crawl_id = %s", (crawl,)).fetchone()[0]
    assert 2 <= stored < 13  # robots.txt counts towards CLOSESPIDER_PAGECOUNT
    run_crawl(
        "incremental",
        proxy=server.proxy_url,
        args={"crawl_id": crawl},
        settings={**FAST, "COLLECTION_MAX_PAGES": stored, "CLOSESPIDER_TIMEOUT": 6},
    ).check()
    # the rest of the site was found through the frontier: every page was fetched
    fetched = {r.path for r in server.requests_for("changing.test") if r.status == 200}
    assert {site.path(i) for i in range(12)} <= fetched
    active = db.execute(
        "SELECT count(*) FROM revisit_schedule WHERE crawl_id = %s AND state = 'active'", (crawl,)
    ).fetchone()[0]
    assert active == stored
    admitted = db.execute(
        "SELECT count(*) FROM page_changes WHERE crawl_id = %s AND outcome = 'new'", (crawl,)
    ).fetchone()[0]
    removals = db.execute(
        "SELECT r.reason, r.importance, s.importance, r.replaced_by FROM collection_removals r "
        "LEFT JOIN revisit_schedule s ON s.crawl_id = r.crawl_id AND s.url = r.replaced_by "
        "WHERE r.crawl_id = %s",
        (crawl,),
    ).fetchall()
    evicted = [r for r in removals if r[0] == "refinement"]
    refused = [r for r in removals if r[0] == "not_admitted"]
    # full from the start: each admitted page replaced one, each other new page was refused
    assert len(evicted) == admitted
    assert admitted + len(refused) == 13 - stored
    assert all(old < new for _, old, new, _ in evicted)
    evicted_rows = db.execute(
        "SELECT count(*) FROM pages WHERE crawl_id = %s AND removed_at IS NOT NULL", (crawl,)
    ).fetchone()[0]
    assert evicted_rows == len(evicted)


def test_incremental_spider_bad_arguments(database_url, tmp_path):
    missing = scrapy_command(database_url, tmp_path, "crawl", "incremental")
    assert missing.returncode == 2
    assert missing.stderr.strip().splitlines()[-1] == (
        "error: the incremental spider keeps an existing crawl fresh: give it -a crawl_id=ID"
    )
    assert "Traceback" not in missing.stderr
    policy = scrapy_command(
        database_url, tmp_path, "crawl", "incremental", "-a", "crawl_id=x", "-a", "policy=fastest"
    )
    assert policy.returncode == 2
    assert policy.stderr.strip().splitlines()[-1] == (
        "error: unknown policy 'fastest' (one of optimal, uniform, proportional, plugin)"
    )
    objective = scrapy_command(
        database_url,
        tmp_path,
        "crawl",
        "incremental",
        "-a",
        "crawl_id=x",
        "-a",
        "objective=staleness",
    )
    assert objective.returncode == 2
    assert objective.stderr.strip().splitlines()[-1] == (
        "error: unknown objective 'staleness' (one of freshness, age)"
    )
    assert "Traceback" not in objective.stderr


@pytest.mark.slow
def test_sitemap_names_the_changed_page_which_is_revisited_first(sandbox, run_crawl, db):
    """robots.txt names a sitemap; polled, it dates a change of one page of 30, which is
    revisited next, before the blind revisits reach it (issue 26)."""
    web = SandboxWeb()
    site = ChangingSite([0.0] * 30, boilerplate_every=0, sitemap=True)
    site.add_to(web)
    server = sandbox(web)
    crawl = (
        run_crawl("general", proxy=server.proxy_url, args={"seed_urls": "http://changing.test/"})
        .check()
        .crawl_id
    )
    site.touch(17)
    server.clear_log()
    run_crawl(
        "incremental",
        proxy=server.proxy_url,
        args={"crawl_id": crawl},
        settings={
            "DOWNLOAD_DELAY": 0.5,
            "INCREMENTAL_MIN_INTERVAL": 3600,
            "INCREMENTAL_MAX_INTERVAL": 7200,
            "CLOSESPIDER_TIMEOUT": 6,
        },
    ).check()
    paths = [r.path for r in server.requests_for("changing.test")]
    assert "/robots.txt" in paths and "/sitemap.xml" in paths
    # the touched page comes within the two revisits already issued when the poll answered
    assert "/p/017" in paths
    assert paths.index("/p/017") - paths.index("/sitemap.xml") <= 3
    # a dozen requests in 6 s: blind revisits (in the general crawl's order) did not get there
    assert len(paths) < 18
    outcome = db.execute(
        "SELECT outcome FROM page_changes WHERE crawl_id = %s AND url = %s ORDER BY id",
        (crawl, site.url(17)),
    ).fetchall()
    assert outcome[0] == ("changed",)
