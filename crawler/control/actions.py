"""Live control of a running crawl: the actions and what a process does with them
(no Scrapy, no database).

An action is given by `scrapy control` or the crawl's page of `scrapy serve` and
recorded in the crawl's history (crawler/control/store.py); every process of the crawl
(one, or every agent) reads the history every CONTROL_POLL_INTERVAL and obeys:

- ``add-seeds``: URLs queued as seeds, once for the whole crawl (the first process to
  see the action claims it), through the frontier's scope and URL-seen tests;
- ``exclude RULE``: an exclude rule of the crawl scope (crawler/scope/rules.py) from now
  on, also for URLs already queued (they are not fetched);
- ``pause``: no new request (those in flight finish); ``resume``: requests again;
- ``stop``: the crawl closes as at any other limit (in-flight requests finish, every
  page and URL is written; a later run of the crawl id resumes it).

:func:`plan` decides which actions a process applies: at its first read, every
exclude, the add-seeds nobody applied yet, and a pause if the crawl's last
pause/resume/stop was a pause (a stop is for the processes running when it was given);
then every new action in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from crawler.scope.rules import ScopeRuleError, parse_rule
from crawler.seeds import SeedError, load_seeds

ACTIONS = ("add-seeds", "exclude", "pause", "resume", "stop")
# the actions that say whether requests go out
_RUN_STATE = ("pause", "resume", "stop")


class ControlError(ValueError):
    """An action that cannot be given; the message says why (one ``error:`` line)."""


@dataclass(frozen=True)
class Action:
    """One row of a crawl's history."""

    id: int
    action: str
    argument: Any  # add-seeds: list of URLs; exclude: the rule's text; else None
    source: str = ""
    at: datetime | None = None
    applied_at: datetime | None = None
    applied_by: str | None = None

    def describe(self) -> str:
        if self.action == "add-seeds":
            urls = self.argument or []
            return f"add-seeds ({len(urls)} URL{'s' if len(urls) != 1 else ''})"
        if self.action == "exclude":
            return f"exclude {self.argument}"
        return self.action


def exclude_rule_text(text: str) -> str:
    """The exclude rule an ``exclude`` argument stands for: a scope rule (``-`` added
    when no sign is given); raises ControlError for a rule that cannot be read or that
    includes."""
    text = text.strip()
    if not text:
        raise ControlError("exclude needs a rule, e.g. exclude '-http://(org,example,)/private/'")
    if text[0] == "+":
        raise ControlError(f"exclude takes an exclude rule (- or no sign), not {text!r}")
    if text[0] != "-":
        text = "-" + text
    try:
        parse_rule(text)
    except ScopeRuleError as exc:
        raise ControlError(f"bad rule: {exc}") from None
    return text


def make_argument(action: str, argument: str | None, *, seeds_text: bool = False) -> Any:
    """The stored argument of an action given on the command line (``argument`` a file
    for add-seeds) or in the web UI (``seeds_text``: the URLs themselves, one a line).
    Raises ControlError."""
    if action not in ACTIONS:
        raise ControlError(f"unknown action {action!r} (one of: {', '.join(ACTIONS)})")
    if action == "add-seeds":
        if not argument or not argument.strip():
            raise ControlError("add-seeds needs a file of URLs (one a line)")
        try:
            if seeds_text:
                return load_seeds(None, ",".join(argument.split()), warn=False)
            return load_seeds(argument, None, warn=False)
        except SeedError as exc:
            raise ControlError(str(exc)) from None
    if action == "exclude":
        return exclude_rule_text(argument or "")
    if argument:
        raise ControlError(f"{action} takes no argument, got {argument!r}")
    return None


def plan(actions: list[Action], *, first: bool) -> list[Action]:
    """The actions a process applies from ``actions`` (new rows of the history, in id
    order; at the ``first`` read, the whole history)."""
    if not first:
        return list(actions)
    chosen = [a for a in actions if a.action == "exclude"]
    chosen += [a for a in actions if a.action == "add-seeds" and a.applied_at is None]
    state = [a for a in actions if a.action in _RUN_STATE]
    if state and state[-1].action == "pause":
        chosen.append(state[-1])
    return sorted(chosen, key=lambda a: a.id)
