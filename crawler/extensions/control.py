"""Live control of a running crawl (docs/operations.md#live-control): every
CONTROL_POLL_INTERVAL seconds the process reads the new actions of its crawl's history
(crawler/control/store.py) and obeys them (crawler/control/actions.py). Every process
of a crawl polls, so every agent of a distributed crawl obeys.

The reads are an AsyncConnection's on the crawl's asyncio loop: the reactor thread
never waits for the database. The actions themselves are applied on the reactor:
pause and resume through the engine (DownloaderSlots), exclude through the crawl's
ScopeGate, add-seeds as requests scheduled through the engine, stop as a close of the
spider with the reason ``control_stop``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from typing import Any

import psycopg
from scrapy import signals
from scrapy.exceptions import NotConfigured

from crawler import defaults
from crawler.control import store
from crawler.control.actions import Action, plan
from crawler.downloader.slots import DownloaderSlots
from crawler.schedulers.best_first import ERROR_STAT
from crawler.scope.gate import scope_gate
from crawler.scope.rules import ScopeRuleError, parse_rule
from crawler.storage.database import crawl_database

logger = logging.getLogger(__name__)

STOP_REASON = "control_stop"


class CrawlControl:
    def __init__(self, crawler: Any, *, interval: float, seed_priority: int) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.interval = interval
        self.seed_priority = seed_priority
        self._slots = DownloaderSlots.from_crawler(crawler)
        self._task: asyncio.Task[None] | None = None
        self._last_id: int | None = None  # the last action read; None: not read yet
        self._stopping = False
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> CrawlControl:
        settings = crawler.settings
        interval = settings.getfloat("CONTROL_POLL_INTERVAL", defaults.CONTROL_POLL_INTERVAL)
        if interval <= 0:
            raise NotConfigured("CONTROL_POLL_INTERVAL is 0")
        return cls(
            crawler,
            interval=interval,
            seed_priority=settings.getint(
                "FRONTIER_SEED_PRIORITY", defaults.FRONTIER_SEED_PRIORITY
            ),
        )

    # --- life cycle ------------------------------------------------------------------
    def spider_opened(self, spider: Any) -> None:
        if self.stats.get_value(ERROR_STAT):
            return  # refused to run: the crawl is another process's
        self.crawl_id = str(getattr(spider, "crawl_id", "") or spider.name)
        self.spider = spider
        self._task = asyncio.get_running_loop().create_task(self._poll_loop())

    async def spider_closed(self, spider: Any, reason: str) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _applier(self) -> str:
        """Who applied an add-seeds (the agent id, else machine and pid)."""
        agent = self.stats.get_value("agents/id")
        return str(agent) if agent else f"{socket.gethostname()}-{os.getpid()}"

    async def _poll_loop(self) -> None:
        url = crawl_database(self.crawler).url
        conn: psycopg.AsyncConnection[Any] | None = None
        try:
            while True:
                try:
                    if conn is None or conn.closed:
                        conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
                    await self._poll(conn)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # the database is away: try again next time
                    self.stats.inc_value("control/poll_errors")
                    logger.warning("control: reading the crawl's actions failed (%s)", exc)
                    if conn is not None:
                        with contextlib.suppress(Exception):
                            await conn.close()
                    conn = None
                await asyncio.sleep(self.interval)
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    async def _poll(self, conn: Any) -> None:
        first = self._last_id is None
        actions = await store.actions_since(conn, self.crawl_id, self._last_id or 0)
        if actions:
            self._last_id = actions[-1].id
        elif first:
            self._last_id = 0
        for action in plan(actions, first=first):
            if action.action == "add-seeds":
                if not await store.claim(conn, action.id, self._applier()):
                    continue  # another process of the crawl queued them
            self._apply(action, first)

    # --- the actions -----------------------------------------------------------------
    def _apply(self, action: Action, first: bool) -> None:
        self.stats.inc_value("control/actions")
        self.stats.inc_value(f"control/actions/{action.action}")
        name = action.action
        logger.info(
            "control: %s (action %d, %s%s)%s",
            action.describe(), action.id, action.source or "?",
            f", {action.at:%Y-%m-%dT%H:%M:%SZ}" if action.at else "",
            " given before this process started" if first else "",
        )
        if name == "pause":
            self._slots.pause_engine(True)
            self.stats.set_value("control/paused", True)
        elif name == "resume":
            self._slots.pause_engine(False)
            self.stats.set_value("control/paused", False)
        elif name == "exclude":
            try:
                rule = parse_rule(str(action.argument), f"control action {action.id}")
            except ScopeRuleError as exc:  # (checked when it was given)
                logger.error("control: exclude action %d ignored: %s", action.id, exc)
                return
            scope_gate(self.crawler).exclude(rule)
            self._slots.wake_engine()
        elif name == "add-seeds":
            self._add_seeds(list(action.argument or []))
        elif name == "stop":
            self._stop()

    def _add_seeds(self, urls: list[str]) -> None:
        engine = self.crawler.engine
        for url in urls:
            # the spider's own seed request (every spider of the project has one), queued
            # with the seeds' priority; the frontier applies the scope and URL-seen tests
            request = self.spider.seed_request(url)
            request.priority += self.seed_priority
            engine.crawl(request)
            self.stats.inc_value("control/seeds_added")

    def _stop(self) -> None:
        if self._stopping:
            return
        self._stopping = True
        engine = self.crawler.engine
        # the engine's close waits for the requests in progress; nothing new leaves
        asyncio.get_running_loop().create_task(engine.close_spider_async(reason=STOP_REASON))
