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
a topic typed as the verb ("search") keeps the verb.

The same holds for the phrases of every site's navigation (:data:`NAVIGATION_PHRASES`):
"Site map" in a footer says nothing of maps, yet it gave boat brokers two "map" hits on
their home pages (heldout35: judged on topic by keywords, they trained the site classifier
and taught the vocabulary "boat", "yacht", "cruiser"; their searches were output in every
run, precision 0.44-0.67). Such a phrase is taken out when it holds a topic stem. No
Scrapy imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from crawler.deepweb.word_family import WordFamily
from crawler.focus.query import terms

#: phrases of a site's navigation (written with spaces, hyphens or none between words):
#: they name the site's own pages, never what the site is about
NAVIGATION_PHRASES = ("site map", "site maps", "site index")


class SearchVerbs:
    """The topic's stems that are form words, and the text without their other forms."""

    def __init__(self, topic_words: Iterable[str], form_words: Iterable[str]) -> None:
        """``topic_words``: the topic as typed; ``form_words``: stems of the words of
        search forms in general."""
        self.typed = frozenset(w.lower() for w in topic_words if w.isalpha())
        topic = {s for w in self.typed for s in terms(w)}
        form = frozenset(form_words)
        phrases = [p for p in NAVIGATION_PHRASES if topic & (set(terms(p)) - form)]
        self.navigation = (
            re.compile(
                r"\b(?:" + "|".join(r"[\s_-]*".join(p.split()) for p in phrases) + r")\b",
                re.IGNORECASE,
            )
            if phrases
            else None
        )
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
        return self.pattern is not None or self.navigation is not None

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
        pet" -> " a pet"; "Search finds" unchanged), and without the navigation phrases
        that hold a topic stem ("Site map" for maps)."""
        if not text:
            return text
        if self.navigation is not None:
            text = self.navigation.sub(" ", text)
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda m: " " if self.is_verb(m.group(0)) else m.group(0), text)
