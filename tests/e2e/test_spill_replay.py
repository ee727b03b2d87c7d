"""Spill files end to end: the storage pipeline loses its database mid-crawl and spills a
batch with its own writer; `scrapy replayspill` writes it into the real PostgreSQL.

The pipeline runs through a real Scrapy crawler object against the test database; its
connection is cut by terminating the server process behind it (what a database restart
does to a running crawl), so the spill comes from the pipeline's real failure path.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import uuid
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import psycopg
import pytest
from scrapy.utils.test import get_crawler

from crawler.items import LinkRecord, PageItem, UncrawledItem
from crawler.pipelines.postgres import PostgresStorePipeline
from crawler.storage.schema import migrate
from tests.commands import run_scrapy

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)

PAGE_COLUMNS = (
    "url, final_url, host, status, content_type, fetched_at, last_modified, depth, title, "
    "text, content_md5, size, weight, relevant"
)


def page(url: str, *links: LinkRecord, **fields: object) -> PageItem:
    values: dict[str, object] = dict(
        url=url, final_url=url, host=url.split("/")[2], status=200,
        content_type="text/html", fetched_at=T0, depth=1, size=100, content_md5="0" * 32,
        title=f"title of {url}", text=f"text of {url}", links=list(links),
    )
    values.update(fields)
    return PageItem(**values)  # type: ignore[arg-type]


def first_batch() -> list[PageItem | UncrawledItem]:
    return [
        page("http://a.test/", LinkRecord("http://a.test/b.html", "b", 1, 3, 1)),
        UncrawledItem("http://a.test/later.html", "http_503", "HTTP 503", T0),
    ]


def spilled_batch() -> list[PageItem | UncrawledItem]:
    """The batch written while the database is gone: every kind of value a row holds."""
    return [
        page(
            "http://a.test/b.html",
            LinkRecord("http://a.test/", "home", 3, 3, 1),
            LinkRecord("http://other.test/x", "élan \x00 vital", 2, 1, 5),
            title="Bé \x00 page", text="naïve text\nline two", depth=2,
            last_modified=datetime(2025, 5, 6, 7, 8, 9, 123456, tzinfo=UTC),
            weight=0.375, relevant=True,
        ),
        # failed in the first batch, stored now: its uncrawled row must go away
        page("http://a.test/later.html", status=200, size=0, text=""),
        UncrawledItem("http://a.test/missing.html", "http_404", "HTTP 404", T0),
        # a weak refusal of a URL already stored: the database trigger keeps the page only
        UncrawledItem("http://a.test/", "trap", "calendar", T0),
        UncrawledItem("http://b.test/", "connection", "refused", T0),
    ]


async def backend_pid(pool) -> int:
    async with pool.connection() as conn:
        return (await (await conn.execute("SELECT pg_backend_pid()")).fetchone())[0]


async def run_pipeline(crawler, database_url: str, cut_before_second: bool) -> None:
    pipeline = PostgresStorePipeline.from_crawler(crawler)
    await pipeline.open_spider()
    try:
        for item in first_batch():
            await pipeline.process_item(item)
        await pipeline.flush()
        if cut_before_second:
            assert pipeline.pool is not None
            assert pipeline.pool.get_stats()["pool_size"] == 1
            assert pipeline.writer is not None  # the pool lives on the writer's loop
            pid = await pipeline.writer.run(backend_pid(pipeline.pool))
            with psycopg.connect(database_url, autocommit=True) as conn:
                cut = conn.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]
            assert cut is True
        for item in spilled_batch():
            await pipeline.process_item(item)
        await pipeline.flush()
    finally:
        await pipeline.close_spider()


def pipeline_run(database_url: str, data_dir: Path, crawl_id: str, cut: bool):
    with psycopg.connect(database_url, autocommit=True) as conn:
        migrate(conn)
        # the crawl's row, as the crawl_record extension writes it when a crawl starts
        conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'general')", (crawl_id,))
    crawler = get_crawler(settings_dict={
        "CRAWLER_DATABASE_URL": database_url,
        "CRAWLER_DATA_DIR": str(data_dir),
        "STORE_WRITE_ATTEMPTS": 1,
        "STORE_FLUSH_INTERVAL": 3600,
    })
    crawler.spider = SimpleNamespace(crawl_id=crawl_id)
    asyncio.run(run_pipeline(crawler, database_url, cut))
    return crawler.stats


def rows(db: psycopg.Connection, crawl_id: str) -> dict[str, list[tuple]]:
    return {
        "pages": db.execute(
            f"SELECT {PAGE_COLUMNS} FROM pages WHERE crawl_id = %s ORDER BY url", (crawl_id,)
        ).fetchall(),
        "links": db.execute(
            "SELECT source_url, target_url, anchor_text, visibility, position, distance "
            "FROM links WHERE crawl_id = %s ORDER BY 1, 2", (crawl_id,),
        ).fetchall(),
        "uncrawled": db.execute(
            "SELECT url, category, detail, at FROM uncrawled WHERE crawl_id = %s ORDER BY url",
            (crawl_id,),
        ).fetchall(),
    }


def replay(database_url: str, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_scrapy("replayspill", *args, "-s", f"CRAWLER_DATA_DIR={cwd / '.crawl'}",
                      database_url=database_url, cwd=cwd, timeout=120)


@pytest.fixture
def spilled(database_url: str, tmp_path: Path) -> SimpleNamespace:
    """A crawl whose second batch was spilled (``path``, crawl ``crawl_id``), and the
    crawl ``reference`` with the rows the same batches give when the database stays up
    (written by the same pipeline)."""
    crawl_id = f"spilled-{uuid.uuid4().hex[:8]}"
    reference_id = f"reference-{uuid.uuid4().hex[:8]}"
    data_dir = tmp_path / ".crawl"
    stats = pipeline_run(database_url, data_dir, crawl_id, cut=True)
    assert stats.get_value("store/spilled") == 5
    assert stats.get_value("store/pages") == 1
    reference = pipeline_run(database_url, tmp_path / "reference", reference_id, cut=False)
    assert reference.get_value("store/spilled") is None
    assert reference.get_value("store/pages") == 3
    return SimpleNamespace(
        path=data_dir / "spill" / f"{crawl_id}.jsonl", crawl_id=crawl_id,
        reference=reference_id,
    )


def test_replay_writes_exactly_the_rows_the_pipeline_would_have(
    spilled: SimpleNamespace, database_url: str, db: psycopg.Connection, tmp_path: Path
) -> None:
    crawl_id, spill = spilled.crawl_id, spilled.path
    assert len(spill.read_text().splitlines()) == 5
    before = rows(db, crawl_id)
    assert [r[0] for r in before["pages"]] == ["http://a.test/"]
    assert [r[0] for r in before["uncrawled"]] == ["http://a.test/later.html"]
    expected = rows(db, spilled.reference)
    assert expected != before
    saved = tmp_path / "copy.jsonl"
    shutil.copy(spill, saved)

    result = replay(database_url, tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert re.fullmatch(
        re.escape(f"{spill}: 2 pages, 2 links, 3 uncrawled URLs written in 1 batches "
                  f"(crawl {crawl_id}); renamed to {spill}.replayed-")
        + r"\d{8}T\d{6}Z", lines[0]), lines[0]
    assert lines[1] == "replayed 5 items from 1 files; 1 files fully written"
    assert not spill.exists()
    (renamed,) = spill.parent.glob(f"{crawl_id}.jsonl.replayed-*")
    assert renamed.read_bytes() == saved.read_bytes()

    after = rows(db, crawl_id)
    assert after == expected
    assert after["uncrawled"] == [
        ("http://a.test/missing.html", "http_404", "HTTP 404", T0),
        ("http://b.test/", "connection", "refused", T0),
    ]
    b_page = next(r for r in after["pages"] if r[0] == "http://a.test/b.html")
    assert b_page[6:] == (
        datetime(2025, 5, 6, 7, 8, 9, 123456, tzinfo=UTC), 2, "Bé  page",
        "naïve text\nline two", "0" * 32, 100, 0.375, True,
    )
    assert ("http://a.test/b.html", "http://other.test/x", "élan  vital", 2, 1, 5) in (
        after["links"])

    # idempotent: the same file replayed again leaves exactly the same rows
    shutil.copy(saved, spill)
    again = replay(database_url, tmp_path, str(spill))
    assert (again.returncode, again.stderr) == (0, "")
    assert again.stdout.startswith(
        f"{spill}: 2 pages, 2 links, 3 uncrawled URLs written in 1 batches")
    assert rows(db, crawl_id) == expected
    assert not spill.exists()
    assert len(list(spill.parent.glob(f"{crawl_id}.jsonl.replayed-*"))) == 2

    nothing = replay(database_url, tmp_path)
    assert (nothing.returncode, nothing.stdout) == (
        0, f"no spill files in {spill.parent}\n")


def test_bad_line_is_reported_and_the_rest_written(
    spilled: SimpleNamespace, database_url: str, db: psycopg.Connection, tmp_path: Path
) -> None:
    crawl_id, spill = spilled.crawl_id, spilled.path
    good = spill.read_text().splitlines(keepends=True)
    bad = '{"type": "UncrawledItem", "url": "http://c.test/", "category": "gone"}\n'
    spill.write_text("".join([good[0], "{not json\n", *good[1:4], bad, good[4]]))

    result = replay(database_url, tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"error: {spill} line 2: not JSON: Expecting property name enclosed in double "
        "quotes: line 1 column 2 (char 1)",
        f"error: {spill} line 6: unknown uncrawled category 'gone'",
    ]
    assert result.stdout.splitlines() == [
        f"{spill}: 2 pages, 2 links, 3 uncrawled URLs written in 1 batches (crawl "
        f"{crawl_id}); 2 bad lines, file kept: fix or delete them and replay again (rows "
        "already written are updated, never duplicated)",
        "replayed 5 items from 1 files; 0 files fully written",
    ]
    assert spill.exists()  # nothing lost: the bad lines are still there to be fixed
    assert rows(db, crawl_id) == rows(db, spilled.reference)

    spill.write_text("".join(good))  # fixed by hand
    fixed = replay(database_url, tmp_path)
    assert (fixed.returncode, fixed.stderr) == (0, "")
    assert not spill.exists()
    assert rows(db, crawl_id) == rows(db, spilled.reference)


def test_replay_into_a_database_without_the_crawl(
    spilled: SimpleNamespace, database_url: str, db: psycopg.Connection, tmp_path: Path
) -> None:
    crawl_id, spill = spilled.crawl_id, spilled.path
    # the same spill under a crawl id this database does not know (e.g. another server)
    elsewhere = f"elsewhere-{uuid.uuid4().hex[:8]}"
    moved = spill.with_name(f"{elsewhere}.jsonl")
    moved.write_text(spill.read_text().replace(f'"crawl_id": "{crawl_id}"',
                                               f'"crawl_id": "{elsewhere}"'))
    spill.unlink()
    result = replay(database_url, tmp_path, str(moved))
    assert (result.returncode, result.stderr) == (0, "")
    assert f"(crawl {elsewhere}); crawl row added for {elsewhere}; renamed to" in result.stdout
    assert db.execute(
        "SELECT spider, arguments FROM crawls WHERE id = %s", (elsewhere,)
    ).fetchone() == ("unknown", {"replayed_spill_file": str(moved)})
    assert rows(db, elsewhere)["pages"] == [
        r for r in rows(db, spilled.reference)["pages"] if r[0] != "http://a.test/"]


def test_missing_file_and_unreachable_database(tmp_path: Path, database_url: str) -> None:
    missing = replay(database_url, tmp_path, str(tmp_path / "nope.jsonl"))
    assert (missing.returncode, missing.stdout, missing.stderr) == (
        2, "", f"error: no spill file {tmp_path / 'nope.jsonl'}\n")
    spill = tmp_path / "x.jsonl"
    spill.write_text("")
    down = replay("postgresql://nobody@127.0.0.1:9/none", tmp_path, str(spill))
    assert down.returncode == 2 and down.stdout == ""
    assert down.stderr.startswith("error: cannot connect to PostgreSQL at "
                                  "postgresql://nobody@127.0.0.1:9/none: ")
    assert spill.exists()
