"""Probing a form: the queries it is submitted with, and whether its answer lists records.

A form judged searchable (and possibly relevant) is submitted with one or two queries
(:func:`probe_queries`): the topic's words in its search field, the select options that
name the topic (or a select's first real option); the second query, sent only when the
first did not confirm the form, uses the word learned to mark the topic that is most
frequent on its sites' home pages (a car site's "car" for the topic "autos"), else the
topic's stems ("book" for "books"), and the options again.

The answer (:func:`read_results`) confirms the form when it lists records: a group of
at least ``min_records`` sibling elements of the same tag and class, each with some text
of its own, that the page the form was on does not hold (a site's menu or its list of
new titles is on every page); an answer that says there is nothing ("No results", "0
matches", "not found"), states a count of 0, or lists nothing does not confirm it. A
stated count ("12 results", "1-10 of 42") is recorded as evidence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from crawler import defaults
from crawler.deepweb.forms import ANY_OPTION, TEXT_TYPES, Form, FormField
from crawler.deepweb.page import in_navigation, is_navigation
from crawler.deepweb.relevance import site_name_runs
from crawler.focus.query import terms

# Field names of a search box, best first, when a form has several text fields.
_QUERY_NAMES = (
    "q",
    "query",
    "search",
    "keywords",
    "keyword",
    "kw",
    "terms",
    "term",
    "s",
    "text",
    "title",
    "find",
)
NO_RESULTS = re.compile(
    r"\b(no (results?|matches|matching|records?|items?|entries|hits|titles?|documents?)\b"
    r"|nothing (was )?found|did not match|didn't match|not found|no \w+ (were |was )?found"
    r"|nothing matched|matched nothing|(could not|couldn't|did not|didn't) find"
    r"|no \w+ match|sorry, no\b"
    r"|returned no|0 (results?|matches|records?|items?|hits|titles?|entries))",
    re.IGNORECASE,
)
RESULT_COUNT = re.compile(
    r"(?:\bof\s+(\d[\d,]*)\b|\b(\d[\d,]*)\s+(?:results?|matches|records?|items?|hits|titles?"
    r"|entries|documents?|books?|listings?|found)\b)",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[a-z0-9]+")
_SKIP_TAGS = frozenset(
    {"script", "style", "nav", "header", "footer", "form", "select", "option", "head", "menu"}
)


def _text(element: Any) -> str:
    """An element's words, blocks apart ("Search" + "No results", not "SearchNo")."""
    return " ".join(" ".join(element.itertext()).split())


def query_field(form: Form) -> FormField | None:
    """The field a query is typed into: a search-type or search-named text field first."""
    named = [f for f in form.fields if f.type in TEXT_TYPES and f.name]
    if not named:
        return None
    for f in named:
        if f.type == "search":
            return f
    for wanted in _QUERY_NAMES:
        for f in named:
            if f.name.lower() == wanted:
                return f
    return named[0]


def _topic_option(select: FormField, topic: set[str], vocabulary: set[str]) -> str | None:
    """The option of a select that names the topic (its stems, then a learned word);
    else its first option that is a real choice; None when it has none."""
    pairs = list(zip(select.options, select.option_labels or select.options, strict=False))
    for wanted in (topic, vocabulary):
        for value, label in pairs:
            if wanted & set(terms(f"{value} {label}")):
                return value
    for value, label in pairs:
        if not ANY_OPTION.match(label) and not ANY_OPTION.match(value):
            return value
    return None


def probe_queries(
    form: Form, topic_words: Sequence[str], vocabulary: Iterable[str] = (), limit: int = 3
) -> list[dict[str, str]]:
    """Up to ``limit`` form data dicts to submit, in order (fields left out keep their
    defaults): the topic's words with each select set to its option naming the topic;
    when some select was set, the words alone; then the learned word most frequent on
    the topic's pages (else the topic's stems)."""
    topic = set(terms(" ".join(topic_words)))
    learned = [w for w in vocabulary if w not in topic]
    box = query_field(form)
    choices: dict[str, str] = {}
    for f in form.fields:
        if f.type == "select" and f.name:
            option = _topic_option(f, topic, set(learned))
            if option is not None and option != (f.options[0] if f.options else None):
                choices[f.name] = option
            elif option is not None and box is None:
                choices[f.name] = option
    if box is None and not choices:
        return []
    words = " ".join(topic_words).strip()
    queries: list[dict[str, str]] = []
    if box is not None:
        queries.append({box.name: words, **choices})
        # the next queries (each sent when the ones before found no records) leave the
        # selects as the page has them: every select set to a topic option beside the
        # words narrows the search to nothing (heldout21: a roll of honour's search
        # asked type "cenotaph", period "first-world-war", band "listed monument" and a
        # word answered "no results" twice; with "post-1945" it listed records)
        if choices:
            # the topic's words alone first: the words are the topic's own, a learned
            # word is the one the topic's sites read so far say most (heldout38: a
            # herbarium's search asked "specimens" with "flowering plants" and "herbarium
            # sheet" found nothing; then asked "fossil", "moth" or "plant", whichever
            # led the vocabulary at that moment, it listed records in two runs of
            # three, and the runs where it did not found 2 or 3 of 5 forms, not 5)
            queries.append({box.name: words})
        stems = " ".join(sorted(topic)) if topic and " ".join(sorted(topic)) != words else ""
        second = learned[0] if learned else stems
        if second:
            queries.append({box.name: second})
    else:
        queries.append(choices)
    return queries[: max(1, limit)]


def form_data(form: Form, query: dict[str, str]) -> list[tuple[str, str]]:
    """The (name, value) pairs a browser would submit: every named field as the page
    holds it (:attr:`FormField.default`), the query's fields replaced by its values."""
    pairs: list[tuple[str, str]] = []
    done: set[str] = set()
    for f in form.fields:
        if not f.name:
            continue
        if f.name in query:
            if f.name not in done:
                pairs.append((f.name, query[f.name]))
                done.add(f.name)
        elif f.default is not None:
            pairs.append((f.name, f.default))
    pairs += [(name, value) for name, value in query.items() if name not in done]
    return pairs


def _signature(element: Any) -> tuple[str, str]:
    return element.tag, " ".join(sorted((element.get("class") or "").split()))


def _path(element: Any) -> str:
    parts = []
    for node in [element, *element.iterancestors()]:
        parts.append(f"{node.tag}.{'.'.join(sorted((node.get('class') or '').split()))}")
    return "/".join(reversed(parts))


def record_groups(doc: Any, min_records: int = 2, min_words: int = 3) -> dict[str, int]:
    """Groups of repeated record-like siblings: ``path of the parent + child signature``
    -> number of children with at least ``min_words`` words, for groups of at least
    ``min_records`` (menus, headers, footers and forms left out)."""
    groups: dict[str, int] = {}
    if doc is None:
        return groups
    for parent in doc.iter():
        if not isinstance(parent.tag, str) or parent.tag in _SKIP_TAGS:
            continue
        children = [c for c in parent if isinstance(c.tag, str) and c.tag not in _SKIP_TAGS]
        if len(children) < min_records:
            continue
        counts: Counter[tuple[str, str]] = Counter()
        for child in children:
            if len(_text(child).split()) >= min_words:
                counts[_signature(child)] += 1
        for (tag, classes), n in counts.items():
            if n >= min_records and tag not in ("p", "br", "h1", "h2", "h3", "span"):
                if is_navigation(parent) or in_navigation(parent):
                    continue
                groups[f"{_path(parent)}>{tag}.{classes}"] = n
    return groups


@dataclass
class ResultPage:
    records: int  # records in groups the form's page does not hold
    count: int | None  # a stated number of results
    no_results: bool  # the page says there is nothing
    record_text: str = ""  # the records' words (their topic evidence is the form's)
    reasons: list[str] = field(default_factory=list)
    # records whose every link leads to another site (a directory lists sites): of those
    # counted in ``records``, and the records with a link at all
    offsite_records: int = 0
    linked_records: int = 0
    #: per record, its fields that name the site, stemmed (none when it has none):
    #: :func:`_site_name_fields`, :func:`crawler.deepweb.relevance.lists_own_offerings`
    record_names: list[list[tuple[str, ...]]] = field(default_factory=list)

    @property
    def lists_other_sites(self) -> bool:
        """Most of the records (more than half of those with links, and at least half of
        all) lead to other sites: a directory's or a portal's answer, a list of sites,
        not the records of the site's own database (whose records lead to their own
        pages on it, or nowhere)."""
        return (
            self.offsite_records > 0
            and 2 * self.offsite_records > self.linked_records
            and 2 * self.offsite_records >= self.records
        )

    @property
    def confirmed(self) -> bool:
        """Records listed, and neither "no results" nor a count of 0 said."""
        return self.records > 0 and not self.no_results and self.count != 0

    @property
    def status(self) -> str:
        if self.confirmed:
            return "confirmed"
        return "no_results" if self.no_results or self.count == 0 else "no_records"


def read_results(
    doc: Any,
    form_page_groups: dict[str, int] | None = None,
    min_records: int = defaults.SMART_PROBE_MIN_RECORDS,
    page_url: str = "",
) -> ResultPage:
    """What a probe's answer says (see the module docstring); ``form_page_groups``: the
    :func:`record_groups` of the page the form was on; ``page_url``: the answer's URL
    (whose site's records lead elsewhere or not, :attr:`ResultPage.lists_other_sites`;
    none counted without it)."""
    if doc is None:
        return ResultPage(0, None, False)
    before = form_page_groups or {}
    body = doc.find("body")
    text = _text(body if body is not None else doc)
    no_results = bool(NO_RESULTS.search(text))
    counts = [int((a or b).replace(",", "")) for a, b in RESULT_COUNT.findall(text)]
    count = max(counts) if counts else None
    best_key, best = "", 0
    for key, n in record_groups(doc, min_records).items():
        if key in before and before[key] >= n:
            continue
        if n > best:
            best_key, best = key, n
    record_text = ""
    offsite = linked = 0
    record_names: list[list[tuple[str, ...]]] = []
    if best_key:
        records = _group_records(doc, best_key)
        texts = [_text(c) for c in records]
        record_text = " ".join(texts)
        record_names = [_site_name_fields(r, page_url) for r in records]
        site = _site_of(page_url)
        for record in records:
            hosts = {
                _site_of(a.get("href") or "")
                for a in record.iter("a")
                if (a.get("href") or "").startswith(("http://", "https://"))
            }
            if hosts:
                linked += 1
                if site and site not in hosts:
                    offsite += 1
    return ResultPage(best, count, no_results, record_text, [], offsite, linked, record_names)


#: words of a record's field that names its site at most: the name, and one word more
#: that its host leaves out ("OpenPrints Archive" on ``openprints``)
NAME_FIELD_EXTRA_WORDS = 1


def _site_name_fields(record: Any, page_url: str) -> list[tuple[str, ...]]:
    """The fields of a record (its elements, itself included) whose words are the name of
    the site of ``page_url`` (a run that spells it, :func:`site_name_runs`, and at most
    :data:`NAME_FIELD_EXTRA_WORDS` more), stemmed: the "By" of a company's own holidays,
    "Footloose Walking Holidays". The site's host's labels but the first of three or more
    count (:func:`_site_of`: a hosted search's answer, ``search.kelbypodcasts.test``, is
    of the site ``kelbypodcasts``). A record that says the name among other words ("Cadenza
    Scores item 4") is not counted."""
    site_url = f"http://{_site_of(page_url)}/"
    fields: list[tuple[str, ...]] = []
    for element in record.iter():
        if not isinstance(element.tag, str):
            continue
        tokens = _TOKEN.findall(_text(element).lower())
        if not tokens or len(tokens) > _NAME_FIELD_MAX_WORDS:
            continue
        for run in site_name_runs(tokens, site_url):
            if len(tokens) - len(run) <= NAME_FIELD_EXTRA_WORDS:
                fields.append(tuple(terms(" ".join(run))))
    return fields


#: words of an element read as a record's field at most (a name, not a paragraph)
_NAME_FIELD_MAX_WORDS = 8


def _site_of(url: str) -> str:
    """A URL's site for telling its own pages from other sites': its host without a
    first label when it has three or more (``www.kelby.test`` and ``search.kelby.test``
    are one site, ``kelby.test``)."""
    host = (urlsplit(url).hostname or "").lower()
    labels = host.split(".")
    return ".".join(labels[1:]) if len(labels) >= 3 else host


def _group_records(doc: Any, key: str) -> list[Any]:
    """The elements of a record group (:func:`record_groups`' key)."""
    parent_path, child = key.rsplit(">", 1)
    records = []
    for parent in doc.iter():
        if isinstance(parent.tag, str) and _path(parent) == parent_path:
            for c in parent:
                if isinstance(c.tag, str) and f"{c.tag}.{_signature(c)[1]}" == child:
                    records.append(c)
    return records
