"""Spider-trap checks on URLs about to be scheduled, and a per-host request budget.

A :class:`TrapGuard` refuses a URL that is too long, whose path repeats the same segment
sequence too many times in a row (``/a/b/a/b/a/b``), or that would be one more
query-string variant of a host+path that already has its quota. Admitted variants are
remembered so that the same URL is never refused later.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import urlsplit

from crawler import defaults

URL_LENGTH = "url_length"
PATH_REPETITION = "path_repetition"
QUERY_VARIANTS = "query_variants"
HOST_BUDGET = "host_budget"


@dataclass(frozen=True)
class TrapRefusal:
    """Why a URL was refused: ``kind`` (one of the constants above) and a readable detail."""

    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def repeated_segments(path: str, max_repetitions: int) -> tuple[str, int] | None:
    """The first segment sequence that occurs more than ``max_repetitions`` times in a row
    in ``path``, with its count, or None. ``/a/b/a/b/a/b`` with 2 -> ``("a/b", 3)``."""
    if max_repetitions <= 0:
        return None
    segments = [segment for segment in path.split("/") if segment]
    needed = max_repetitions + 1
    for size in range(1, len(segments) // needed + 1):
        streak = 0  # positions equal to the one `size` before, consecutively
        for index in range(size, len(segments)):
            if segments[index] == segments[index - size]:
                streak += 1
                if streak >= max_repetitions * size:
                    start = index - streak - size + 1
                    count = (streak + size) // size
                    while (
                        start + (count + 1) * size <= len(segments)
                        and segments[start + count * size : start + (count + 1) * size]
                        == segments[start : start + size]
                    ):
                        count += 1
                    return "/".join(segments[start : start + size]), count
            else:
                streak = 0
    return None


class TrapGuard:
    """Trap checks of one crawl. Settings of 0 switch a check off.

    ``max_tracked_paths`` bounds the memory of the query-variant check: the host+paths
    seen least recently are forgotten first (their variants start counting again).
    """

    def __init__(
        self,
        *,
        max_url_length: int = defaults.TRAP_MAX_URL_LENGTH,
        max_path_repetitions: int = defaults.TRAP_MAX_PATH_REPETITIONS,
        max_query_variants: int = defaults.TRAP_MAX_QUERY_VARIANTS,
        max_tracked_paths: int = defaults.TRAP_TRACKED_PATHS,
    ) -> None:
        self.max_url_length = max_url_length
        self.max_path_repetitions = max_path_repetitions
        self.max_query_variants = max_query_variants
        self.max_tracked_paths = max(1, max_tracked_paths)
        self._variants: OrderedDict[int, set[int]] = OrderedDict()

    def check(self, url: str) -> TrapRefusal | None:
        """None if ``url`` may be scheduled (and then it counts as admitted), else why not."""
        if self.max_url_length and len(url) > self.max_url_length:
            return TrapRefusal(
                URL_LENGTH, f"URL of {len(url)} characters (limit {self.max_url_length})"
            )
        parts = urlsplit(url)
        repeated = repeated_segments(parts.path, self.max_path_repetitions)
        if repeated is not None:
            sequence, count = repeated
            return TrapRefusal(
                PATH_REPETITION,
                f"path segments {sequence!r} repeated {count} times in a row "
                f"(limit {self.max_path_repetitions})",
            )
        if self.max_query_variants and parts.query:
            return self._check_query_variant(parts.scheme, parts.netloc, parts.path, parts.query)
        return None

    def _check_query_variant(
        self, scheme: str, netloc: str, path: str, query: str
    ) -> TrapRefusal | None:
        key = hash((scheme, netloc, path))
        variants = self._variants.get(key)
        if variants is None:
            variants = self._variants[key] = set()
            if len(self._variants) > self.max_tracked_paths:
                self._variants.popitem(last=False)
        else:
            self._variants.move_to_end(key)
        query_key = hash(query)
        if query_key in variants:
            return None
        if len(variants) >= self.max_query_variants:
            return TrapRefusal(
                QUERY_VARIANTS,
                f"more than {self.max_query_variants} query-string variants of "
                f"{scheme}://{netloc}{path}",
            )
        variants.add(query_key)
        return None


class HostRequestBudget:
    """At most ``budget`` requests per host (0: unlimited), counted as they are admitted."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used: dict[str, int] = {}

    def admit(self, host: str) -> TrapRefusal | None:
        if self.budget <= 0:
            return None
        used = self.used.get(host, 0)
        if used >= self.budget:
            return TrapRefusal(
                HOST_BUDGET, f"host {host} used its budget of {self.budget} pages"
            )
        self.used[host] = used + 1
        return None
