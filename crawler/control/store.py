"""The crawl's history of control actions (table ``crawl_control``, migration 20): the
only module that reads or writes it. Blocking functions for the commands and the web
UI (a psycopg Connection), coroutines for a running crawl (an AsyncConnection on the
crawl's asyncio loop, so the reactor thread never waits for the database)."""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from crawler.control.actions import Action

_COLUMNS = "id, action, argument, source, at, applied_at, applied_by"

_INSERT_SQL = (
    "INSERT INTO crawl_control (crawl_id, action, argument, source) "
    f"VALUES (%s, %s, %s, %s) RETURNING {_COLUMNS}"
)
_SINCE_SQL = (
    f"SELECT {_COLUMNS} FROM crawl_control WHERE crawl_id = %s AND id > %s ORDER BY id"
)
# add-seeds is applied once for the whole crawl: by the process that claims it
_CLAIM_SQL = (
    "UPDATE crawl_control SET applied_at = now(), applied_by = %s "
    "WHERE id = %s AND applied_at IS NULL RETURNING id"
)
_CRAWL_SQL = "SELECT id, finished_at FROM crawls WHERE id = %s"


def _action(row: tuple[Any, ...]) -> Action:
    return Action(*row)


def crawl_state(conn: Any, crawl_id: str) -> tuple[bool, bool]:
    """(whether the crawl exists, whether it is running: no finish time)."""
    row = conn.execute(_CRAWL_SQL, (crawl_id,)).fetchone()
    return row is not None, row is not None and row[1] is None


def record(conn: Any, crawl_id: str, action: str, argument: Any, source: str) -> Action:
    """Add an action to the crawl's history (committed with ``conn``'s transaction)."""
    row = conn.execute(
        _INSERT_SQL, (crawl_id, action, None if argument is None else Jsonb(argument), source)
    ).fetchone()
    return _action(row)


def history(conn: Any, crawl_id: str) -> list[Action]:
    """Every action given to the crawl, oldest first."""
    return [_action(r) for r in conn.execute(_SINCE_SQL, (crawl_id, 0)).fetchall()]


async def actions_since(conn: Any, crawl_id: str, after: int) -> list[Action]:
    """The crawl's actions with an id above ``after``, in order (AsyncConnection)."""
    cursor = await conn.execute(_SINCE_SQL, (crawl_id, after))
    return [_action(r) for r in await cursor.fetchall()]


async def claim(conn: Any, action_id: int, by: str) -> bool:
    """Take an add-seeds action for this process; False if another process has it."""
    cursor = await conn.execute(_CLAIM_SQL, (by, action_id))
    return await cursor.fetchone() is not None
