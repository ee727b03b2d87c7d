"""Tunnelling through irrelevant pages (the survey's "degree of relatedness and depth").

A focused crawler that only follows links of relevant pages stops at the first poor page,
though good pages often lie behind one or two of them. Each request carries the number
of consecutive irrelevant pages on the path that found it (``run``): links of a relevant
page start again at 0; links of an irrelevant page carry its run + 1. Links of a page
are followed while its run is at most ``max_depth``: with the default 2, a chain relevant
-> poor -> poor -> relevant is crossed, relevant -> poor -> poor -> poor -> relevant is
not (the third poor page is fetched, judged, and its links dropped). ``max_depth = 0``
follows links of relevant pages only.
"""

from __future__ import annotations

from dataclasses import dataclass

from crawler import defaults


@dataclass(frozen=True)
class TunnelPolicy:
    max_depth: int = defaults.FOCUS_TUNNEL_DEPTH

    def __post_init__(self) -> None:
        if self.max_depth < 0:
            raise ValueError("the tunnel depth must be >= 0")

    @staticmethod
    def run_of(parent_run: int, relevant: bool) -> int:
        """The run of a page: 0 if it is relevant, else its parent's run + 1.

        ``parent_run`` is the run carried by the request of the page (0 for a seed).
        """
        return 0 if relevant else max(parent_run, 0) + 1

    def follows(self, run: int) -> bool:
        """Whether the links of a page with this run are followed."""
        return run <= self.max_depth
