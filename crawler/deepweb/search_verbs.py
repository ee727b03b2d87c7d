"""Topic words that are also the words of search forms: "finds" and every site's "Find".

The analyzer folds "finds" (the topic: archaeological finds) and "Find" (the verb of
every site's "Find a pet", "Find a course", ``/find``, "Pet finder") into one stem,
"find". A topic stem that is a word of search forms in general (the relevance module's
form words: find, search, query, browse, result, ...) then marks the topic on every
site that offers a search: heldout42 ("finds") judged pet shelters, an evening
institute and a wine merchant on topic and gave their "Find a ..." searches full form
evidence (1.0), output in every run below the precision target.

So for such a stem only the words as the user typed them count ("finds"); its other
forms ("find", "finding", "finder": the stem and its word family) are taken out of the
text before its terms are read. A topic whose stems are no form words is untouched;
a topic typed as the verb ("search") keeps the verb. No Scrapy imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from crawler.deepweb.word_family import WordFamily
from crawler.focus.query import terms


class SearchVerbs:
    """The topic's stems that are form words, and the text without their other forms."""

    def __init__(self, topic_words: Iterable[str], form_words: Iterable[str]) -> None:
        """``topic_words``: the topic as typed; ``form_words``: stems of the words of
        search forms in general."""
        self.typed = frozenset(w.lower() for w in topic_words if w.isalpha())
        form = frozenset(form_words)
        self.stems = frozenset(s for w in self.typed for s in terms(w) if s in form)
        # "finder" of "find" (a yacht finder, a pet finder) is the search's word too
        self.family = WordFamily(self.stems)
        self._stem_of: dict[str, bool] = {}
        self.pattern = (
            re.compile(
                r"\b(?:" + "|".join(sorted(re.escape(s[:3]) for s in self.stems)) + r")[a-z]*\b",
                re.IGNORECASE,
            )
            if self.stems
            else None
        )

    def __bool__(self) -> bool:
        return self.pattern is not None

    def is_verb(self, word: str) -> bool:
        """``word`` (as written) is a form of such a stem other than the typed ones."""
        word = word.lower()
        if word in self.typed:
            return False
        known = self._stem_of.get(word)
        if known is None:
            known = self._stem_of[word] = any(t in self.family for t in terms(word))
        return known

    def without_verbs(self, text: str) -> str:
        """``text`` without the forms of such stems other than the typed ones ("Find a
        pet" -> " a pet"; "Search finds" unchanged)."""
        if self.pattern is None or not text:
            return text
        return self.pattern.sub(lambda m: " " if self.is_verb(m.group(0)) else m.group(0), text)
