"""URL-parameter rules of a crawl in PostgreSQL (table ``url_parameter_rules``).

One row per (host, path, parameter), path '' for a host-wide rule: active rules with
why (``evidence``) and when (``learned_at``); undone rules stay with ``undone_at`` and
``undone_because`` (a path row is written even for a rule never learned on that path:
the proof keeps the host-wide rule from being learned again). Agents of one crawl share
the table: each reloads it every URLRULES_REFRESH_INTERVAL. asyncio only, no Scrapy.
"""

from __future__ import annotations

from datetime import UTC, datetime

from psycopg_pool import AsyncConnectionPool

from crawler.urlrules.learner import ParameterRule, RuleChange

_SAVE_SQL = """
INSERT INTO url_parameter_rules (crawl_id, host, path, parameter, active, evidence,
    learned_at, undone_at, undone_because)
VALUES (%(crawl_id)s, %(host)s, %(path)s, %(parameter)s, %(active)s, %(evidence)s,
    %(learned_at)s, %(undone_at)s, %(undone_because)s)
ON CONFLICT (crawl_id, host, path, parameter) DO UPDATE SET
    active = EXCLUDED.active,
    evidence = CASE WHEN EXCLUDED.active THEN EXCLUDED.evidence
                    ELSE url_parameter_rules.evidence END,
    learned_at = CASE WHEN EXCLUDED.active THEN EXCLUDED.learned_at
                      ELSE url_parameter_rules.learned_at END,
    undone_at = EXCLUDED.undone_at, undone_because = EXCLUDED.undone_because
"""

_LOAD_SQL = """
SELECT host, path, parameter, active, evidence, learned_at, undone_at, undone_because
FROM url_parameter_rules WHERE crawl_id = %s ORDER BY host, path, parameter
"""


def _utc(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


class UrlRuleStore:
    def __init__(self, pool: AsyncConnectionPool, crawl_id: str) -> None:
        self.pool = pool
        self.crawl_id = crawl_id

    async def save(self, changes: list[RuleChange]) -> None:
        now = datetime.now(UTC)
        rows = [{
            "crawl_id": self.crawl_id, "host": c.rule.host, "path": c.rule.path,
            "parameter": c.rule.parameter, "active": c.learned, "evidence": c.rule.evidence,
            "learned_at": _utc(c.rule.learned_at), "undone_at": None if c.learned else now,
            "undone_because": c.undone_because or None,
        } for c in changes]
        async with self.pool.connection() as conn:
            async with conn.cursor() as cursor:
                await cursor.executemany(_SAVE_SQL, rows)

    async def load(self) -> tuple[list[ParameterRule], list[tuple[str, str, str]]]:
        """(active rules, (host, path, parameter) of undone rules)."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(_LOAD_SQL, (self.crawl_id,))
            rows = await cursor.fetchall()
        active = [ParameterRule(h, p, n, evidence, learned.timestamp())
                  for h, p, n, is_active, evidence, learned, _, _ in rows if is_active]
        undone = [(h, p, n) for h, p, n, is_active, *_ in rows if not is_active]
        return active, undone
