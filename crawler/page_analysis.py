"""Page analysis (links, visible text, main content, language) in worker processes.

The crawl process runs on one core: on documentation webs with 30-3,000 KB pages, parsing
a page twice (lxml for the links and text, resiliparse for the main content) took about
half of its main thread (docs/performance.md), and resiliparse holds the GIL, so a
thread would not help. :class:`PageAnalysisPool` runs :func:`analyse_html` in worker
processes: the crawl's thread sends the body and receives plain tuples.

What a worker returns is exactly what the spider would compute in its own process
(:func:`analyse_html` is the one function both call). When every worker is busy the
caller analyses in its own process instead of queueing (``saturated``): a page never waits
behind others while the crawl's thread has nothing to do.
"""

from __future__ import annotations

import concurrent.futures
import functools
import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from crawler import defaults
from crawler.content import load_language_model, main_content, whole_page_content
from crawler.dedup.content_seen import (
    ContentSeenTest,
    FingerprintConfig,
    PageFingerprint,
)
from crawler.extract import ExtractedLink, extract_page

logger = logging.getLogger(__name__)

#: request.meta key of the :class:`MetaPageAnalysis` a downloader middleware attached to a
#: response (crawler/middlewares/page_analysis.py); the spider pops it in parse()
PAGE_ANALYSIS_META = "page_analysis"


@dataclass(slots=True)
class PageAnalysis:
    """What the spider takes from an HTML page (crawler/extract.py, crawler/content.py)."""

    title: str = ""
    text: str = ""
    canonical: str | None = None
    links: list[ExtractedLink] = field(default_factory=list)
    main_text: str = ""
    headings: list[str] = field(default_factory=list)
    lang: str = ""
    # the names the page defines (crawler.extract.defined_names; stored in pages.names)
    names: list[str] = field(default_factory=list)
    # the content-seen test's fingerprint of its page_text(title, text, main_text), with the
    # configuration it was made with (None: not made here)
    fingerprint: tuple[FingerprintConfig, PageFingerprint | None] | None = None


@dataclass(frozen=True, slots=True)
class MetaPageAnalysis:
    """A page analysis in request.meta, with what identifies the response it was made
    from (the meta dict outlives the response: redirects and retries copy it)."""

    url: str
    size: int
    analysis: PageAnalysis

    def matches(self, url: str, body: bytes) -> bool:
        return self.url == url and self.size == len(body)


def analyse_html(
    body: bytes,
    url: str,
    *,
    encoding: str | None = None,
    content_language: str = "",
    anchor_max_chars: int = defaults.LINK_ANCHOR_MAX_CHARS,
    main_content_max_bytes: int = defaults.PAGE_MAIN_CONTENT_MAX_BYTES,
) -> PageAnalysis:
    """Links, title, visible text and the names the page defines (lxml), main content,
    headings and language (resiliparse) of an HTML page. The names (a reference page's
    functions or options, crawler.extract.defined_names) are collected by the walk over
    the page's links, at most crawler.extract.MAX_NAMES of them. A page larger than
    ``main_content_max_bytes`` (0: no limit) has its whole visible text as its main
    content (crawler.content.whole_page_content)."""
    page = extract_page(
        body, url, encoding=encoding, anchor_max_chars=anchor_max_chars, names=True,
        contexts=True,
    )
    if main_content_max_bytes and len(body) > main_content_max_bytes:
        content = whole_page_content(
            body, page.text, encoding=encoding, content_language=content_language
        )
    else:
        content = main_content(body, encoding=encoding, content_language=content_language)
    return PageAnalysis(
        title=page.title,
        text=page.text,
        canonical=page.canonical,
        links=page.links,
        main_text=content.text,
        headings=content.headings,
        lang=content.lang,
        names=page.names,
    )


# --- worker side: plain tuples cross the process boundary (pickling slotted dataclasses
# per link cost more than the tuples) ---------------------------------------------------

_LinkTuple = tuple[str, str, int, int, int, str]
_Fingerprint = tuple[FingerprintConfig, PageFingerprint | None] | None
_AnalysisTuple = tuple[
    str, str, str | None, list[_LinkTuple], str, list[str], str, list[str], _Fingerprint
]

# a worker's content-seen tests, one per configuration (only fingerprint() is used)
_tests: dict[FingerprintConfig, ContentSeenTest] = {}


# seconds between a worker's checks that the crawl's process still runs
ORPHAN_CHECK_INTERVAL = 1.0


def _exit_when_orphaned(parent_pid: int) -> None:
    # A crawl killed with SIGKILL cannot stop its pool: its workers would wait forever on
    # the call queue, or on sending back a result nobody reads, each holding its memory
    # (found after kill -9 tests: dozens of them). A worker holds nothing to save.
    while True:
        if os.getppid() != parent_pid:
            os._exit(0)
        time.sleep(ORPHAN_CHECK_INTERVAL)


def _worker_init(parent_pid: int | None = None) -> None:
    # Ctrl-C reaches the whole process group: a worker interrupted mid-page sent a
    # KeyboardInterrupt back to the crawl through the page's future, which escaped the
    # event loop and left the crawl hung with its pages unsaved. The crawl stops its
    # workers itself. (Normally inherited already: see PageAnalysisPool.open.)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_pid is not None:
        threading.Thread(
            target=_exit_when_orphaned, args=(parent_pid,), name="orphan-check", daemon=True
        ).start()
    # what a worker's first page would otherwise wait for. Not datasketch: a worker makes
    # MinHash signatures without it (near_duplicates.affine32_permutations), and its
    # import (scipy, redis: 1.4 s of CPU) would delay the worker's start by that much.
    load_language_model()


def _worker_analyse(
    body: bytes,
    url: str,
    encoding: str | None,
    content_language: str,
    anchor_max_chars: int,
    main_content_max_bytes: int,
    fingerprint_config: FingerprintConfig | None,
) -> _AnalysisTuple:
    a = analyse_html(
        body,
        url,
        encoding=encoding,
        content_language=content_language,
        anchor_max_chars=anchor_max_chars,
        main_content_max_bytes=main_content_max_bytes,
    )
    links = [
        (ln.url, ln.anchor_text, ln.visibility, ln.position, ln.distance, ln.context)
        for ln in a.links
    ]
    fingerprint: _Fingerprint = None
    if fingerprint_config is not None:
        test = _tests.get(fingerprint_config)
        if test is None:
            test = _tests[fingerprint_config] = fingerprint_config.test()
        fingerprint = (
            fingerprint_config,
            test.fingerprint(test.page_text(a.title, a.text, a.main_text)),
        )
    return (
        a.title, a.text, a.canonical, links, a.main_text, a.headings, a.lang, a.names,
        fingerprint,
    )


def result(values: _AnalysisTuple) -> PageAnalysis:
    """The PageAnalysis of a worker's return value."""
    title, text, canonical, links, main_text, headings, lang, names, fingerprint = values
    return PageAnalysis(
        title=title,
        text=text,
        canonical=canonical,
        links=[ExtractedLink(*ln) for ln in links],
        main_text=main_text,
        headings=headings,
        lang=lang,
        names=names,
        fingerprint=fingerprint,
    )


def _ready() -> bool:
    return True


def default_processes() -> int:
    """One worker per core beyond the crawl's own, at most 4 (PAGE_ANALYSIS_PROCESSES)."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


class PageAnalysisPool:
    """Worker processes that run :func:`analyse_html`.

    ``processes``: workers (0: none, every page is analysed by the caller);
    ``fingerprint_config``: the content-seen test's, whose fingerprint of each page the
    workers make too (None: not made).
    ``max_pending``: pages queued per worker before :attr:`saturated` says to analyse in
    the caller's process instead. Workers are started by spawning (a fork would copy the
    crawl's threads' locks) when the pool opens; :attr:`ready` turns true once one has
    imported what it needs, and until then the caller analyses pages itself. A worker
    that dies (a page crashing the parser) is replaced: the pages it held raise
    BrokenProcessPool, and their callers' :meth:`broken` starts new workers once.
    """

    def __init__(
        self,
        processes: int,
        max_pending: int = defaults.PAGE_ANALYSIS_MAX_PENDING,
        fingerprint_config: FingerprintConfig | None = None,
    ) -> None:
        if processes < 0:
            raise ValueError("processes must be >= 0")
        self.processes = processes
        self.fingerprint_config = fingerprint_config
        self.max_pending = max(1, max_pending) * max(1, processes)
        # pending = submitted - completed; each counter has one writer (the caller's
        # thread, the executor's management thread), so neither update can be lost
        # (counts of the current workers only: a replaced pool's futures finish later)
        self._submitted = 0
        self._completed = 0
        self._submitted_bytes = 0
        self._completed_bytes = 0
        self._generation = 0
        self.ready = False
        # monotonic seconds from open() to the first worker's readiness (None: not yet)
        self.ready_after: float | None = None
        self._opened_at = 0.0
        self.restarts = 0
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._closed = False

    def open(self) -> None:
        if self.processes and self._executor is None and not self._closed:
            self._executor = concurrent.futures.ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_init,
                initargs=(os.getpid(),),
            )
            self.ready = False
            self._opened_at = time.monotonic()
            # One warm-up call per worker starts them all now (the executor starts a
            # worker per call while none is idle), from the main thread with SIGINT
            # ignored, which the new interpreters keep: from their first instruction a
            # Ctrl-C (sent to the whole process group) does not interrupt them.
            previous = None
            if threading.current_thread() is threading.main_thread():
                previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                warm = [self._executor.submit(_ready) for _ in range(self.processes)]
            finally:
                if previous is not None:
                    signal.signal(signal.SIGINT, previous)
            for future in warm:
                future.add_done_callback(self._warmed)

    def _warmed(self, future: concurrent.futures.Future[bool]) -> None:
        # a done callback runs in the executor's management thread: only a flag is set
        if not future.cancelled() and future.exception() is None:
            if self.ready_after is None:
                self.ready_after = time.monotonic() - self._opened_at
            self.ready = True

    @property
    def saturated(self) -> bool:
        """Whether a page should be analysed by the caller now: no worker, workers still
        starting, or every worker's queue full."""
        return self._executor is None or not self.ready or self.pending >= self.max_pending

    @property
    def pending(self) -> int:
        """Pages submitted and not yet analysed."""
        return self._submitted - self._completed

    @property
    def pending_bytes(self) -> int:
        """Bytes of the pages submitted and not yet analysed."""
        return self._submitted_bytes - self._completed_bytes

    def submit(
        self,
        body: bytes,
        url: str,
        *,
        encoding: str | None,
        content_language: str,
        anchor_max_chars: int,
        main_content_max_bytes: int = defaults.PAGE_MAIN_CONTENT_MAX_BYTES,
    ) -> concurrent.futures.Future[_AnalysisTuple]:
        """Queue a page; :func:`result` turns the future's value into a PageAnalysis."""
        if self._executor is None:
            self.open()
        if self._executor is None:
            raise BrokenProcessPool("the page analysis pool is closed")
        future = self._executor.submit(
            _worker_analyse,
            body,
            url,
            encoding,
            content_language,
            anchor_max_chars,
            main_content_max_bytes,
            self.fingerprint_config,
        )
        self._submitted += 1
        self._submitted_bytes += len(body)
        future.add_done_callback(functools.partial(self._done, self._generation, len(body)))
        return future

    def _done(self, generation: int, size: int, future: concurrent.futures.Future[Any]) -> None:
        if generation == self._generation:
            self._completed += 1
            self._completed_bytes += size

    def broken(self) -> None:
        """A page raised BrokenProcessPool: replace the workers, unless that was done
        already (each page the dead worker held reports it)."""
        executor = self._executor
        if executor is None:
            return self.open()
        try:
            executor.submit(_ready)  # raises on a broken pool
        except BrokenProcessPool:
            self._replace()

    def _replace(self) -> None:
        executor, self._executor = self._executor, None
        self._generation += 1
        self._submitted = self._completed = 0
        self._submitted_bytes = self._completed_bytes = 0
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
            self.restarts += 1
            logger.warning("a page analysis worker died; starting new workers")
        self.open()

    def close(self) -> None:
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
