"""`scrapy urlrules [--crawl-id ID] [--all]`: the URL-parameter rules of a crawl.

One block per rule (table ``url_parameter_rules``, crawler/urlrules): where it applies
(host and path, or every path of the host), the parameter, when it was learned and from
what evidence; undone rules (with ``--all``) also say when and why. Exit status 1 when
the crawl does not exist, 2 when the database cannot be reached.
"""

from __future__ import annotations

import argparse
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

CRAWL_SQL = """
SELECT id FROM crawls WHERE %(crawl_id)s::text IS NULL OR id = %(crawl_id)s
ORDER BY started_at DESC LIMIT 1
"""

RULES_SQL = """
SELECT host, path, parameter, active, evidence, learned_at, undone_at, undone_because
FROM url_parameter_rules
WHERE crawl_id = %(crawl_id)s AND (active OR %(all)s)
ORDER BY host, path, parameter
"""


def format_rules(crawl_id: str, rows: list[tuple[Any, ...]]) -> str:
    active = sum(1 for row in rows if row[3])
    lines = [f"Crawl {crawl_id}: {active} active URL-parameter rules"
             + (f", {len(rows) - active} undone" if len(rows) > active else "")]
    for host, path, parameter, is_active, evidence, learned, undone, because in rows:
        where = f"{host} (every path)" if path == "" else f"{host}{path}"
        when = learned.strftime("%Y-%m-%dT%H:%M:%SZ")
        state = "" if is_active else " [undone]"
        lines.append(f"{where}  drop {parameter!r}{state}")
        lines.append(f"    learned {when}: {evidence}")
        if not is_active:
            lines.append(f"    undone {undone.strftime('%Y-%m-%dT%H:%M:%SZ')}: {because}")
    return "\n".join(lines)


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "[--crawl-id ID] [--all]"

    def short_desc(self) -> str:
        return "List the URL-parameter rules a crawl learned (why and when)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)
        add_crawl_id_option(parser, "list the rules of")
        parser.add_argument("--all", action="store_true",
                            help="also list undone rules (parameters proven to matter)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        from crawler.storage.database import DatabaseUnavailable

        assert self.settings is not None
        reject_arguments("urlrules", args)
        try:
            with prepared_database(self.settings) as database, database.connect() as conn:
                crawl = conn.execute(CRAWL_SQL, {"crawl_id": opts.crawl_id}).fetchone()
                rows = [] if crawl is None else conn.execute(
                    RULES_SQL, {"crawl_id": crawl[0], "all": opts.all}).fetchall()
        except DatabaseUnavailable as exc:
            fail(self, exc)
            return
        if crawl is None:
            which = f"crawl {opts.crawl_id!r}" if opts.crawl_id else "any crawl"
            fail(self, f"no {which} in {database.display_url}")
            return
        with quiet_when_output_closed():
            print(format_rules(crawl[0], rows))
