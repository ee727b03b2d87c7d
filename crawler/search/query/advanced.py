"""The advanced search form (the paper's Figure 5) as a query-language string."""

from __future__ import annotations

import re

#: Where the advanced search's words must occur, and the prefix used for them.
OCCURRENCE_PREFIXES = {"anywhere": "", "title": "title:", "url": "url:", "body": "body:"}
_UNSAFE_VALUE = re.compile(r"[^\w.\-/+]")


def _words(text: str) -> list[str]:
    return [w for w in (w.replace('"', "") for w in text.split()) if w]


def advanced_query(
    *,
    all_words: str = "",
    exact_phrase: str = "",
    any_words: str = "",
    none_words: str = "",
    occur: str = "anywhere",
    site: str = "",
    file_format: str = "",
    updated: str = "",
) -> str:
    """The query-language string of an advanced search form.

    Every word is quoted, so words that look like operators or prefixes stay words.
    """
    prefix = OCCURRENCE_PREFIXES.get(occur, "")
    parts: list[str] = [f'{prefix}"{w}"' for w in _words(all_words)]
    phrase = exact_phrase.replace('"', " ").strip()
    if phrase:
        parts.append(f'{prefix}"{phrase}"')
    alternatives = [f'{prefix}"{w}"' for w in _words(any_words)]
    if len(alternatives) == 1:
        parts.append(alternatives[0])
    elif alternatives:
        parts.append("(" + " OR ".join(alternatives) + ")")
    for name, value in (("site", site), ("format", file_format), ("updated", updated)):
        value = _UNSAFE_VALUE.sub("", value.strip())
        if (
            value
            and not (name == "format" and value == "any")
            and not (name == "updated" and value == "anytime")
        ):
            parts.append(f"{name}:{value}")
    query = " AND ".join(parts)
    for w in _words(none_words):
        query += f' -{prefix}"{w}"'
    return query.strip()
