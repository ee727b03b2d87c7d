"""An asyncio event loop in its own thread.

The storage pipeline's PostgreSQL writes run here rather than on the crawl's event loop,
where they would wait behind parsing and extraction of every response ready before them
(docs/performance.md, kill window). Coroutines are handed over with :meth:`submit` (a
``concurrent.futures.Future``) or awaited from another loop with :meth:`run`; an
exception raised in the thread reaches the caller through that future. No Scrapy.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["LoopThread"]

logger = logging.getLogger(__name__)

T = TypeVar("T")


class LoopThread:
    """``start()`` runs a new event loop in a thread named ``name``; ``stop()`` lets the
    tasks still running finish (or cancels them after ``timeout``), closes the loop and
    joins the thread."""

    def __init__(self, name: str, *, daemon: bool = False) -> None:
        self.name = name
        self.daemon = daemon
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            raise RuntimeError(f"loop thread {self.name} is not running")
        return self._loop

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> LoopThread:
        if self._thread is not None:
            raise RuntimeError(f"loop thread {self.name} already started")
        started = threading.Event()
        loop = asyncio.new_event_loop()

        def main() -> None:
            asyncio.set_event_loop(loop)
            loop.call_soon(started.set)
            try:
                loop.run_forever()
            finally:
                asyncio.set_event_loop(None)

        self._loop = loop
        # not a daemon by default: the interpreter waits for the last rows to be written
        self._thread = threading.Thread(target=main, name=self.name, daemon=self.daemon)
        self._thread.start()
        started.wait()
        return self

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Schedule ``coro`` on the thread's loop (callable from any thread)."""
        if self._loop is None:
            coro.close()  # never started: no "never awaited" warning on top of the error
            raise RuntimeError(f"loop thread {self.name} is not running")
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    async def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the thread's loop and wait for it from the caller's loop."""
        return await asyncio.wrap_future(self.submit(coro))

    def call_soon(self, callback: Callable[..., object], *args: object) -> None:
        """Call ``callback(*args)`` in the thread (callable from any thread)."""
        self.loop.call_soon_threadsafe(callback, *args)

    def stop(self, timeout: float | None = None) -> None:
        """Wait for the loop's tasks (cancelling those still running after ``timeout``
        seconds), then stop and close the loop and join the thread. Idempotent."""
        if self._thread is None or self._loop is None:
            return
        loop, thread = self._loop, self._thread
        if thread.is_alive():
            asyncio.run_coroutine_threadsafe(_drain(timeout), loop).result()
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
        loop.close()
        self._loop = self._thread = None


async def _drain(timeout: float | None) -> None:
    current = asyncio.current_task()
    tasks = [t for t in asyncio.all_tasks() if t is not current]
    if not tasks:
        return
    _done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
    if pending:
        logger.error(
            "%d tasks still running at the stop of their loop thread: cancelled", len(pending)
        )
        await asyncio.wait(pending)
    # their results and exceptions are in the futures submit() returned
