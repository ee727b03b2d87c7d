"""A frontier store whose database work runs on a thread of its own (no Scrapy).

The frontier's writes are batched, but each batch is several statements, and on the
crawl's event loop every statement waits until the loop is free again: while the crawl
parses and enqueues, PostgreSQL sits idle between statements. Here the store (its
connection included) lives on its own event loop in its own thread, so a batch goes
from statement to statement while the crawl goes on; the crawl's loop only awaits the
result. The frontier hands each batch over whole and never touches it while it is written
(``WriteBatch`` holds copies), so nothing is shared but the batch.

The thread is a daemon: a crawl that dies without closing its frontier loses what a
crash loses anyway (the unwritten changes), and the next run recovers (docs/frontier.md).
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, TypeVar

from crawler.frontier.scores import Strategy
from crawler.frontier.store import (
    FrontierStore,
    OpenState,
    QueuedKey,
    StoredRow,
    WriteBatch,
    WriteResult,
)
from crawler.storage.loop_thread import LoopThread

T = TypeVar("T")


class ThreadedStore:
    """:class:`~crawler.frontier.store.FrontierStore` running ``store`` on a thread."""

    def __init__(self, store: FrontierStore, name: str = "frontier-store") -> None:
        self.store = store
        self._thread = LoopThread(name, daemon=True)

    async def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run another coroutine of the store's (e.g. one using its connection) there."""
        return await self._thread.run(coro)

    async def open(self, strategy: Strategy) -> OpenState:
        self._thread.start()
        try:
            return await self._thread.run(self.store.open(strategy))
        except BaseException:
            self._thread.stop()
            raise

    async def write(self, batch: WriteBatch) -> WriteResult:
        return await self._thread.run(self.store.write(batch))

    async def claim(
        self, limit: int, per_host: int, exclude_hosts: list[str],
        hosts: list[str] | None = None,
    ) -> list[StoredRow]:
        return await self._thread.run(self.store.claim(limit, per_host, exclude_hosts, hosts))

    async def lowest_queued(self, limit: int) -> list[QueuedKey]:
        return await self._thread.run(self.store.lowest_queued(limit))

    async def queued_hosts(self, limit: int) -> list[tuple[str, int]]:
        return await self._thread.run(self.store.queued_hosts(limit))

    async def evict(self, fps: list[int], detail: str, at: float) -> tuple[int, int]:
        return await self._thread.run(self.store.evict(fps, detail, at))

    async def close(self, clean: bool, clock: float, seq: int) -> None:
        if not self._thread.running:
            return
        try:
            await self._thread.run(self.store.close(clean, clock, seq))
        finally:
            self._thread.stop()
