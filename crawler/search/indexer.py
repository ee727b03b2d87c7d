"""The index writer in a process of its own, fed with batches of documents.

Whoosh analyses text in pure Python: in the crawl's process it would compete with the
crawl for the interpreter lock. A separate process (started with ``spawn``, so no state of
the crawl is inherited) takes the batches through a bounded queue, writes each one with
one commit, and reports what it wrote. When the queue is full the sender waits: the crawl
slows down rather than buffering without bound.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crawler import defaults


@dataclass
class IndexerReport:
    """What the indexer process did since the last report."""

    pages: int = 0
    commits: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, other: IndexerReport) -> None:
        self.pages += other.pages
        self.commits += other.commits
        self.failed += other.failed
        self.errors += other.errors


def _index_worker(
    path: str, jobs: Any, results: Any, writer_timeout: float, parent_pid: int
) -> None:
    """Body of the indexer process: one batch in, one commit, one report out."""
    from crawler.search.index import IndexWriter, open_index

    ix = open_index(path)
    writer = IndexWriter(ix, writer_timeout=writer_timeout)
    try:
        while True:
            try:
                batch = jobs.get(timeout=1.0)
            except queue.Empty:
                if os.getppid() != parent_pid:  # the crawl died without telling us
                    return
                continue
            if batch is None:
                return
            try:
                written = writer.write(batch)
            except Exception as exc:  # noqa: BLE001 - reported to the crawl's log
                error = f"{type(exc).__name__}: {exc}"
                results.put(IndexerReport(failed=len(batch), errors=[error]))
            else:
                results.put(IndexerReport(pages=written, commits=1))
    finally:
        ix.close()


class BackgroundIndexer:
    """Owns the indexer process; ``submit`` batches, ``close`` waits for the last one."""

    def __init__(
        self,
        path: str | Path,
        *,
        writer_timeout: float = defaults.SEARCH_WRITER_TIMEOUT,
        max_pending_batches: int = 4,
    ) -> None:
        self.path = str(path)
        self.writer_timeout = writer_timeout
        context = multiprocessing.get_context("spawn")
        self._jobs = context.Queue(maxsize=max(1, max_pending_batches))
        self._results = context.Queue()
        self._process = context.Process(
            target=_index_worker,
            args=(self.path, self._jobs, self._results, writer_timeout, os.getpid()),
            name="search-indexer",
            daemon=True,
        )

    def start(self) -> None:
        self._process.start()

    @property
    def alive(self) -> bool:
        return self._process.is_alive()

    def submit(self, docs: list[dict[str, Any]]) -> None:
        """Queue a batch; blocks while the queue is full (the indexer is behind)."""
        while True:
            if not self._process.is_alive():
                raise RuntimeError(f"the indexer process exited ({self._process.exitcode})")
            try:
                self._jobs.put(docs, timeout=1.0)
                return
            except queue.Full:
                continue

    def reports(self) -> IndexerReport:
        """Everything reported since the last call (never blocks)."""
        total = IndexerReport()
        while True:
            try:
                total.add(self._results.get_nowait())
            except queue.Empty:
                return total

    def close(self, timeout: float | None = None) -> IndexerReport:
        """Let the indexer finish the queued batches and exit; returns the last reports."""
        if self._process.is_alive():
            self._jobs.put(None)
        report = IndexerReport()
        # drain while waiting: a child blocked on a full result pipe would never exit
        while self._process.is_alive():
            try:
                report.add(self._results.get(timeout=0.5))
            except queue.Empty:
                pass
            if timeout is not None:
                timeout -= 0.5
                if timeout <= 0:
                    self._process.terminate()
                    break
        self._process.join()
        report.add(self.reports())
        return report
