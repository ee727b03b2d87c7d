"""The content-seen test shared by the agents of a crawl in PostgreSQL (docs/dedup.md):
the same decisions as in memory, races between two connections, and two real crawl
processes of one crawl id that fetch a page and its copies."""

from __future__ import annotations

import asyncio
import subprocess
import threading
import uuid

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

from crawler.dedup import ContentSeenTest, Duplicate
from crawler.dedup.shared import SharedContentSeen, band_keys
from crawler.sandbox import SandboxWeb, html_page
from crawler.storage.database import CrawlDatabase
from tests.conftest import crawl_command
from tests.dedup.test_content_seen import article, replace_words


@pytest.fixture
def crawl_id(database_url: str, db: psycopg.Connection) -> str:
    CrawlDatabase(url=database_url).prepare()
    crawl = f"shared-{uuid.uuid4().hex[:8]}"
    db.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'test')", (crawl,))
    return crawl


def test_band_keys_fold_the_band_number_in() -> None:
    test = ContentSeenTest()
    b, r = test.index.bands
    fingerprint = test.fingerprint(article(1))
    keys = band_keys(fingerprint.signature, b, r)
    assert len(keys) == b == len(set(keys))
    same = test.fingerprint(article(1).upper())
    assert band_keys(same.signature, b, r) == keys
    assert all(-(2**63) <= k < 2**63 for k in keys)


def test_shared_test_decides_as_the_in_memory_one(
    database_url: str, crawl_id: str, db: psycopg.Connection
) -> None:
    texts = {
        "http://a.test/1": article(1),
        "http://a.test/2": article(2),
        "http://b.test/1": article(1).upper(),  # exact copy of a/1
        "http://b.test/2": replace_words(article(2), 40),  # near copy of a/2 (first stage)
        "http://b.test/3": article(3),
        "http://a.test/1#again": article(1),  # exact copy again
    }
    memory = ContentSeenTest()
    expected = {url: memory.check(url, text)[1] for url, text in texts.items()}
    assert expected["http://b.test/1"] == Duplicate("http://a.test/1", 1.0, exact=True)
    assert expected["http://b.test/2"] is not None and not expected["http://b.test/2"].exact

    async def scenario() -> dict[str, Duplicate | None]:
        async with AsyncConnectionPool(database_url, min_size=1, open=False) as pool:
            shared = SharedContentSeen(pool, crawl_id, ContentSeenTest(keep_minutiae=False))
            found = {}
            for url, text in texts.items():
                found[url] = await shared.check(url, shared.test.fingerprint(text))
            # a page fetched again is not its own duplicate
            again = await shared.check("http://a.test/1", shared.test.fingerprint(article(1)))
            assert again is None
            return found

    assert asyncio.run(scenario()) == expected
    rows = db.execute("SELECT url FROM page_fingerprints WHERE crawl_id = %s ORDER BY seq",
                      (crawl_id,)).fetchall()
    assert [r[0] for r in rows] == ["http://a.test/1", "http://a.test/2", "http://b.test/3"]
    b, _ = ContentSeenTest().index.bands
    assert db.execute("SELECT count(*) FROM dedup_bands WHERE crawl_id = %s",
                      (crawl_id,)).fetchone()[0] == 3 * b


def test_two_agents_racing_on_copies_admit_one_page_each(
    database_url: str, crawl_id: str, db: psycopg.Connection
) -> None:
    """Agent A and agent B (two pools: separate connections, separate tests) check a page
    and its copy at the same moment: exactly one is admitted, the other is its duplicate."""
    pairs = 12
    originals = {f"http://a.test/{i}": article(100 + i) for i in range(pairs)}
    copies = {}
    for i in range(pairs):
        text = originals[f"http://a.test/{i}"]
        copies[f"http://b.test/{i}"] = text.upper() if i % 2 else replace_words(text, 40)

    async def agent(urls_texts: dict[str, str], start: threading.Barrier) -> dict:
        async with AsyncConnectionPool(database_url, min_size=2, max_size=2,
                                       open=False) as pool:
            shared = SharedContentSeen(pool, crawl_id, ContentSeenTest(keep_minutiae=False))
            prints = {u: shared.test.fingerprint(t) for u, t in urls_texts.items()}
            await asyncio.to_thread(start.wait)
            results = {}
            for url, fingerprint in prints.items():
                results[url] = await shared.check(url, fingerprint)
            return results

    start = threading.Barrier(2)
    results: dict[str, dict] = {}

    def run(name: str, texts: dict[str, str]) -> None:
        results[name] = asyncio.run(agent(texts, start))

    threads = [threading.Thread(target=run, args=("a", originals)),
               threading.Thread(target=run, args=("b", copies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    admitted = {r[0] for r in db.execute(
        "SELECT url FROM page_fingerprints WHERE crawl_id = %s", (crawl_id,))}
    for i in range(pairs):
        a, b = f"http://a.test/{i}", f"http://b.test/{i}"
        outcome_a, outcome_b = results["a"][a], results["b"][b]
        # exactly one of the pair admitted, the other one its duplicate
        assert (outcome_a is None) != (outcome_b is None), (i, outcome_a, outcome_b)
        winner, loser = (a, outcome_b) if outcome_a is None else (b, outcome_a)
        assert loser.original == winner and loser.exact == bool(i % 2)
        assert ({a, b} & admitted) == {winner}
    assert len(admitted) == pairs


@pytest.mark.slow
def test_two_crawl_processes_of_one_crawl_store_one_page_per_content(
    sandbox, database_url: str, db: psycopg.Connection, tmp_path
) -> None:
    """Two `scrapy crawl` processes (agents) of one crawl id, one per host, each fetching a
    page whose exact or near copy the other fetches: one page stored per content and one
    duplicate_content row per copy, whichever agent came first."""
    web = SandboxWeb()
    pairs = 6
    for host in ("a.test", "b.test"):
        links = "".join(f'<a href="/doc{i}">doc {i}</a> ' for i in range(pairs))
        web.add_page(f"http://{host}/", html_page(f"Home of {host}", f"<p>{links}</p>"))
    for i in range(pairs):
        text = article(200 + i)
        copy = text.upper() if i % 2 else replace_words(text, 40)
        web.add_page(f"http://a.test/doc{i}", html_page("Doc", f"<p>{text}</p>"))
        web.add_page(f"http://b.test/doc{i}", html_page("Doc", f"<p>{copy}</p>"))
    server = sandbox(web)
    crawl = f"agents-{uuid.uuid4().hex[:8]}"
    procs = []
    for host, workdir in (("a.test", tmp_path / "a"), ("b.test", tmp_path / "b")):
        workdir.mkdir()
        cmd, env = crawl_command(
            "general", database_url=database_url, workdir=workdir, proxy=server.proxy_url,
            args={"crawl_id": crawl, "seed_urls": f"http://{host}/"},
            # the PostgreSQL frontier admits one process per crawl (issue 11 builds the
            # shared one); each agent here crawls its own host with Scrapy's scheduler
            settings={"DEDUP_SHARED": "true", "SCHEDULER": "scrapy.core.scheduler.Scheduler",
                      "SEARCH_INDEX_ENABLED": False},
        )
        procs.append(subprocess.Popen(cmd, cwd=workdir, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
    for proc in procs:
        _out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-4000:]
        assert "'dedup/shared': 1" in err
    pages = {r[0] for r in db.execute("SELECT url FROM pages WHERE crawl_id = %s", (crawl,))}
    duplicates = dict(db.execute(
        "SELECT url, detail FROM uncrawled WHERE crawl_id = %s AND category = "
        "'duplicate_content'", (crawl,)).fetchall())
    assert {"http://a.test/", "http://b.test/"} <= pages
    assert len(pages) == 2 + pairs and len(duplicates) == pairs
    for i in range(pairs):
        a, b = f"http://a.test/doc{i}", f"http://b.test/doc{i}"
        stored = {a, b} & pages
        assert len(stored) == 1, (i, stored)
        (copy,) = {a, b} - stored
        found = Duplicate.parse_detail(duplicates[copy])
        assert found.original == stored.pop() and found.exact == bool(i % 2)
