"""Who may run a crawl: one process, or agents, never both (the crawl's advisory lock).

A one-process run holds the crawl's advisory lock (session level, exclusive) for its
whole life and refuses a crawl that live agents share. An agent registers itself while
holding the same lock in shared mode (transaction level), so agents never wait for each
other, and either the agent's registration is visible when the one-process run checks
for live agents, or the one-process run holds the lock and the agent is refused.

After ``kill -9`` of a one-process run its PostgreSQL session can still hold the lock
for a moment (the server has not yet noticed its client is gone). Every session of a
frontier names its process in ``application_name`` (``crawler <pid>@<machine>``): a
holder named by a process of this machine that no longer exists is terminated
(``pg_terminate_backend``: its client is dead, so nothing it could still commit is
lost); a holder of another machine or without that name is waited for, at most
FRONTIER_LOCK_WAIT seconds, then the run is refused.

Plain asyncio and psycopg: no Scrapy import.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import psycopg

logger = logging.getLogger(__name__)

# Advisory lock class of frontier crawls ("fron"); the second key is hashtext(crawl_id).
LOCK_CLASS = 0x66726F6E

_NAME = re.compile(r"^crawler (\d+)@(.*)$")
_POLL = 0.25  # seconds between two attempts while waiting


class FrontierLocked(RuntimeError):
    """Another process holds the crawl's frontier."""


def one_process_refusal(crawl_id: str) -> str:
    """Why an agent may not join ``crawl_id`` now."""
    return (
        f"crawl {crawl_id!r} is being run by a one-process run (without AGENTS_ENABLED; "
        "its frontier is locked); stop it first, then run every process of the crawl with "
        "-s AGENTS_ENABLED=1"
    )


def application_name(pid: int | None = None, machine: str | None = None) -> str:
    """The ``application_name`` of a frontier session (PostgreSQL keeps 63 bytes)."""
    pid = os.getpid() if pid is None else pid
    machine = socket.gethostname() if machine is None else machine
    return f"crawler {pid}@{machine}"[:63]


@dataclass(frozen=True)
class Holder:
    """A session holding a crawl's lock (from pg_locks and pg_stat_activity)."""

    backend: int  # the server process
    name: str  # its application_name
    exclusive: bool


def local_pid(holder: Holder, machine: str) -> int | None:
    """The pid of the process of this machine whose session ``holder`` is, if it is one."""
    match = _NAME.match(holder.name)
    if match is None:
        return None
    pid = int(match.group(1))
    return pid if holder.name == application_name(pid, machine) else None


def dead_local_client(holder: Holder, machine: str, alive: Callable[[int], bool]) -> bool:
    """Whether ``holder`` is the session of a process of this machine that is gone."""
    pid = local_pid(holder, machine)
    return pid is not None and not alive(pid)


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


async def holders(conn: psycopg.AsyncConnection[Any], crawl_id: str) -> list[Holder]:
    """The other sessions holding the crawl's lock."""
    rows = await (
        await conn.execute(
            """
        SELECT l.pid, coalesce(a.application_name, ''), l.mode = 'ExclusiveLock'
        FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.pid <> pg_backend_pid()
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.classid::bigint = %s AND l.objsubid = 2
          AND l.objid::bigint = (hashtext(%s)::bigint & 4294967295)
        """,
            (LOCK_CLASS, crawl_id),
        )
    ).fetchall()
    return [Holder(int(pid), name, bool(exclusive)) for pid, name, exclusive in rows]


async def acquire(
    conn: psycopg.AsyncConnection[Any],
    crawl_id: str,
    attempt: Callable[[], Awaitable[bool]],
    *,
    wait: float,
    refusal: str,
    machine: str | None = None,
    alive: Callable[[int], bool] = process_alive,
) -> None:
    """Run ``attempt`` (True: the lock was taken) until it succeeds: holders whose local
    client is gone are terminated, others waited for up to ``wait`` seconds; then
    FrontierLocked(``refusal``)."""
    machine = socket.gethostname() if machine is None else machine
    deadline = time.monotonic() + wait
    logged = False
    while not await attempt():
        others = await holders(conn, crawl_id)
        if not others:
            continue  # released meanwhile
        gone = [h for h in others if dead_local_client(h, machine, alive)]
        for holder in gone:
            logger.warning(
                "crawl %s: its frontier lock is held by the session of process %s, which "
                "is gone (killed?); ending that session (PostgreSQL backend %d)",
                crawl_id,
                holder.name,
                holder.backend,
            )
            await conn.execute("SELECT pg_terminate_backend(%s, 5000)", (holder.backend,))
        if gone:
            continue
        # (an agent registering holds the lock in shared mode for a moment: waited for)
        live_local = [h for h in others if h.exclusive and local_pid(h, machine) is not None]
        if live_local or time.monotonic() >= deadline:
            # a process of this machine runs it (or the wait is over): refused
            raise FrontierLocked(refusal)
        if not logged:
            logger.warning(
                "crawl %s: its frontier is locked by %s; waiting up to %.0f s "
                "(FRONTIER_LOCK_WAIT) for it to be released",
                crawl_id,
                ", ".join(h.name or f"backend {h.backend}" for h in others),
                wait,
            )
            logged = True
        await asyncio.sleep(_POLL)
