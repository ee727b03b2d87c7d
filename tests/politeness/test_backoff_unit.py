"""Back-off by answer (crawler/politeness/backoff.py): Retry-After parsing, pauses,
doubling on repeats, the cap (issue 30, item 2)."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import format_datetime

import pytest

from crawler.politeness.backoff import HostBackoff, retry_after_seconds

NOW = 1_800_000_000.0  # a wall-clock time


def http_date(seconds_from_now: float) -> str:
    return format_datetime(datetime.fromtimestamp(NOW + seconds_from_now, UTC), True)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("1", 1.0),
        (b" 120 ", 120.0),
        ("0", 0.0),
        (http_date(30), 30.0),
        (http_date(-30), 0.0),  # a date in the past: now
        ("Wed, 21 Oct 2015 07:28:00", None),  # no zone: not an HTTP date
        ("-5", None),
        ("soon", None),
        ("nan", None),
        ("", None),
        (None, None),
    ],
)
def test_retry_after_values(value, seconds):
    assert retry_after_seconds(value, NOW) == seconds


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def backoff(clock: Clock, **kwargs) -> HostBackoff:
    return HostBackoff(now=clock, wall=lambda: NOW, **kwargs)


def test_a_503_pauses_its_host_for_the_time_asked_and_only_that_host():
    clock = Clock()
    b = backoff(clock)
    assert b.answer("a.test", 503, "2") == 2.0
    assert b.wait("a.test") == 2.0 and b.wait("b.test") == 0.0
    clock.t += 1.5
    assert b.wait("a.test") == pytest.approx(0.5)
    clock.t += 0.5
    assert b.wait("a.test") == 0.0 and b.waits() == {}


def test_without_retry_after_the_default_pause_and_other_statuses_do_not_pause():
    clock = Clock()
    b = backoff(clock, default_pause=3.0)
    assert b.answer("a.test", 429, None) == 3.0
    assert b.answer("b.test", 500, "10") is None and b.wait("b.test") == 0.0
    assert b.answer("b.test", 404, None) is None


def test_repeats_double_the_pause_a_success_resets_the_doubling():
    clock = Clock()
    b = backoff(clock, default_pause=1.0)
    assert b.answer("a.test", 503, "1") == 1.0
    # another 503 during the pause answers a request sent before it: no doubling
    assert b.answer("a.test", 503, "1") == 1.0
    clock.t += 1.0
    assert b.answer("a.test", 503, "1") == 2.0  # first request after the pause: again
    clock.t += 2.0
    assert b.answer("a.test", 503, None) == 4.0
    # a success during a pause resets the doubling, not the pause
    assert b.answer("a.test", 200, None) is None and b.wait("a.test") == 4.0
    clock.t += 4.0
    assert b.answer("a.test", 503, "1") == 1.0


def test_a_retry_after_of_ten_years_is_capped_never_an_error():
    clock = Clock()
    b = backoff(clock, max_pause=60.0)
    assert b.answer("a.test", 503, str(10 * 365 * 86400)) == 60.0
    assert b.answer("b.test", 429, http_date(10 * 365 * 86400)) == 60.0
    assert b.answer("c.test", 503, "9" * 400) == 60.0  # beyond a float: infinite, capped
    assert b.capped == 3
    clock.t += 60.0
    for _ in range(80):  # doubling without end stays at the cap
        assert b.answer("d.test", 503, "1") <= 60.0
        clock.t += 61.0


def test_settings_are_read_once_and_unusable_values_are_one_line_errors():
    from scrapy.settings import Settings

    from crawler.politeness.backoff import backoff_setting

    b = backoff_setting(Settings({"BACKOFF_HTTP_CODES": "429,503,509", "RETRY_AFTER_MAX": "60"}))
    assert b is not None and b.statuses == {429, 503, 509} and b.max_pause == 60.0
    assert backoff_setting(Settings({"BACKOFF_HTTP_CODES": []})) is None
    for bad, message in [
        ({"BACKOFF_HTTP_CODES": "abc"}, "BACKOFF_HTTP_CODES must be HTTP status codes"),
        ({"RETRY_AFTER_MAX": "-1"}, "RETRY_AFTER_MAX must be a number of seconds >= 0"),
        ({"BACKOFF_DEFAULT_PAUSE": "soon"}, "BACKOFF_DEFAULT_PAUSE must be a number"),
    ]:
        with pytest.raises(ValueError, match=message):
            backoff_setting(Settings(bad))
