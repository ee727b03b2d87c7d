"""Paraphrase re-ranking with static word vectors (crawler/search/semantic.py): the
tokenizer, the table distilled from a (tiny, generated) BERT, the re-ranking of a
description's best hits on both backends, names left alone."""

from __future__ import annotations

import json
import struct
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from crawler.search import IndexWriter, SearchEngine, open_index, page_document
from crawler.search.query.tree import parse
from crawler.search.semantic import (
    Semantic,
    StaticEmbedding,
    WordPiece,
    build_table,
    page_text,
    query_words,
    rerank,
)

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_wordpiece_splits_words_as_bert_does() -> None:
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "join", "##ed", "string", "##s", ",", "deja"]
    tok = WordPiece(vocab)
    assert tok.words("Joined strings, Déjà") == ["joined", "strings", ",", "deja"]
    assert tok.encode("Joined strings, Déjà vu") == [4, 5, 6, 7, 8, 9, 1]
    assert tok.encode("") == []


def _table(words: dict[str, tuple[float, float]]) -> StaticEmbedding:
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "."] + list(words)
    vectors = np.zeros((len(vocab), 2), dtype=np.float32)
    for i, word in enumerate(words, start=5):
        vectors[i] = words[word]
    return StaticEmbedding(vocab, vectors, np.ones(len(vocab), dtype=np.float32))


JOINING = (1.0, 0.0)
OTHER = (0.0, 1.0)
TABLE = _table(
    {
        "glue": JOINING,
        "pieces": JOINING,
        "together": JOINING,
        "join": JOINING,
        "concatenation": JOINING,
        "strings": JOINING,
        "quickly": OTHER,
        "print": OTHER,
        "output": OTHER,
        "flush": OTHER,
        "screen": OTHER,
    }
)


def test_embedding_is_the_weighted_mean_of_known_tokens() -> None:
    assert np.allclose(TABLE.embed("glue . ? unknown"), [1.0, 0.0])  # '.', [UNK]: weight 0
    assert np.allclose(TABLE.embed("glue print"), [2**-0.5, 2**-0.5])
    assert TABLE.embed("nothing known") is None


def test_rerank_orders_the_window_by_score_and_cosine_and_keeps_the_tail_below() -> None:
    texts = {"a": "print output", "b": "join strings", "c": "screen", "d": "glue"}
    top = [(10.0, "a"), (8.0, "b"), (7.0, "c"), (1.0, "d")]
    query = TABLE.embed("glue pieces")
    out = rerank(top, query, texts.__getitem__, TABLE, weight=1.0, window=3)
    assert [k for _, k in out] == ["b", "a", "c", "d"]  # d, outside the window, stays last
    assert out[0][0] == pytest.approx(0.8 + 1.0)
    assert out[-1][0] < min(s for s, _ in out[:3])
    assert rerank(top, query, texts.__getitem__, TABLE, weight=0.0, window=3) == top


def test_query_words_are_the_plain_words_without_stop_words() -> None:
    assert query_words(parse('glue the pieces "a phrase" title:x -quickly site:a.test')) == [
        "glue",
        "pieces",
    ]
    assert page_text("Title", "one two three", lead_words=2) == "Title . one two"


def _engine(path: Path, backend: str, semantic: Semantic | None) -> SearchEngine:
    ix = open_index(path, backend=backend)
    filler = [
        dict(
            url=f"http://docs.test/other{i}.html",
            title=f"Topic {i}",
            text=f"Notes on topic {i}, its files and its settings. " * 3,
        )
        for i in range(12)
    ]
    pages = filler + [
        dict(
            url="http://docs.test/join.html",
            title="join",
            text="Return the concatenation of the strings, quickly.",
        ),
        dict(
            url="http://docs.test/print.html",
            title="print",
            text="Print pieces of output to the screen quickly; flush it together "
            "with the rest, quickly.",
        ),
    ]
    IndexWriter(ix).write(
        page_document(host="docs.test", content_type="text/html", fetched_at=NOW, **p)
        for p in pages
    )
    return SearchEngine(ix, pagerank_weight=0.0, semantic=semantic)


def _urls(engine: SearchEngine, query: str) -> list[str]:
    return [hit.url.rsplit("/", 1)[1] for hit in engine.search(query).hits]


def test_a_description_is_reranked_by_meaning_on_both_backends(
    tmp_path: Path, backend: str
) -> None:
    query = "glue pieces together quickly"
    plain = _engine(tmp_path / "plain", backend, None)
    assert _urls(plain, query)[:2] == ["print.html", "join.html"]
    semantic = _engine(tmp_path / "sem", backend, Semantic(weight=2.0, window=30, model=TABLE))
    assert _urls(semantic, query)[:2] == ["join.html", "print.html"]
    # a name (fewer than 4 plain words) is not re-ranked
    assert _urls(semantic, "pieces quickly") == _urls(plain, "pieces quickly")


def test_a_missing_table_turns_the_reranking_off(tmp_path: Path) -> None:
    semantic = Semantic(weight=2.0, table=tmp_path / "none.npz")
    top = [(2.0, "a"), (1.0, "b")]
    assert semantic.rerank(parse("glue pieces together quickly"), top, str) == top


def _tiny_bert(folder: Path, vocab: list[str]) -> None:
    """A BERT of one layer, width 8, 2 heads, random weights, as safetensors."""
    rng = np.random.default_rng(7)
    width, inner = 8, 16
    shapes = {
        "embeddings.word_embeddings.weight": (len(vocab), width),
        "embeddings.position_embeddings.weight": (16, width),
        "embeddings.token_type_embeddings.weight": (2, width),
        "embeddings.LayerNorm.weight": (width,),
        "embeddings.LayerNorm.bias": (width,),
    }
    p = "encoder.layer.0."
    for name in ("query", "key", "value"):
        shapes[p + f"attention.self.{name}.weight"] = (width, width)
        shapes[p + f"attention.self.{name}.bias"] = (width,)
    shapes |= {
        p + "attention.output.dense.weight": (width, width),
        p + "attention.output.dense.bias": (width,),
        p + "attention.output.LayerNorm.weight": (width,),
        p + "attention.output.LayerNorm.bias": (width,),
        p + "intermediate.dense.weight": (inner, width),
        p + "intermediate.dense.bias": (inner,),
        p + "output.dense.weight": (width, inner),
        p + "output.dense.bias": (width,),
        p + "output.LayerNorm.weight": (width,),
        p + "output.LayerNorm.bias": (width,),
    }
    header: dict = {"__metadata__": {"format": "pt"}}
    blobs = []
    offset = 0
    for name, shape in shapes.items():
        blob = rng.normal(size=shape).astype("<f4").tobytes()
        end = offset + len(blob)
        header[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [offset, end]}
        offset += len(blob)
        blobs.append(blob)
    raw = json.dumps(header).encode()
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(struct.pack("<Q", len(raw)) + raw + b"".join(blobs))
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n")
    (folder / "config.json").write_text(
        json.dumps(
            {"hidden_size": width, "num_attention_heads": 2, "num_hidden_layers": 1,
             "intermediate_size": inner, "layer_norm_eps": 1e-12}
        )
    )


def test_build_table_distils_a_bert_folder(tmp_path: Path) -> None:
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", ".", "join", "string", "##s", "print", "screen"]
    _tiny_bert(tmp_path / "model", vocab)
    seen = []
    out = build_table(
        tmp_path / "model", tmp_path / "t.npz", dimensions=4, batch=4,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(4, 10), (8, 10), (10, 10)]
    table = StaticEmbedding.load(out)
    assert table.vectors.shape == (10, 4)
    assert np.allclose(np.linalg.norm(table.vectors, axis=1), 1.0, atol=1e-3)
    # Zipf weights fall with the rank; special tokens and punctuation weigh nothing
    assert list(table.weights[5:]) == sorted(table.weights[5:])
    assert table.weights[0] == table.weights[4] == 0.0
    vector = table.embed("join strings")
    assert vector is not None and vector.shape == (4,)
    assert table.tokenizer.encode("strings") == [6, 7]
