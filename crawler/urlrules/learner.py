"""Learning which query parameters do not change a page (no Scrapy).

Evidence comes from the content-seen test (Bar-Yossef et al., "different URLs with
similar text"): a page found to duplicate another page of the same host and path whose
URL differs only in query parameters is a *pair* of evidence that the differing
parameters are irrelevant for that path. A rule is learned for parameter ``p`` on a path
when

* at least ``min_pairs`` pairs of pages known to have the same content (an original and
  its duplicates, any two of them) differ in ``p`` (never a single pair),
* ``p`` took at least two distinct present values among them (``/list`` and
  ``/list?page=1`` agree only because 1 is the default: that alone proves nothing), and
* no two distinct pages of the path are known to differ in ``p`` (below).

A host-wide rule follows once ``host_min_paths`` paths of a host have the path rule for
``p`` and no path of the host has shown ``p`` to matter.

Counter-evidence comes from admitted pages (distinct content): two distinct pages of one
path whose URLs differ in ``p`` alone *prove* that ``p`` matters there: its path rule and
the host's rule are undone. Pages that differ in several parameters only keep those
parameters from being learned on that path.

Rules change URLs with :meth:`ParameterRules.without_irrelevant`; the query is then canonical again
(sorted, as w3lib's canonicalize_url leaves it).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from crawler import defaults

HOST_WIDE = ""  # the path of a rule that holds for every path of its host

_ABSENT = "\x00absent"


@dataclass(frozen=True)
class ParameterRule:
    """``parameter`` is irrelevant on ``host`` + ``path`` (``path == HOST_WIDE``: on every
    path of the host); ``evidence`` says why, ``learned_at`` when (``time.time()``)."""

    host: str
    path: str
    parameter: str
    evidence: str
    learned_at: float

    def describe(self) -> str:
        where = f"{self.host} (every path)" if self.path == HOST_WIDE else self.host + self.path
        return f"parameter {self.parameter!r} irrelevant on {where}"


@dataclass(frozen=True)
class RuleChange:
    """A rule learned (``undone_because`` empty) or undone (with why)."""

    rule: ParameterRule
    undone_because: str = ""

    @property
    def learned(self) -> bool:
        return not self.undone_because


def _query(url: str) -> tuple[str, str, dict[str, str]]:
    """(host, path, {parameter: value}) of a URL; repeated parameters keep their last
    value (w3lib sorts them, so the comparison stays stable)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if parts.port:
        host = f"{host}:{parts.port}"
    return host, parts.path or "/", dict(parse_qsl(parts.query, keep_blank_values=True))


def _differing(a: dict[str, str], b: dict[str, str]) -> set[str]:
    return {name for name in a.keys() | b.keys() if a.get(name, _ABSENT) != b.get(name, _ABSENT)}


@dataclass(slots=True)
class _PathEvidence:
    # original URL -> (URL, query) of the pages known to have its content
    clusters: dict[str, list[tuple[str, dict[str, str]]]] = field(default_factory=dict)
    pairs: dict[str, int] = field(default_factory=dict)  # parameter -> same-content pairs
    values: dict[str, set[str]] = field(default_factory=dict)  # parameter -> present values
    examples: dict[str, list[str]] = field(default_factory=dict)  # parameter -> "a = b"
    admitted: list[dict[str, str]] = field(default_factory=list)  # queries of distinct pages
    blocked: set[str] = field(default_factory=set)  # may matter: never learned here
    fetched: list[str] = field(default_factory=list)  # queries requested on this path
    pending: set[str] = field(default_factory=set)  # requested query URLs not yet judged


class ParameterRules:
    """The rules of one crawl and the evidence they are learned from.

    ``min_pairs``: duplicate pairs needed per parameter and path (>= 2);
    ``host_min_paths``: paths agreeing before a host-wide rule; ``max_tracked_paths``:
    paths whose evidence is kept (least recently used forgotten first);
    ``max_examples``: pages and queries remembered per path; ``max_pending``: query
    variants of one path requested before the earlier ones are judged (the caller holds
    the others back, :meth:`must_wait`): with 2, a path whose variants are all the same
    page costs its first URL and 2 variants before the rule removes the rest.
    """

    def __init__(
        self,
        *,
        min_pairs: int = defaults.URLRULES_MIN_PAIRS,
        host_min_paths: int = defaults.URLRULES_HOST_MIN_PATHS,
        max_tracked_paths: int = defaults.URLRULES_TRACKED_PATHS,
        max_examples: int = 32,
        max_pending: int = defaults.URLRULES_MAX_PENDING_VARIANTS,
    ) -> None:
        self.max_pending = max_pending
        self.min_pairs = max(2, min_pairs)
        self.host_min_paths = max(1, host_min_paths)
        self.max_tracked_paths = max(1, max_tracked_paths)
        self.max_examples = max(2, max_examples)
        self.path_rules: dict[tuple[str, str], dict[str, ParameterRule]] = {}
        self.host_rules: dict[str, dict[str, ParameterRule]] = {}
        # (host, parameter) -> paths where it was proven to matter: no host-wide rule
        self.proven: dict[tuple[str, str], set[str]] = {}
        self._evidence: OrderedDict[tuple[str, str], _PathEvidence] = OrderedDict()

    # ------------------------------------------------------------------ applying

    def irrelevant(self, host: str, path: str) -> set[str]:
        """Parameters the rules drop on ``host`` + ``path``."""
        names = set(self.path_rules.get((host, path), {}))
        for name in self.host_rules.get(host, {}):
            if path not in self.proven.get((host, name), ()):
                names.add(name)
        return names

    def without_irrelevant(self, url: str) -> tuple[str, list[ParameterRule]]:
        """``url`` without its irrelevant parameters, and the rules that removed them."""
        if "?" not in url or (not self.path_rules and not self.host_rules):
            return url, []
        parts = urlsplit(url)
        host, path, _ = _query(url)
        names = self.irrelevant(host, path)
        if not names:
            return url, []
        pairs = parse_qsl(parts.query, keep_blank_values=True)
        kept = [(k, v) for k, v in pairs if k not in names]
        if len(kept) == len(pairs):
            return url, []
        removed = {k for k, _ in pairs if k in names}
        rules = [self._rule(host, path, name) for name in sorted(removed)]
        return urlunsplit(parts._replace(query=urlencode(sorted(kept)))), rules

    def _rule(self, host: str, path: str, name: str) -> ParameterRule:
        rule = self.path_rules.get((host, path), {}).get(name)
        return rule if rule is not None else self.host_rules[host][name]

    def must_wait(self, url: str) -> bool:
        """Whether ``url`` (a query variant) should wait for the verdicts of variants of
        its path requested earlier: ``max_pending`` of them are not judged yet, or enough
        variants were requested to learn a rule and one still pending might make ``url``
        the same page as an earlier URL (``max_pending`` 0: never wait)."""
        if self.max_pending <= 0 or "?" not in url:
            return False
        host, path, query = _query(url)
        evidence = self._evidence.get((host, path))
        if evidence is None:
            return False
        others = len(evidence.pending - {url})
        if others == 0:
            return False
        if others >= self.max_pending:
            return True
        return len(evidence.fetched) > self.min_pairs and self._undecided(
            host, path, query, evidence)

    def _undecided(
        self, host: str, path: str, query: dict[str, str], evidence: _PathEvidence
    ) -> bool:
        """Whether a rule not learned yet could make ``query`` the same page as an
        earlier requested one: they differ only in parameters not known to matter."""
        irrelevant = self.irrelevant(host, path)
        for earlier in evidence.fetched:
            differing = _differing(query, dict(parse_qsl(earlier, keep_blank_values=True)))
            open_names = differing - irrelevant
            if open_names and not open_names & evidence.blocked:
                return True
        return False

    def judged(self, url: str) -> bool:
        """The outcome of ``url`` is known (a page, a duplicate, a failure): it no longer
        holds its path's variants back. True if it was pending."""
        if "?" not in url:
            return False
        host, path, _ = _query(url)
        evidence = self._evidence.get((host, path))
        if evidence is None or url not in evidence.pending:
            return False
        evidence.pending.discard(url)
        return True

    def requested(self, url: str) -> str | None:
        """Note that ``url`` is being fetched. Returns an earlier-requested URL of the
        same path that is the same page under the current rules (then ``url`` need not
        be fetched), else None."""
        host, path, query = _query(url)
        if not query and (host, path) not in self._evidence:
            return None  # only paths with query variants are tracked (memory)
        evidence = self._path(host, path)
        names = self.irrelevant(host, path)
        if names and query.keys() & names:
            key = {k: v for k, v in query.items() if k not in names}
            for earlier in evidence.fetched:
                other = dict(parse_qsl(earlier, keep_blank_values=True))
                if {k: v for k, v in other.items() if k not in names} == key:
                    parts = urlsplit(url)
                    return urlunsplit(parts._replace(query=earlier))
        if len(evidence.fetched) < self.max_examples:
            evidence.fetched.append(urlencode(sorted(query.items())))
        if query and len(evidence.pending) < self.max_examples:
            evidence.pending.add(url)
        return None

    # ------------------------------------------------------------------ learning

    def duplicate(self, url: str, original: str, now: float | None = None) -> list[RuleChange]:
        """The content-seen test found ``url`` to duplicate ``original``: every URL of
        the path known to have that content (the original and its duplicates) forms a
        pair with ``url``."""
        host, path, query = _query(url)
        other_host, other_path, other = _query(original)
        if (host, path) != (other_host, other_path) or url == original:
            return []
        evidence = self._path(host, path)
        cluster = evidence.clusters.setdefault(original, [(original, other)])
        if any(member == url for member, _ in cluster) or len(cluster) >= self.max_examples:
            return []
        changes = []
        candidates: set[str] = set()
        for member, member_query in cluster:
            for name in _differing(query, member_query):
                if name in evidence.blocked or name in self.path_rules.get((host, path), {}):
                    continue
                evidence.pairs[name] = evidence.pairs.get(name, 0) + 1
                values = evidence.values.setdefault(name, set())
                if len(values) < self.max_examples:
                    values.update(v for v in (query.get(name), member_query.get(name))
                                  if v is not None)
                examples = evidence.examples.setdefault(name, [])
                if len(examples) < 3:
                    examples.append(f"{url} = {member}")
                candidates.add(name)
        cluster.append((url, query))
        for name in sorted(candidates):
            if evidence.pairs[name] >= self.min_pairs and len(evidence.values[name]) >= 2:
                changes.extend(self._learn(host, path, name, evidence, now))
        return changes

    def _learn(
        self, host: str, path: str, name: str, evidence: _PathEvidence, now: float | None
    ) -> list[RuleChange]:
        now = time.time() if now is None else now
        values = ", ".join(sorted(evidence.values[name])[:4])
        rule = ParameterRule(
            host, path, name,
            f"{evidence.pairs[name]} pairs of same-content pages of {host}{path} differ in "
            f"{name!r} (values {values}): "
            + "; ".join(evidence.examples[name]),
            now,
        )
        self.path_rules.setdefault((host, path), {})[name] = rule
        changes = [RuleChange(rule)]
        if name in self.host_rules.get(host, {}) or self.proven.get((host, name)):
            return changes
        paths = sorted(p for (h, p), rules in self.path_rules.items()
                       if h == host and name in rules)
        if len(paths) >= self.host_min_paths:
            host_rule = ParameterRule(
                host, HOST_WIDE, name,
                f"{len(paths)} paths of {host} learned {name!r} irrelevant: "
                + ", ".join(paths[:5]),
                now,
            )
            self.host_rules.setdefault(host, {})[name] = host_rule
            changes.append(RuleChange(host_rule))
        return changes

    def admitted(self, url: str, now: float | None = None) -> list[RuleChange]:
        """The content-seen test admitted ``url`` as a new content: compare it with the
        distinct pages of its path admitted before."""
        host, path, query = _query(url)
        if not query and (host, path) not in self._evidence:
            return []  # only paths with query variants are tracked (memory)
        evidence = self._path(host, path)
        changes: list[RuleChange] = []
        for other in evidence.admitted:
            differing = _differing(query, other)
            if len(differing) == 1:
                (name,) = differing
                other_query = urlencode(sorted(other.items()))
                other_url = urlunsplit(urlsplit(url)._replace(query=other_query))
                changes.extend(self._undo(host, path, name, url, other_url, now))
            evidence.blocked.update(differing)
        if query not in evidence.admitted and len(evidence.admitted) < self.max_examples:
            evidence.admitted.append(query)
        return changes

    def _undo(
        self, host: str, path: str, name: str, url: str, other: str, now: float | None
    ) -> list[RuleChange]:
        self.proven.setdefault((host, name), set()).add(path)
        because = f"{url} and {other} differ only in {name!r} and have different content"
        rule = self.path_rules.get((host, path), {}).pop(name, None)
        if rule is None:  # recorded all the same: the proof keeps the host rule away
            rule = ParameterRule(host, path, name, "never learned on this path",
                                 time.time() if now is None else now)
        changes = [RuleChange(rule, because)]
        host_rule = self.host_rules.get(host, {}).pop(name, None)
        if host_rule is not None:
            changes.append(RuleChange(host_rule, because))
        return changes

    def _path(self, host: str, path: str) -> _PathEvidence:
        key = (host, path)
        evidence = self._evidence.get(key)
        if evidence is None:
            evidence = self._evidence[key] = _PathEvidence()
            if len(self._evidence) > self.max_tracked_paths:
                self._evidence.popitem(last=False)
        else:
            self._evidence.move_to_end(key)
        return evidence

    # ------------------------------------------------------------------ persistence

    def load(
        self, active: Iterable[ParameterRule], undone: Iterable[tuple[str, str, str]] = ()
    ) -> None:
        """Rules as stored (a resumed crawl, another agent's rules): ``active`` rules, and
        the ``(host, path, parameter)`` of undone rules (proven to matter on that path;
        path HOST_WIDE: the host rule was undone)."""
        for host, path, name in undone:
            self.proven.setdefault((host, name), set()).add(path)
            if path == HOST_WIDE:
                self.host_rules.get(host, {}).pop(name, None)
            else:
                self.path_rules.get((host, path), {}).pop(name, None)
                self._path(host, path).blocked.add(name)
        undone_keys = {(host, path, name) for host, path, name in undone}
        for rule in active:
            if (rule.host, rule.path, rule.parameter) in undone_keys:
                continue
            if rule.path == HOST_WIDE:
                if not self.proven.get((rule.host, rule.parameter)):
                    self.host_rules.setdefault(rule.host, {})[rule.parameter] = rule
            else:
                self.path_rules.setdefault((rule.host, rule.path), {})[rule.parameter] = rule

    def active(self) -> list[ParameterRule]:
        rules = [r for rules in self.path_rules.values() for r in rules.values()]
        rules += [r for rules in self.host_rules.values() for r in rules.values()]
        return sorted(rules, key=lambda r: (r.host, r.path, r.parameter))
