"""The spill file format: writing, reading, batching and retiring (crawler/storage/spill.py).

The replay into PostgreSQL is tested end to end in tests/e2e/test_spill_replay.py.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from crawler.items import LinkRecord, PageItem, UncrawledItem
from crawler.storage.spill import (
    SpillLineError,
    append_items,
    batches,
    parse_line,
    read_chunk,
    retire,
    spill_path,
)
from tests.waiting import wait_until

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def page(url: str, **fields: object) -> PageItem:
    values: dict[str, object] = dict(
        url=url, final_url=url, host="a.test", status=200, content_type="text/html",
        fetched_at=T0, depth=0, size=1, content_md5="m",
    )
    values.update(fields)
    return PageItem(**values)  # type: ignore[arg-type]


def test_items_round_trip(tmp_path: Path) -> None:
    items = [
        page("http://a.test/", title="t\x00", links=[LinkRecord("http://b.test/", "é", 2, 3, 5)],
             last_modified=datetime(2025, 1, 2, 3, 4, 5, 6, tzinfo=UTC), weight=1.5,
             relevant=False),
        UncrawledItem("http://a.test/x", "http_404", "HTTP 404", T0),
        UncrawledItem("http://a.test/y", "timeout"),
    ]
    path = spill_path(tmp_path / "spill", "crawl-1")
    assert path == tmp_path / "spill" / "crawl-1.jsonl"
    assert append_items(path, "crawl-1", items) == 3
    chunk = read_chunk(path, 0, 1)
    assert chunk.errors == []
    assert chunk.items == [(n, "crawl-1", item) for n, item in enumerate(items, 1)]
    assert (chunk.start, chunk.end, chunk.next_line) == (0, path.stat().st_size, 4)


def test_old_lines_take_the_crawl_id_from_the_file_name(tmp_path: Path) -> None:
    # lines written before each row carried its crawl id
    path = tmp_path / "old-crawl.jsonl"
    path.write_text(json.dumps({"type": "UncrawledItem", "url": "http://a.test/",
                                "category": "trap", "detail": "", "at": None}) + "\n")
    assert read_chunk(path, 0, 1).items == [
        (1, "old-crawl", UncrawledItem("http://a.test/", "trap"))]
    renamed = tmp_path / "old-crawl.jsonl.replayed-20260101T000000Z"
    path.rename(renamed)
    assert read_chunk(renamed, 0, 1).items[0][1] == "old-crawl"


@pytest.mark.parametrize(("line", "reason"), [
    ("[1]", "not a JSON object"),
    ('{"type": "Other", "url": "u"}', "unknown item type 'Other'"),
    ('{"type": "UncrawledItem", "category": "trap"}', "'url' is missing"),
    ('{"type": "UncrawledItem", "url": 3, "category": "trap"}', "'url' is not a string"),
    ('{"type": "UncrawledItem", "url": "u", "category": "nope"}',
     "unknown uncrawled category 'nope'"),
    ('{"type": "UncrawledItem", "url": "u", "category": "trap", "at": "yesterday"}',
     "'at' is not a time: 'yesterday'"),
    ('{"type": "PageItem", "url": "u", "final_url": "u", "host": "h", "status": "200"}',
     "'status' is not an integer"),
    ('{"type": "PageItem", "url": "u", "final_url": "u", "host": "h", "status": 200, '
     '"content_type": "", "fetched_at": "2026-01-01 00:00:00+00:00", "depth": 0, "size": 1, '
     '"content_md5": "m", "links": [{"target_url": "v"}]}', "'visibility' is missing"),
    ('{"type": "PageItem", "url": "u", "final_url": "u", "host": "h", "status": 200, '
     '"content_type": "", "fetched_at": "2026-01-01 00:00:00+00:00", "depth": 0, "size": 1, '
     '"content_md5": "m", "relevant": 1}', "'relevant' is not true, false or null: 1"),
])
def test_bad_lines_say_what_is_wrong(line: str, reason: str) -> None:
    with pytest.raises(SpillLineError) as caught:
        parse_line(line, "c")
    assert str(caught.value) == reason


def test_read_chunk_reports_bad_lines_and_keeps_reading(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    append_items(path, "c", [UncrawledItem("http://a.test/1", "trap")])
    with path.open("ab") as fh:
        fh.write(b"\xff\xfe\n\n{oops\n")
    append_items(path, "c", [UncrawledItem("http://a.test/2", "trap")])
    with path.open("ab") as fh:
        fh.write(b'{"type": "Uncraw')  # a write cut short
    chunk = read_chunk(path, 0, 1)
    assert [(n, item.url) for n, _, item in chunk.items] == [
        (1, "http://a.test/1"), (5, "http://a.test/2")]
    assert [n for n, _ in chunk.errors] == [2, 4, 6]
    assert chunk.errors[0][1].startswith("not UTF-8: ")
    assert chunk.errors[1][1].startswith("not JSON: ")
    assert chunk.errors[2][1] == "incomplete last line (the write was cut short)"
    # reading on from the end of a chunk sees only what was appended since
    end = chunk.end
    append_items(path, "c", [UncrawledItem("http://a.test/3", "trap")])
    later = read_chunk(path, end, chunk.next_line)
    assert [(n, item.url) for n, _, item in later.items] == [(7, "http://a.test/3")]


def test_batches_keep_the_writers_order() -> None:
    a, b, c = "http://a.test/a", "http://a.test/b", "http://a.test/c"
    items = [
        page(a), UncrawledItem(b, "http_503"),  # batch 1 of the pipeline
        page(b), UncrawledItem(c, "timeout"),  # batch 2: b stored after failing
        UncrawledItem(a, "trap"),  # batch 3: a weak refusal of a stored page
    ]
    numbered = [(n, "c1", item) for n, item in enumerate(items, 1)]
    numbered.append((6, "c2", page(c)))
    got = [
        (crawl, [p.url for p in pages], [(u.url, u.category) for u in uncrawled])
        for crawl, pages, uncrawled in batches(numbered, max_rows=100)
    ]
    assert got == [
        ("c1", [a], [(b, "http_503")]),
        ("c1", [b], [(c, "timeout"), (a, "trap")]),
        ("c2", [c], []),
    ]
    sizes = [len(p) + len(u) for _, p, u in batches(numbered, max_rows=2)]
    assert sizes == [2, 2, 1, 1]


def test_retire_renames_only_a_fully_replayed_file(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    append_items(path, "c", [UncrawledItem("http://a.test/1", "trap")])
    size = path.stat().st_size
    append_items(path, "c", [UncrawledItem("http://a.test/2", "trap")])
    assert retire(path, size) is None and path.exists()  # line 2 not replayed yet
    renamed = retire(path, path.stat().st_size)
    assert renamed is not None and not path.exists()
    assert renamed.name.startswith("c.jsonl.replayed-")
    assert len(renamed.read_text().splitlines()) == 2
    # a second file replayed in the same second gets its own name
    append_items(path, "c", [UncrawledItem("http://a.test/3", "trap")])
    second = retire(path, path.stat().st_size)
    assert second is not None and second != renamed and renamed.exists()


def flock_waiters(path: Path) -> int:
    """How many flock() calls wait for a lock on ``path``'s file (from /proc/locks)."""
    st = path.stat()
    inode = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    lines = Path("/proc/locks").read_text().splitlines()
    return sum(1 for line in lines if " -> FLOCK " in line and inode in line.split())


def test_a_writer_waiting_on_a_retired_file_starts_a_new_one(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    append_items(path, "c", [UncrawledItem("http://a.test/1", "trap")])
    renamed: list[Path | None] = []
    with path.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # as retire() holds it while it renames
        writer = threading.Thread(
            target=append_items, args=(path, "c", [UncrawledItem("http://a.test/2", "trap")]))
        writer.start()
        # the writer has opened the old file and waits for the lock
        wait_until(lambda: flock_waiters(path) == 1, timeout=10, interval=0.01,
                   what="the writer to wait for the file's lock")
        assert writer.is_alive()
        target = path.with_name("c.jsonl.replayed-x")
        path.rename(target)
        renamed.append(target)
    writer.join(timeout=5)
    assert not writer.is_alive()
    assert [item.url for _, _, item in read_chunk(renamed[0], 0, 1).items] == [
        "http://a.test/1"]
    assert [item.url for _, _, item in read_chunk(path, 0, 1).items] == ["http://a.test/2"]
