"""Waiting on a real condition instead of sleeping a guessed time.

A test that waits for something another thread or process does (a request answered, a
row written, a lock taken) polls for that very thing with :func:`wait_until` or
:func:`poll_until`; when it does not happen in time, the failure says what was awaited.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class WaitTimeout(AssertionError):
    """The awaited condition did not hold in time (an AssertionError: a test failure)."""


def poll_until(
    probe: Callable[[], T | None],
    timeout: float,
    interval: float = 0.05,
    what: str = "",
    details: Callable[[], object] | None = None,
) -> T:
    """Call ``probe`` every ``interval`` seconds until it returns a true value, and return
    that value. Past ``timeout`` seconds raise :class:`WaitTimeout` naming ``what`` was
    awaited, the last value seen, and ``details()`` (e.g. the tail of a log) if given."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() >= deadline:
            message = f"waited {timeout:g} s for {what or probe!r}; last value: {value!r}"
            if details is not None:
                message += f"\n{details()}"
            raise WaitTimeout(message)
        time.sleep(interval)


def wait_until(
    predicate: Callable[[], object],
    timeout: float,
    interval: float = 0.05,
    what: str = "",
    details: Callable[[], object] | None = None,
) -> None:
    """Return once ``predicate()`` is true; past ``timeout`` seconds raise
    :class:`WaitTimeout` (see :func:`poll_until`)."""
    poll_until(predicate, timeout, interval, what, details)
