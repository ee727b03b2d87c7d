"""The spider's warm-up thread: a failure there is one warning line, not a traceback, and
the rest of the warm-up is skipped (what it loads is loaded again on first use)."""

from __future__ import annotations

import logging

import pytest

from crawler.spiders import base


def test_a_failed_warm_up_is_one_warning_and_nothing_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    loaded: list[str] = []

    def deadlocked() -> None:
        raise ImportError("deadlock detected by _ModuleLock('scipy.sparse')")

    monkeypatch.setattr(base, "near_duplicates_warm_up", deadlocked)
    monkeypatch.setattr(base, "load_language_model", lambda: loaded.append("model"))
    with caplog.at_level(logging.WARNING, logger="crawler.spiders.base"):
        base._warm_up()
    assert loaded == []
    assert [r.getMessage() for r in caplog.records] == [
        "warm-up on a thread failed (ImportError: deadlock detected by "
        "_ModuleLock('scipy.sparse')); loading on first use instead"
    ]
