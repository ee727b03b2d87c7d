"""Word analysis in one pass: what Whoosh's RegexTokenizer | LowercaseFilter |
StopFilter | StemFilter chain does, without a generator per stage.

Whoosh runs each token through one generator per filter, and its stemming cache counts
every use; on crawled pages that chain is about half of the indexer's CPU.
:class:`WordAnalyzer` gives the same tokens (text, positions, character offsets, boost,
``stopped``, ``original``; renumbered positions after stop words, as StopFilter's
``renumber``) from one loop, and looks each distinct word's lower case, stop-word test
and stem up in a bounded memo (words repeat: a page's vocabulary is small).

:func:`fuse` turns such a Whoosh chain into its WordAnalyzer, for indexes whose
schema was pickled with the chain. No Scrapy import.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any

from whoosh.analysis import (
    Analyzer,
    CompositeAnalyzer,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
    Token,
)
from whoosh.lang.porter import stem as porter_stem

#: Distinct words remembered (lower case, stop word or not, stem) before the memo is
#: emptied and starts again.
MEMO_SIZE = 200_000


class WordAnalyzer(Analyzer):
    """Words matching ``expression``, lower-cased; stop words (in ``stoplist``, shorter
    than ``minsize`` or longer than ``maxsize``) removed, or marked ``stopped`` when the
    caller asks ``removestops=False``; Porter stems when ``stem``.

    ``stoplist=None`` means no stop filter at all (nothing removed, positions not
    renumbered), as a chain without StopFilter.
    """

    def __init__(
        self,
        expression: str = r"\w+",
        stoplist: Collection[str] | None = None,
        minsize: int = 2,
        maxsize: int | None = None,
        stem: bool = True,
    ) -> None:
        self.expression = expression
        self.stoplist = None if stoplist is None else frozenset(stoplist)
        self.minsize = minsize
        self.maxsize = maxsize
        self.stem = stem
        self._setup()

    def _setup(self) -> None:
        self._finditer = re.compile(self.expression, re.UNICODE).finditer
        self._memo: dict[str, tuple[str, bool, str]] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._setup()

    def _key(self) -> tuple[Any, ...]:
        return (self.expression, self.stoplist, self.minsize, self.maxsize, self.stem)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WordAnalyzer) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        stops = None if self.stoplist is None else f"<{len(self.stoplist)} words>"
        return (
            f"WordAnalyzer({self.expression!r}, stoplist={stops}, minsize={self.minsize}, "
            f"maxsize={self.maxsize}, stem={self.stem})"
        )

    def has_morph(self) -> bool:
        return self.stem

    def _word(self, word: str) -> tuple[str, bool, str]:
        """(lower case, is a stop word, stem) of a matched word, memoised."""
        found = self._memo.get(word)
        if found is not None:
            return found
        lowered = word.lower()
        stops = self.stoplist
        stopped = stops is not None and not (
            len(lowered) >= self.minsize
            and (self.maxsize is None or len(lowered) <= self.maxsize)
            and lowered not in stops
        )
        found = (lowered, stopped, lowered if stopped or not self.stem else porter_stem(lowered))
        memo = self._memo
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[word] = found
        return found

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        no_morph: bool = False,
        record: list[tuple[str, int]] | None = None,
        **kwargs: Any,
    ) -> Iterator[Token]:
        """Whoosh's analyzer call; ``record``, with ``positions``: a list that receives
        the (text, position) of every token not stopped, as it is yielded."""
        assert isinstance(value, str), f"{value!r} is not unicode"
        # one Token object, re-used for every word, as Whoosh's tokenizers do
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        stemming = self.stem and not no_morph
        renumber = positions and self.stoplist is not None
        word = self._word
        if not tokenize:
            lowered, stopped, root = word(value)
            if stopped and removestops:
                return
            t.original = value
            t.text = root if stemming and not stopped else lowered
            t.boost = 1.0
            t.stopped = stopped
            if positions:
                t.pos = start_pos
                if record is not None and not stopped:
                    record.append((t.text, start_pos))
            if chars:
                t.startchar = start_char
                t.endchar = start_char + len(value)
            yield t
            return
        memo = self._memo
        pos = None  # the last kept word's position, when renumbering
        for index, match in enumerate(self._finditer(value)):
            raw = match.group(0)
            found = memo.get(raw)
            lowered, stopped, root = found if found is not None else word(raw)
            if stopped:
                if removestops:
                    continue
                t.text = lowered
                t.stopped = True
                if positions:
                    t.pos = start_pos + index
            else:
                t.text = root if stemming else lowered
                t.stopped = False
                if renumber:
                    pos = start_pos + index if pos is None else pos + 1
                    t.pos = pos
                elif positions:
                    t.pos = start_pos + index
                if record is not None:
                    record.append((t.text, t.pos))
            t.boost = 1.0
            if keeporiginal:
                t.original = raw
            if chars:
                begin, end = match.span()
                t.startchar = start_char + begin
                t.endchar = start_char + end
            yield t


def fuse(analyzer: Any) -> Any:
    """The WordAnalyzer giving the same tokens as ``analyzer`` when it is a Whoosh chain
    RegexTokenizer (not gaps) | LowercaseFilter [| StopFilter] [| StemFilter (Porter, no
    language, nothing ignored)], in that order; any other analyzer unchanged."""
    if not isinstance(analyzer, CompositeAnalyzer):
        return analyzer
    items = list(analyzer.items)
    if (
        len(items) < 2
        or type(items[0]) is not RegexTokenizer
        or items[0].gaps
        or items[0].expression.flags != re.compile(items[0].expression.pattern, re.UNICODE).flags
        or type(items[1]) is not LowercaseFilter
    ):
        return analyzer
    tokenizer, rest = items[0], items[2:]
    stop = rest.pop(0) if rest and type(rest[0]) is StopFilter else None
    stemmer = rest.pop(0) if rest and type(rest[0]) is StemFilter else None
    if rest:
        return analyzer
    if stop is not None and (not stop.renumber or getattr(stop, "lang", None)):
        return analyzer
    if stemmer is not None and (
        stemmer.stemfn is not porter_stem or stemmer.ignore or stemmer.lang
    ):
        return analyzer
    return WordAnalyzer(
        tokenizer.expression.pattern,
        stoplist=None if stop is None else stop.stops,
        minsize=stop.min if stop is not None else 2,
        maxsize=stop.max if stop is not None else None,
        stem=stemmer is not None,
    )
