"""Showing crawled (untrusted) text on a terminal."""

from __future__ import annotations

import re

_MARK = re.compile(r"<mark>(.*?)</mark>", re.S)
_BOLD, _RESET = "\x1b[1m", "\x1b[0m"


def printable(text: str) -> str:
    """``text`` without control characters (they could inject terminal escape sequences):
    each one becomes a space."""
    return "".join(" " if (ord(c) < 32 or 127 <= ord(c) < 160) else c for c in text)


def terminal_snippet(snippet_html: str, bold: bool) -> str:
    """A highlighted HTML snippet for a terminal: matches in bold (ANSI) or plain."""
    import html

    parts: list[str] = []
    last = 0
    for match in _MARK.finditer(snippet_html):
        parts.append(printable(html.unescape(snippet_html[last : match.start()])))
        word = printable(html.unescape(match.group(1)))
        parts.append(f"{_BOLD}{word}{_RESET}" if bold else word)
        last = match.end()
    parts.append(printable(html.unescape(snippet_html[last:])))
    return "".join(parts)
