"""Crawl scope: include / exclude rules over URLs (no Scrapy).

A scope file has one rule per line; blank lines and ``#`` comments are ignored:

    +http://(org,example,)/docs/      include: a SURT prefix, written as Heritrix writes it
    +example.org/docs/                include: a URL or host, its SURT prefix deduced as
                                      Heritrix deduces it from a seed
    -http://(org,example,)/private/   exclude: a SURT prefix (or a URL / host)
    +re:^https?://[^/]+/api/v2/       include: a regular expression (Python ``re``)
    -re:[?&]print=1                   exclude: a regular expression

A URL is in scope when it matches no exclude rule and, if there is any include rule,
matches at least one include rule: an exclude always wins, whatever the order of the
lines (so an exclude added while a crawl runs wins over the file's includes).

SURT (Sort-friendly URI Reordering Transform) as Heritrix writes it
(org.archive.util.SURT): ``scheme://(tld,domain,sub,:port@userinfo)/path?query``,
lower-cased, dotted-quad IP addresses not reversed. As in Heritrix's SurtPrefixSet,
``https`` is compared as ``http`` (prefixes and candidates alike), and a prefix deduced
from a plain URL or host drops the last path segment after the last ``/``, and a
trailing ``)`` when there is no path, so ``+example.org`` covers every sub-domain of
example.org, ``+example.org/`` that host only, ``+example.org/docs/`` that folder.
A regular expression is searched (``re.search``) in the canonical URL as the frontier
keeps it, case-sensitive; anchor it with ``^`` to match from the start.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

REGEX_PREFIX = "re:"
_DEFAULT_PORTS = {"http": 80, "https": 443}
_DOTTED_QUAD = re.compile(r"^(?:\d{1,3}\.){3}\d{1,3}$")
# a formal SURT prefix: scheme://( then the reversed host (maybe unfinished)
_FORMAL_SURT = re.compile(r"^[a-z][a-z0-9+.-]*://\([^()/?#\s]*\)?(?:/\S*)?$")


class ScopeRuleError(ValueError):
    """A rule that cannot be read; the message says why."""


class ScopeFileError(ValueError):
    """A scope file that cannot be used; the message names the file and the line."""


def surt(url: str) -> str:
    """The SURT form of an absolute URL, as Heritrix writes it, with https as http
    (what prefixes are compared with). A URL without a host is returned lower-cased."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return url.lower()
    host = (parts.hostname or "").rstrip(".")
    scheme = parts.scheme.lower()
    if not host:
        return url.lower()
    if _DOTTED_QUAD.match(host):
        authority = host
    else:
        authority = ",".join(reversed(host.split("."))) + ","
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        authority += f":{port}"
    if parts.username is not None:
        userinfo = parts.username + (f":{parts.password}" if parts.password is not None else "")
        authority += "@" + userinfo
    path = parts.path or "/"
    query = f"?{parts.query}" if parts.query else ""
    if scheme == "https":
        scheme = "http"
    return f"{scheme}://({authority}){path}{query}".lower()


def surt_prefix(text: str) -> str:
    """The SURT prefix a rule's text stands for: a formal SURT prefix as it is
    (lower-cased, https as http), or the prefix Heritrix deduces from a plain URL or
    host (SurtPrefixSet.prefixFromPlainForceHttp). Raises ScopeRuleError."""
    text = text.strip()
    if not text:
        raise ScopeRuleError("empty rule")
    if "(" in text:
        prefix = text.lower()
        if not _FORMAL_SURT.match(prefix):
            raise ScopeRuleError("not a SURT prefix (expected e.g. http://(org,example,)/path/)")
        if prefix.startswith("https://"):
            prefix = "http://" + prefix[len("https://") :]
        return prefix
    plain = text if "://" in text else "http://" + text
    try:
        parts = urlsplit(plain)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as exc:
        raise ScopeRuleError(f"not a URL or host ({exc})") from None
    if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
        raise ScopeRuleError("not an http(s) URL or a host name")
    form = surt(plain)
    if not parts.path:  # no slash after the host: the SURT's "/" was added by surt()
        form = form[:-1] if form.endswith(")/") else form
    # SurtPrefixSet.asPrefix: drop the last path segment (after the 3rd slash), and a
    # trailing ")" when nothing follows it (open to sub-domains)
    form = re.sub(r"^(.*//.*/)[^/]*$", r"\1", form, count=1)
    if not form.endswith("/") and form.endswith(")"):
        form = form[:-1]
    return form


@dataclass(frozen=True)
class Rule:
    """One include or exclude rule: ``kind`` "surt" (``pattern`` the prefix) or
    "regex" (``pattern`` the expression); ``text`` as written, ``origin`` where."""

    include: bool
    kind: str
    pattern: str
    text: str
    origin: str = ""

    def describe(self) -> str:
        where = f" ({self.origin})" if self.origin else ""
        return f"{self.text}{where}"


def parse_rule(text: str, origin: str = "") -> Rule:
    """One rule: ``+`` or ``-``, then a SURT prefix, URL or host, or ``re:`` and a
    regular expression. Raises ScopeRuleError saying what is wrong."""
    line = text.strip()
    if not line:
        raise ScopeRuleError("empty rule")
    sign, body = line[0], line[1:].strip()
    if sign not in "+-":
        raise ScopeRuleError(f"{line!r}: a rule starts with + (include) or - (exclude)")
    if not body:
        raise ScopeRuleError(f"{line!r}: nothing after {sign}")
    include = sign == "+"
    if body.startswith(REGEX_PREFIX):
        expression = body[len(REGEX_PREFIX) :]
        if not expression:
            raise ScopeRuleError(f"{line!r}: empty regular expression")
        try:
            re.compile(expression)
        except re.error as exc:
            raise ScopeRuleError(f"{line!r}: bad regular expression: {exc}") from None
        return Rule(include, "regex", expression, line, origin)
    try:
        prefix = surt_prefix(body)
    except ScopeRuleError as exc:
        raise ScopeRuleError(f"{line!r}: {exc}") from None
    return Rule(include, "surt", prefix, line, origin)


@dataclass
class Scope:
    """A set of rules and the decision over URLs.

    ``refusal(url)`` is None for a URL in scope, else why it is out (the rule that
    excludes it, or that no include rule matched). Rules can be added (a live
    ``exclude``); matching is a ``str.startswith`` over a tuple of prefixes and one
    search per regular expression.
    """

    rules: list[Rule] = field(default_factory=list)
    source: str = ""

    def __post_init__(self) -> None:
        self._compile()

    def _compile(self) -> None:
        self._include_prefixes = tuple(
            r.pattern for r in self.rules if r.include and r.kind == "surt"
        )
        self._exclude_prefixes = tuple(
            r.pattern for r in self.rules if not r.include and r.kind == "surt"
        )
        self._include_regexes = [
            (re.compile(r.pattern), r) for r in self.rules if r.include and r.kind == "regex"
        ]
        self._exclude_regexes = [
            (re.compile(r.pattern), r) for r in self.rules if not r.include and r.kind == "regex"
        ]
        self._has_includes = any(r.include for r in self.rules)

    def add(self, rule: Rule) -> bool:
        """Add a rule (once); True if it is new."""
        if any(r.include == rule.include and r.kind == rule.kind and r.pattern == rule.pattern
               for r in self.rules):
            return False
        self.rules.append(rule)
        self._compile()
        return True

    def __bool__(self) -> bool:
        return bool(self.rules)

    def refusal(self, url: str) -> str | None:
        """None when ``url`` is in scope, else the reason it is not (for the
        ``uncrawled`` detail)."""
        form: str | None = None
        if self._exclude_prefixes:
            form = surt(url)
            if form.startswith(self._exclude_prefixes):
                rule = next(
                    r for r in self.rules
                    if not r.include and r.kind == "surt" and form.startswith(r.pattern)
                )
                return f"excluded by {rule.describe()}"
        for regex, rule in self._exclude_regexes:
            if regex.search(url):
                return f"excluded by {rule.describe()}"
        if not self._has_includes:
            return None
        if self._include_prefixes:
            if form is None:
                form = surt(url)
            if form.startswith(self._include_prefixes):
                return None
        for regex, _rule in self._include_regexes:
            if regex.search(url):
                return None
        return f"matches no include rule of {self.source or 'the scope'}"

    def allows(self, url: str) -> bool:
        return self.refusal(url) is None


def parse_scope(lines: list[str], name: str) -> Scope:
    """The rules of a scope file's lines; raises ScopeFileError naming ``name`` and the
    line of the first bad rule."""
    rules = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            rules.append(parse_rule(line, f"{name} line {number}"))
        except ScopeRuleError as exc:
            raise ScopeFileError(f"scope file {name} line {number}: {exc}") from None
    return Scope(rules, name)


def load_scope(path: str) -> Scope:
    """The scope file at ``path``; raises ScopeFileError (missing, unreadable, a bad
    rule, no rule at all)."""
    file = Path(path)
    if not file.is_file():
        raise ScopeFileError(f"scope file {path!r} does not exist")
    try:
        lines = file.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ScopeFileError(f"scope file {path!r} cannot be read: {exc}") from None
    scope = parse_scope(lines, path)
    if not scope:
        raise ScopeFileError(f"scope file {path} has no rule (lines start with + or -)")
    return scope
