"""The storage pipeline's write schedule (crawler/storage/flush_schedule.py)."""

from __future__ import annotations

import pytest

from crawler.storage.flush_schedule import FlushSchedule


def test_nothing_buffered_nothing_due() -> None:
    schedule = FlushSchedule(interval=2.0, batch_size=10)
    assert schedule.deadline is None
    assert schedule.delay(100.0) is None


def test_deadline_counts_from_the_oldest_row_not_the_last_write() -> None:
    schedule = FlushSchedule(interval=2.0, batch_size=10)
    assert schedule.added(100.0) is True  # first row: the writer must learn the deadline
    assert schedule.added(101.5) is False
    assert schedule.deadline == 102.0
    assert schedule.delay(101.5) == 0.5
    assert schedule.delay(102.0) == 0.0
    assert schedule.delay(103.0) == 0.0
    schedule.taken()
    assert schedule.deadline is None
    assert schedule.added(103.0) is True
    assert schedule.deadline == 105.0


def test_an_older_row_moves_the_deadline_earlier() -> None:
    schedule = FlushSchedule(interval=2.0, batch_size=10)
    schedule.added(100.0)
    assert schedule.added(99.0) is True
    assert schedule.deadline == 101.0


def test_a_write_starts_early_by_the_slowest_recent_write() -> None:
    schedule = FlushSchedule(interval=2.0, batch_size=10, history=3)
    for seconds in (0.3, 0.5, 0.1):
        schedule.wrote(seconds)
    schedule.added(100.0)
    assert schedule.deadline == 101.5
    schedule.wrote(0.2)
    schedule.wrote(0.1)  # 0.5 and 0.3 have left the history of 3
    assert schedule.deadline == pytest.approx(101.8)
    schedule.wrote(5.0)  # slower than the interval: write at once, never before the row
    assert schedule.deadline == 100.0


def test_a_full_batch_is_due_at_once() -> None:
    schedule = FlushSchedule(interval=2.0, batch_size=3)
    assert schedule.added(100.0) is True
    assert schedule.added(100.1) is False
    assert schedule.delay(100.2) == pytest.approx(1.8)
    assert schedule.added(100.2) is True  # the batch just became full
    assert schedule.delay(100.2) == 0.0
    assert schedule.added(100.3) is False  # still full: the writer knows already
    assert schedule.delay(100.3) == 0.0
