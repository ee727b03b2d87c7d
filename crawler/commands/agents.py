"""`scrapy agents [--crawl-id ID] [--json]`: the agents of a distributed crawl.

One line per agent that ever joined the crawl (the latest crawl with agents by default):
its id, machine and pid, state (``running``; ``dead``: its lease expired without a clean
exit; ``stopped``: it left, with its finish reason), whether its lease is valid now, the
hosts it owns, its pages and pages per second at its last heartbeat, and the age of that
heartbeat, in database time (docs/distributed.md).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand

from crawler.commands._shared import (
    add_crawl_id_option,
    fail,
    one_line_errors,
    prepared_database,
    quiet_when_output_closed,
    reject_arguments,
)
from crawler.storage.database import DatabaseUnavailable

AGENTS_SQL = """
WITH crawl AS (
    SELECT coalesce(%(crawl_id)s, (SELECT crawl_id FROM agents
                                   ORDER BY started_at DESC LIMIT 1)) AS id
)
SELECT a.agent_id, a.machine, a.pid, a.state, a.lease_until > now() AS lease_valid,
       a.capacity,
       (SELECT count(*) FROM host_owners o JOIN frontier_crawls c ON c.key = o.crawl
        WHERE c.crawl_id = a.crawl_id AND o.agent_id = a.agent_id) AS hosts,
       a.pages, a.pages_per_second, a.idle,
       extract(epoch FROM now() - a.heartbeat_at)::float8 AS heartbeat_age,
       a.started_at, a.finish_reason, a.crawl_id
FROM agents a WHERE a.crawl_id = (SELECT id FROM crawl)
ORDER BY a.started_at, a.agent_id
"""


@dataclass
class AgentRow:
    agent_id: str
    machine: str
    pid: int
    state: str
    lease_valid: bool
    capacity: float
    hosts: int
    pages: int
    pages_per_second: float
    idle: bool
    heartbeat_age: float
    started_at: str
    finish_reason: str | None

    @classmethod
    def from_row(cls, row: tuple[Any, ...]) -> AgentRow:
        return cls(row[0], row[1], int(row[2]), row[3], bool(row[4]), float(row[5]),
                   int(row[6]), int(row[7]), round(float(row[8]), 2), bool(row[9]),
                   round(float(row[10]), 1), row[11].isoformat(), row[12])


def format_agents(crawl_id: str, agents: list[AgentRow]) -> str:
    lines = [f"Crawl {crawl_id}: {sum(a.state == 'running' and a.lease_valid for a in agents)}"
             f" live agent(s) of {len(agents)}",
             f"{'agent':<28} {'machine':<16} {'pid':>7} {'state':<8} {'hosts':>6} "
             f"{'pages':>8} {'pages/s':>8} {'heartbeat':>10}  note"]
    for a in agents:
        note = a.finish_reason or ("idle" if a.idle else "")
        if a.state == "running" and not a.lease_valid:
            note = "lease expired"
        lines.append(
            f"{a.agent_id:<28} {a.machine[:16]:<16} {a.pid:>7} {a.state:<8} {a.hosts:>6} "
            f"{a.pages:>8} {a.pages_per_second:>8.2f} {a.heartbeat_age:>9.1f}s  {note}"
        )
    return "\n".join(lines)


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "[--crawl-id ID] [--json]"

    def short_desc(self) -> str:
        return "List the agents of a distributed crawl (hosts owned, pages/s, heartbeat)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)
        add_crawl_id_option(parser, "list the agents of")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        reject_arguments("agents", args)
        try:
            with prepared_database(self.settings) as database, database.connect() as conn:
                rows = conn.execute(AGENTS_SQL, {"crawl_id": opts.crawl_id}).fetchall()
        except DatabaseUnavailable as exc:
            fail(self, exc)
            return
        if not rows:
            which = f"crawl {opts.crawl_id!r}" if opts.crawl_id else "any crawl"
            fail(self, f"no agents of {which} in {database.display_url}")
            return
        crawl_id = rows[0][13]
        agents = [AgentRow.from_row(r) for r in rows]
        with quiet_when_output_closed():
            if opts.json:
                print(json.dumps({"crawl_id": crawl_id, "agents": [asdict(a) for a in agents]},
                                 indent=2))
            else:
                print(format_agents(crawl_id, agents))
