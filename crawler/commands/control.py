"""`scrapy control --crawl-id ID [ACTION [ARGUMENT]]`: live control of a crawl.

Actions (crawler/control/actions.py): ``add-seeds FILE``, ``exclude RULE``, ``pause``,
``resume``, ``stop``. The action is recorded in the crawl's history (table
``crawl_control``) with its time; every running process of the crawl reads it within
CONTROL_POLL_INTERVAL and obeys. Without an action: the crawl's history.

Bad input (no or unknown crawl id, unknown action, a rule or seeds file that cannot be
used, an unreachable database): one ``error:`` line, exit status 2, nothing recorded.
"""

from __future__ import annotations

import argparse
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawler.commands._shared import (
    fail,
    one_line_errors,
    prepared_database,
    quiet_when_output_closed,
)
from crawler.control import store
from crawler.control.actions import ACTIONS, Action, ControlError, make_argument


def format_history(crawl_id: str, actions: list[Action]) -> str:
    lines = [f"Crawl {crawl_id}: {len(actions)} control action(s)"]
    for a in actions:
        at = f"{a.at:%Y-%m-%dT%H:%M:%SZ}" if a.at else "?"
        applied = f"  (queued by {a.applied_by})" if a.applied_by else ""
        lines.append(f"{a.id:>6}  {at}  {a.source or '-':<4}  {a.describe()}{applied}")
    return "\n".join(lines)


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "--crawl-id ID [add-seeds FILE | exclude RULE | pause | resume | stop]"

    def short_desc(self) -> str:
        return "Control a running crawl (every agent obeys); without an action, its history"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)
        parser.add_argument("--crawl-id", dest="crawl_id", default=None,
                            help="the crawl to control (required)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        from crawler.storage.database import DatabaseUnavailable

        assert self.settings is not None
        # an exclude rule may start with its "-" (after "--" when it would read as an
        # option: -h..., -s..., -L...)
        if "--" in args:
            args = [arg for arg in args if arg != "--"]
        options = [
            arg for i, arg in enumerate(args)
            if arg.startswith("-") and not (i == 1 and args[0] == "exclude")
        ]
        if options:
            raise UsageError(f"unrecognized option {options[0]} (see scrapy control -h)")
        if not opts.crawl_id:
            raise UsageError("give the crawl: scrapy control --crawl-id ID ACTION")
        action = args[0] if args else None
        if action is not None and len(args) > 2:
            raise UsageError(f"{action} takes at most one argument, got {len(args) - 1}")
        try:
            argument = (
                make_argument(action, args[1] if len(args) > 1 else None)
                if action is not None else None
            )
        except ControlError as exc:
            fail(self, exc)
            return
        try:
            with prepared_database(self.settings) as database, database.connect() as conn:
                exists, running = store.crawl_state(conn, opts.crawl_id)
                if not exists:
                    fail(self, f"no crawl with id {opts.crawl_id!r} in {database.display_url}")
                    return
                if action is None:
                    actions = store.history(conn, opts.crawl_id)
                else:
                    recorded = store.record(conn, opts.crawl_id, action, argument, "cli")
                    conn.commit()
        except DatabaseUnavailable as exc:
            fail(self, exc)
            return
        with quiet_when_output_closed():
            if action is None:
                print(format_history(opts.crawl_id, actions))
                return
            note = "" if running else (
                " (the crawl is not running: its processes apply it when it runs again)"
            )
            print(f"crawl {opts.crawl_id}: {recorded.describe()} recorded as action "
                  f"{recorded.id} at {recorded.at:%Y-%m-%dT%H:%M:%SZ}{note}")


__all__ = ["ACTIONS", "Command", "format_history"]
