"""Change detection by checksum (the survey's Update Module), told apart by kind.

A page's text (title and visible text, as the spider extracts them) is normalised
(Unicode NFKC, case folded, whitespace collapsed) and digested twice:

* ``digest``: MD5 of the normalised text: any difference is a change of the text;
* ``core_digest``: MD5 of the normalised text with the volatile tokens of boilerplate
  (dates, times, and digit runs such as counters) replaced by one placeholder.

So a new version whose ``digest`` differs but whose ``core_digest`` does not changed only
in such parts (a "generated on" date in a footer, a visit counter): a *boilerplate*
change, not counted as a change of the page. Otherwise it is a *content* change.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass

# Volatile tokens: month names with a day/year, ISO-like dates, times, any digit run.
_MONTHS = (
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
)
_VOLATILE = re.compile(
    rf"\b\d{{1,2}}\s+{_MONTHS}\s+\d{{2,4}}\b"  # 23 Nov 2026
    rf"|\b{_MONTHS}\s+\d{{1,2}},?\s+\d{{2,4}}\b"  # November 23, 2026
    r"|\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?"  # 15:32, 3:32:10 pm
    r"|\d+(?:[-/.]\d+)*"  # 2026-11-23, 23/11/2026, 1234
)
_SPACE = re.compile(r"\s+")

UNCHANGED = "unchanged"
BOILERPLATE = "boilerplate"
CONTENT = "content"


@dataclass(frozen=True)
class TextDigests:
    digest: str
    core_digest: str


def normalise_text(text: str) -> str:
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def text_digests(title: str, text: str) -> TextDigests:
    """The digests of a page's title and text."""
    normal = normalise_text(f"{title}\n{text}" if title else text)
    core = _SPACE.sub(" ", _VOLATILE.sub("#", normal))
    return TextDigests(
        hashlib.md5(normal.encode()).hexdigest(), hashlib.md5(core.encode()).hexdigest()
    )


def classify_change(old: TextDigests | None, new: TextDigests) -> str:
    """``unchanged``, ``boilerplate`` (only volatile tokens differ) or ``content``
    (also when nothing is known of the old version)."""
    if old is None or not old.digest:
        return CONTENT
    if old.digest == new.digest:
        return UNCHANGED
    if old.core_digest and old.core_digest == new.core_digest:
        return BOILERPLATE
    return CONTENT
