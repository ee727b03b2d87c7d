"""The query language: a small parser that builds Whoosh query objects.

Syntax (operators in capitals; lower-case "and", "or", "not" are ordinary words)::

    python json            plain words: pages with all the words first, then pages
                           with any of them (the effective-crawler paper's behaviour)
    python AND json        both words
    python OR json         either word
    python XOR json        exactly one of the two words
    NOT python, -python    pages without the word
    python NEAR json       both words within 10 words of each other (SEARCH_NEAR_DISTANCE)
    python NEAR/3 json     ... within 3 words (stop words do not count; n <= 500)
    "exact phrase"         the words next to each other, in this order
    (a OR b) AND c         grouping
    title:word, title:"a phrase", body:..., url:...   words in one field only
    site:python.org        pages of this host or any host below it
    host:docs.python.org, domain:python.org           exact host / registered domain
    format:html, format:text, format:application/pdf  file format or content type
    updated:week           updated (Last-Modified, else fetch time) within a day,
                           week, month, year, or N days ("30d")

Precedence, tightest first: NOT, NEAR, AND (also implicit between terms), XOR, OR.
Words go through the index's stemming analyzer, so the query is stemmed exactly as the
documents were. Words without a field prefix are searched in the title, text and URL
words of the page at once (the ``content`` field, title and URL words weighted). The
parser is lenient: a dangling operator or an unbalanced parenthesis or quote is ignored
or closed; only errors that would silently change the meaning (NEAR across different
fields or around a group, NEAR/ without a number, an unknown updated: period) raise
:class:`QuerySyntaxError`.
"""

from crawler.search.query.advanced import OCCURRENCE_PREFIXES, advanced_query
from crawler.search.query.compiler import (
    PROXIMITY_SLOP,
    Boosts,
    ParsedQuery,
    QueryCompiler,
    QuerySyntaxError,
    updated_period,
)
from crawler.search.query.tokens import FILTER_PREFIXES, OPERATORS, TEXT_PREFIXES, Token, tokenize
from crawler.search.query.tree import (
    MAX_NEAR_DISTANCE,
    And,
    Leaf,
    Near,
    Node,
    Not,
    Or,
    Xor,
    leaves,
    parse,
    positive_leaves,
)

__all__ = [
    "FILTER_PREFIXES",
    "MAX_NEAR_DISTANCE",
    "OCCURRENCE_PREFIXES",
    "OPERATORS",
    "PROXIMITY_SLOP",
    "TEXT_PREFIXES",
    "And",
    "Boosts",
    "Leaf",
    "Near",
    "Node",
    "Not",
    "Or",
    "ParsedQuery",
    "QueryCompiler",
    "QuerySyntaxError",
    "Token",
    "Xor",
    "advanced_query",
    "leaves",
    "parse",
    "positive_leaves",
    "tokenize",
    "updated_period",
]
