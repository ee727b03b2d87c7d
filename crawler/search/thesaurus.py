"""WordNet as a thesaurus for query expansion (issue 25 item 4: paraphrased queries).

Reads the WordNet 3.0 database files that Debian's ``wordnet-base`` package installs
(``/usr/share/wordnet``: ``index.POS`` sorted by lemma, ``data.POS`` addressed by byte
offset, ``POS.exc`` the irregular forms; format in wndb(5WN)) without loading them: a
lemma is found by a binary search over the memory-mapped index file and each of its
senses by its offset in the data file, a few dozen page reads per word, nothing read at
start-up (a cold ``scrapy search`` pays nothing for it). No package reads them for us
offline: NLTK's and ``wn``'s readers download their data at run time.

Where the files are missing, ``Thesaurus.open`` returns None and the search expands
nothing (docs/search.md).
"""

from __future__ import annotations

import mmap
import re
from dataclasses import dataclass, field
from pathlib import Path

from crawler import defaults

#: WordNet's parts of speech, in the order their senses are taken.
PARTS_OF_SPEECH = (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv"))
#: WordNet's detachment rules (morphy, morph(7WN)): an inflected form's suffix and its
#: base form's, per part of speech.
_DETACH = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
          ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
#: The relations a lemma can be expanded through (SEARCH_EXPANSION_RELATIONS): the
#: other words of its senses, the words derived from it or it from them (WordNet's
#: ``+`` pointer of that very word: "join" -> "joining", "concatenate" ->
#: "concatenation"), the words of its senses' hypernyms (``@``: "string" -> "sequence"),
#: and the content words of its senses' glosses ("concatenate: combine two strings").
RELATIONS = ("synonyms", "derived", "hypernyms", "gloss")
_WORD = re.compile(r"[a-z][a-z'-]*")


@dataclass(frozen=True)
class Sense:
    """One synset of a lemma: its words, its related words by relation."""

    words: tuple[str, ...]
    derived: tuple[str, ...]
    hypernyms: tuple[str, ...]
    gloss: str


@dataclass
class Thesaurus:
    """The WordNet files of one folder, memory-mapped."""

    folder: Path
    _index: dict[str, mmap.mmap] = field(default_factory=dict)
    _data: dict[str, mmap.mmap] = field(default_factory=dict)
    _exceptions: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    _cache: dict[tuple[str, int, tuple[str, ...]], tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def open(cls, folder: str | Path = defaults.SEARCH_WORDNET_DIR) -> Thesaurus | None:
        """The thesaurus of ``folder``, or None when its files are not all there."""
        path = Path(folder)
        names = [f"{kind}.{name}" for _, name in PARTS_OF_SPEECH for kind in ("index", "data")]
        if not all((path / name).is_file() for name in names):
            return None
        thesaurus = cls(path)
        try:
            for pos, name in PARTS_OF_SPEECH:
                thesaurus._index[pos] = _map(path / f"index.{name}")
                thesaurus._data[pos] = _map(path / f"data.{name}")
        except (OSError, ValueError):
            return None
        return thesaurus

    # lemmas --------------------------------------------------------------------------
    def base_forms(self, word: str, pos: str) -> list[str]:
        """The lemmas ``word`` may be a form of, in ``pos`` (WordNet's morphy: the word
        itself, its irregular base forms, then what the detachment rules give)."""
        forms = [word]
        forms += self._exception_list(pos).get(word, [])
        for suffix, ending in _DETACH[pos]:
            if word.endswith(suffix) and len(word) > len(suffix) + 1:
                forms.append(word[: len(word) - len(suffix)] + ending)
        found: list[str] = []
        for form in forms:
            if form not in found and self._index_line(pos, form) is not None:
                found.append(form)
        return found

    def senses(self, lemma: str, pos: str, limit: int) -> list[Sense]:
        """The first ``limit`` senses of ``lemma`` in ``pos`` (WordNet orders them by how
        often they were tagged in its corpus: the first is the common one)."""
        line = self._index_line(pos, lemma)
        if line is None:
            return []
        parts = line.split()
        pointers = int(parts[3])
        offsets = parts[6 + pointers :]
        return [self._sense(pos, int(offset), lemma) for offset in offsets[:limit]]

    def related(
        self, word: str, *, senses: int = defaults.SEARCH_EXPANSION_SENSES,
        relations: tuple[str, ...] = RELATIONS,
    ) -> tuple[str, ...]:
        """Single words related to ``word`` (lower case) through ``relations``, in the
        order of its parts of speech and senses, each once, ``word`` left out.
        Multi-word lemmas ("sort_out") are left out: they are phrases, not terms."""
        key = (word, senses, relations)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        out: dict[str, None] = {}
        for pos, _ in PARTS_OF_SPEECH:
            for lemma in self.base_forms(word, pos):
                for sense in self.senses(lemma, pos, senses):
                    groups: list[tuple[str, ...]] = []
                    if "synonyms" in relations:
                        groups.append(sense.words)
                    if "derived" in relations:
                        groups.append(sense.derived)
                    if "hypernyms" in relations:
                        groups.append(sense.hypernyms)
                    if "gloss" in relations:
                        groups.append(tuple(_WORD.findall(sense.gloss.lower())))
                    for group in groups:
                        for w in group:
                            if "_" not in w and w != word and w != lemma:
                                out[w] = None
        result = tuple(out)
        self._cache[key] = result
        return result

    # files ---------------------------------------------------------------------------
    def _exception_list(self, pos: str) -> dict[str, list[str]]:
        table = self._exceptions.get(pos)
        if table is None:
            table = {}
            name = dict(PARTS_OF_SPEECH)[pos]
            path = self.folder / f"{name}.exc"
            if path.is_file():
                for raw in path.read_text(encoding="latin-1").splitlines():
                    words = raw.split()
                    if len(words) >= 2:
                        table[words[0]] = words[1:]
            self._exceptions[pos] = table
        return table

    def _index_line(self, pos: str, lemma: str) -> str | None:
        return find_line(self._index[pos], lemma.replace(" ", "_").encode("latin-1", "ignore"))

    def _sense(self, pos: str, offset: int, lemma: str) -> Sense:
        data = self._data[pos]
        end = data.find(b"\n", offset)
        line = data[offset : end if end >= 0 else len(data)].decode("latin-1")
        head, _, gloss = line.partition(" | ")
        parts = head.split()
        count = int(parts[3], 16)
        words = [parts[4 + 2 * i] for i in range(count)]
        words = [re.sub(r"\(.*\)$", "", w).lower() for w in words]  # adj. markers (a), (p)
        i = 4 + 2 * count
        pointers = int(parts[i])
        derived: list[str] = []
        hypernyms: list[str] = []
        source = words.index(lemma) + 1 if lemma in words else 0
        for j in range(pointers):
            symbol, target, target_pos, numbers = parts[i + 1 + 4 * j : i + 5 + 4 * j]
            target_pos = "a" if target_pos == "s" else target_pos
            if symbol == "+" and source and int(numbers[:2], 16) == source:
                other = self._words(target_pos, int(target))
                derived.append(other[int(numbers[2:], 16) - 1])
            elif symbol in ("@", "@i"):
                hypernyms += self._words(target_pos, int(target))
        return Sense(tuple(words), tuple(derived), tuple(hypernyms), gloss.split(";")[0])

    def _words(self, pos: str, offset: int) -> list[str]:
        data = self._data[pos]
        end = data.find(b"\n", offset)
        parts = data[offset : end if end >= 0 else len(data)].split(b" ", 4 + 2 * 255)
        count = int(parts[3], 16)
        return [
            re.sub(r"\(.*\)$", "", parts[4 + 2 * i].decode("latin-1")).lower()
            for i in range(count)
        ]


def _map(path: Path) -> mmap.mmap:
    with path.open("rb") as f:
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


def find_line(lines: mmap.mmap | bytes, key: bytes) -> str | None:
    """The line of ``lines`` (sorted by their first word, byte order; lines starting with
    two spaces are WordNet's licence header) whose first word is ``key``: a binary search
    over byte offsets."""
    lo, hi = 0, len(lines)
    while lo < hi:
        mid = (lo + hi) // 2
        start = lines.rfind(b"\n", 0, mid) + 1
        start = max(start, lo)
        end = lines.find(b"\n", start)
        end = len(lines) if end < 0 else end
        line = lines[start:end]
        if line.startswith(b"  "):
            lo = end + 1
            continue
        word = line.split(b" ", 1)[0]
        if word == key:
            return line.decode("latin-1")
        if word < key:
            lo = end + 1
        else:
            hi = start
    return None
