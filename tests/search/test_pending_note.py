"""The index folder's note of pages a crawl left unindexed (crawler/search/pending.py)."""

from __future__ import annotations

from pathlib import Path

from crawler.search.pending import (
    PENDING_FILE,
    clear_pending,
    note_pending,
    pending_message,
    read_pending,
)


def test_a_note_per_crawl_removed_when_caught_up(tmp_path: Path) -> None:
    assert read_pending(tmp_path) == {} and pending_message(tmp_path) is None
    note_pending(tmp_path, "crawl-a", 12, 10)
    note_pending(tmp_path, "crawl-b", 3, 3)
    assert {k: (v["operations"], v["pages"]) for k, v in read_pending(tmp_path).items()} == {
        "crawl-a": (12, 10),
        "crawl-b": (3, 3),
    }
    assert pending_message(tmp_path) == (
        "note: 13 stored pages of crawls crawl-a, crawl-b were not searchable yet when they "
        "closed: `scrapy index` applies them (see `scrapy index --status`)"
    )
    note_pending(tmp_path, "crawl-a", 0, 0)  # the same crawl closed again, nothing left
    assert set(read_pending(tmp_path)) == {"crawl-b"}
    clear_pending(tmp_path)
    assert not (tmp_path / PENDING_FILE).exists() and pending_message(tmp_path) is None
    clear_pending(tmp_path)  # nothing to remove: no error


def test_an_unreadable_note_is_no_note(tmp_path: Path) -> None:
    (tmp_path / PENDING_FILE).write_text("{not json", encoding="utf-8")
    assert read_pending(tmp_path) == {} and pending_message(tmp_path) is None
    note_pending(tmp_path, "crawl-a", 1, 1)  # replaced by a good one
    assert set(read_pending(tmp_path)) == {"crawl-a"}
