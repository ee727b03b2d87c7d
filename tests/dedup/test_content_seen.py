"""ContentSeenTest (exact + near duplicates) and its PostgreSQL store, tested directly."""

from __future__ import annotations

import asyncio
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from psycopg_pool import AsyncConnectionPool

from crawler.dedup import (
    ContentSeenTest,
    Duplicate,
    StoredFingerprint,
    WinnowingFingerprint,
    normalize_text,
    word_hashes,
)
from crawler.dedup.store import FingerprintStore
from crawler.storage.database import CrawlDatabase


def article(seed: int, words: int = 400) -> str:
    rng = random.Random(seed)
    vocabulary = [f"{w}{i}" for i, w in enumerate("alpha beta gamma delta epsilon".split())]
    vocabulary += ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6))
                   for _ in range(3000)]
    return " ".join(rng.choice(vocabulary) for _ in range(words))


def replace_words(text: str, every: int) -> str:
    """Replace one word in ``every`` (scattered)."""
    words = text.split()
    return " ".join("zzzqqq" if i % every == every // 2 else w for i, w in enumerate(words))


def test_exact_duplicates_ignore_white_space_case_and_punctuation():
    test = ContentSeenTest()
    text = article(1)
    assert test.check("http://a.test/1", text)[1] is None
    copy = "  " + text.upper().replace(" ", "\n\t ,") + " !"
    fingerprint, duplicate = test.check("http://b.test/1", copy)
    assert duplicate == Duplicate("http://a.test/1", 1.0, exact=True)
    assert duplicate.detail == "exact duplicate of http://a.test/1 (similarity 1.000)"
    assert fingerprint is not None and "http://b.test/1" not in test  # not admitted


def test_near_duplicates_and_distinct_pages():
    test = ContentSeenTest()
    original = article(2)
    test.check("http://a.test/2", original)
    _, near = test.check("http://b.test/2", replace_words(original, 100))  # 1 % changed
    assert near is not None and near.original == "http://a.test/2" and not near.exact
    assert 0.8 <= near.similarity < 1.0
    assert test.check("http://a.test/3", article(3))[1] is None
    assert len(test) == 2


def test_the_first_page_seen_stays_the_original():
    test = ContentSeenTest()
    text = article(4)
    test.check("http://first.test/", text)
    for mirror in ("http://second.test/", "http://third.test/"):
        assert test.check(mirror, text)[1].original == "http://first.test/"
        assert test.check(mirror, replace_words(text, 100))[1].original == "http://first.test/"


def test_a_page_fetched_again_is_not_its_own_duplicate():
    test = ContentSeenTest()
    text = article(5)
    test.check("http://a.test/5", text)
    assert test.check("http://a.test/5", text)[1] is None
    changed = article(6)
    assert test.check("http://a.test/5", changed)[1] is None  # re-indexed with new content
    _, duplicate = test.check("http://b.test/6", changed)
    assert duplicate.original == "http://a.test/5"
    assert len(test) == 1


def test_empty_text_is_never_a_duplicate():
    test = ContentSeenTest()
    assert test.check("http://a.test/", " \n ... ") == (None, None)
    assert test.check("http://b.test/", "") == (None, None)
    assert len(test) == 0


# Two application index pages of the Erlang/OTP reference as the content model finds them
# (title, main content): 24 words that differ in the application's name.
DEBUGGER_INDEX = (
    "Erlang -- Debugger Reference Manual\nDebugger Reference Manual Debugger Reference "
    "Manual Version 5.3 May 3, 2026 Copyright © 1997-2026 Ericsson AB. All Rights Reserved."
)
ERL_INTERFACE_INDEX = (
    "Erlang -- Erl_Interface Reference Manual\nErl_Interface Reference Manual Erl_Interface "
    "Reference Manual Version 5.3 May 3, 2026 Copyright © 1998-2026 Ericsson AB. All Rights "
    "Reserved."
)


def test_a_short_page_is_judged_by_the_word_alignment_alone():
    # Jaccard 0.833 (>= 0.8) over a few minutiae, word alignment 0.784 (< 0.93)
    by_jaccard = ContentSeenTest(short_page_words=0)
    assert by_jaccard.check("http://a.test/debugger", DEBUGGER_INDEX)[1] is None
    found = by_jaccard.check("http://a.test/erl_interface", ERL_INTERFACE_INDEX)[1]
    assert found is not None and found.alignment is None and found.similarity > 0.83
    test = ContentSeenTest()  # DEDUP_SHORT_PAGE_WORDS = 100
    fingerprint, duplicate = test.check("http://a.test/debugger", DEBUGGER_INDEX)
    assert duplicate is None and fingerprint.words.size == 24
    assert test.check("http://a.test/erl_interface", ERL_INTERFACE_INDEX)[1] is None
    # a short copy with a word changed is still a near duplicate (alignment 23/24), an
    # exact copy an exact one
    edited = DEBUGGER_INDEX.replace("May 3", "May 4")
    duplicate = test.check("http://b.test/debugger", edited)[1]
    assert duplicate.original == "http://a.test/debugger" and duplicate.alignment > 0.95
    assert test.check("http://c.test/", DEBUGGER_INDEX.upper())[1] == Duplicate(
        "http://a.test/debugger", 1.0, exact=True)
    # the words of a short page's candidates are asked for even when the Jaccard is high
    loaded = ContentSeenTest()
    loaded.load([StoredFingerprint("http://a.test/erl_interface", *stored_row(
        loaded, ERL_INTERFACE_INDEX))])
    fingerprint = loaded.fingerprint(DEBUGGER_INDEX)
    similarities = loaded.similarities("http://a.test/debugger", fingerprint)
    assert max(similarities.values()) > 0.8
    assert loaded.words_needed(similarities, fingerprint) == ["http://a.test/erl_interface"]
    assert ContentSeenTest(short_page_words=0).words_needed(similarities, fingerprint) == []


def stored_row(test: ContentSeenTest, text: str) -> tuple[str, np.ndarray, np.ndarray]:
    fingerprint = test.fingerprint(text)
    return fingerprint.digest, fingerprint.minutiae, fingerprint.signature


def test_detail_is_truncated_not_rounded_and_parses_back():
    duplicate = Duplicate("http://a.test/x?y=1", 0.81299, exact=False)
    assert duplicate.detail == "near duplicate of http://a.test/x?y=1 (similarity 0.812)"
    assert Duplicate.parse_detail(duplicate.detail) == Duplicate(
        "http://a.test/x?y=1", 0.812, exact=False)
    with pytest.raises(ValueError):
        Duplicate.parse_detail("robots.txt disallows it")


def test_lookup_mode_gives_the_same_answers_as_in_memory():
    in_memory = ContentSeenTest()
    lookup = ContentSeenTest(keep_minutiae=False)
    kept: dict[str, np.ndarray] = {}
    texts = [(f"http://s.test/{i}", article(10 + i)) for i in range(20)]
    texts += [(f"http://m.test/{i}", replace_words(article(10 + i), 60 + i)) for i in range(20)]
    for url, text in texts:
        expected_fp, expected = in_memory.check(url, text)
        fingerprint = lookup.fingerprint(text)
        with pytest.raises(ValueError):
            lookup.find(url, fingerprint)
        keys = lookup.candidates(url, fingerprint)
        found = lookup.find(url, fingerprint, {key: kept[key] for key in keys})
        assert found == expected
        if found is None:
            lookup.add(url, fingerprint)
            kept[url] = fingerprint.minutiae
    assert len(lookup) == len(in_memory) == 20  # every edited page was a near duplicate


def test_load_rebuilds_the_test_from_stored_rows():
    source = ContentSeenTest()
    texts = {f"http://a.test/{i}": article(30 + i) for i in range(5)}
    rows = []
    for url, text in texts.items():
        fingerprint, _ = source.check(url, text)
        rows.append(StoredFingerprint(
            url, fingerprint.digest, fingerprint.minutiae.tobytes(),
            fingerprint.signature.tobytes() if url.endswith("0") else None,
        ))
    rows.append(StoredFingerprint("http://old.test/", source.fingerprint("old scheme").digest,
                                  None, None))  # another scheme: exact test only
    rebuilt = ContentSeenTest()
    assert rebuilt.load(rows) == (5, 1)
    for url, text in texts.items():
        copy = replace_words(text, 100)
        assert rebuilt.check(url.replace("a.test", "b.test"), copy)[1].original == url
    assert rebuilt.check("http://new.test/", "Old  SCHEME")[1].original == "http://old.test/"
    # a signature of another length (other num_perm) is recomputed from the minutiae
    other = ContentSeenTest(num_perm=64)
    short = StoredFingerprint("http://a.test/0", rows[0].digest, rows[0].minutiae,
                              rows[0].signature)
    assert other.load([short]) == (1, 0)
    assert other.check("http://c.test/", replace_words(texts["http://a.test/0"], 100))[1]


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=0, max_size=400))
def test_normalized_minutiae_equal_minutiae_of_the_raw_text(text):
    for winnowing in (WinnowingFingerprint(), WinnowingFingerprint(5, 4, "md5")):
        np.testing.assert_array_equal(
            winnowing.normalized_minutiae_array(normalize_text(text)),
            winnowing.minutiae_array(text),
        )


# ----------------------------------------------------------------------- PostgreSQL


@pytest.fixture
def prepared_database(database_url: str, db) -> str:
    CrawlDatabase(url=database_url).prepare()
    for crawl in ("store-a", "store-b"):
        db.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'test') ON CONFLICT DO NOTHING",
                   (crawl,))
    db.execute("DELETE FROM page_fingerprints WHERE crawl_id LIKE 'store-%'")
    return database_url


def test_store_round_trip(prepared_database: str, db):
    texts = {f"http://a.test/{i}": article(50 + i) for i in range(7)}

    async def scenario() -> None:
        async with AsyncConnectionPool(prepared_database, min_size=1, open=False) as pool:
            test = ContentSeenTest()
            store = FingerprintStore(pool, "store-a", test.scheme, batch_size=3)
            fingerprints = {}
            for url, text in texts.items():
                fingerprint, duplicate = test.check(url, text)
                assert duplicate is None
                fingerprints[url] = fingerprint
                if store.add(url, fingerprint):
                    await store.flush()
            assert len(store.pending) == 1 and store.written == 6  # batches of 3
            # waiting rows are readable too
            minutiae = await store.fetch_minutiae(["http://a.test/0", "http://a.test/6"])
            for url in ("http://a.test/0", "http://a.test/6"):
                np.testing.assert_array_equal(minutiae[url], fingerprints[url].minutiae)
            await store.flush()
            assert store.written == 7 and not store.pending

            # a new process: in memory, and in lookup mode
            for keep in (True, False):
                rebuilt = ContentSeenTest(keep_minutiae=keep)
                reader = FingerprintStore(pool, "store-a", rebuilt.scheme)
                assert await reader.load(rebuilt) == (7, 0)
                # another crawl's rows are not loaded
                assert await FingerprintStore(pool, "store-b", rebuilt.scheme).load(
                    ContentSeenTest()) == (0, 0)
                copy = replace_words(texts["http://a.test/3"], 100)
                fingerprint = rebuilt.fingerprint(copy)
                keys = rebuilt.candidates("http://b.test/3", fingerprint)
                stored = await reader.fetch_minutiae(keys)
                assert rebuilt.find("http://b.test/3", fingerprint, stored).original == (
                    "http://a.test/3")

            # another winnowing scheme: only the exact test uses the rows
            other = ContentSeenTest(WinnowingFingerprint(12, 30))
            assert await FingerprintStore(pool, "store-a", other.scheme).load(other) == (0, 7)
            assert other.check("http://c.test/", texts["http://a.test/2"].upper())[1] == (
                Duplicate("http://a.test/2", 1.0, exact=True))

    asyncio.run(scenario())
    rows = db.execute(
        "SELECT url, scheme, length(minutiae) % 8, length(signature) FROM page_fingerprints "
        "WHERE crawl_id = 'store-a' ORDER BY seq").fetchall()
    assert [row[0] for row in rows] == list(texts)  # in order of admission
    assert {row[1:] for row in rows} == {("winnow:k=8:w=30:karp_rabin:main", 0, 128 * 4)}


def test_store_fetches_words_from_waiting_rows_and_stored_pages(prepared_database: str, db):
    db.execute("DELETE FROM pages WHERE crawl_id = 'store-b'")
    title, text = "Release notes", article(70)
    db.execute(
        "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at, depth, "
        "title, text, content_md5, size) VALUES ('store-b', 'http://a.test/stored', "
        "'http://a.test/stored', 'a.test', 200, now(), 0, %s, %s, '', 0)", (title, text))
    main = article(71, 100)
    db.execute(
        "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at, depth, "
        "title, text, main_text, content_md5, size) VALUES ('store-b', 'http://a.test/main', "
        "'http://a.test/main', 'a.test', 200, now(), 0, %s, %s, %s, '', 0)",
        (title, f"{article(72)} {main}", main))

    async def scenario() -> dict[str, np.ndarray]:
        async with AsyncConnectionPool(prepared_database, min_size=1, open=False) as pool:
            test = ContentSeenTest()
            store = FingerprintStore(pool, "store-b", test.scheme)
            store.add("http://a.test/waiting", test.fingerprint("Waiting page, two words."))
            return await store.fetch_words(["http://a.test/stored", "http://a.test/main",
                                             "http://a.test/waiting", "http://a.test/absent"])

    found = asyncio.run(scenario())
    assert sorted(found) == ["http://a.test/main", "http://a.test/stored", "http://a.test/waiting"]
    # the stored page's words are those of the text the spider fingerprinted: the title
    # and the main content, or the visible text of a page stored without one
    np.testing.assert_array_equal(found["http://a.test/stored"], word_hashes(f"{title}\n{text}"))
    np.testing.assert_array_equal(found["http://a.test/main"], word_hashes(f"{title}\n{main}"))
    np.testing.assert_array_equal(found["http://a.test/waiting"],
                                  word_hashes("waiting page two words"))
    db.execute("DELETE FROM pages WHERE crawl_id = 'store-b'")


def menu_page(name: str, menu_seed: int, body_seed: int, words: int = 120) -> bytes:
    """A module page as Erlang/OTP's reference draws it: a left menu of links (no
    navigation markup) shared by the application's pages, about 90 % of the page's
    words, then the module's own text."""
    rng = random.Random(menu_seed)
    entries = [" ".join(rng.choice(("get", "put", "list", "fold", "map", "key", "term"))
                        + f"{i}/{rng.randint(1, 4)}" for _ in range(2)) for i in range(500)]
    menu = "".join(f'<li><a href="#{i}">{entry}</a></li>' for i, entry in enumerate(entries))
    sentences = article(body_seed, words).split()
    paragraphs = "".join(f"<p>{' '.join(sentences[i:i + 30])}.</p>"
                         for i in range(0, len(sentences), 30))
    return (f'<html><head><title>Erlang -- {name}</title></head><body>'
            f'<div id="leftnav"><ul class="flipMenu">{menu}</ul></div>'
            f'<div id="content"><h1>{name}</h1>{paragraphs}</div></body></html>').encode()


def test_pages_sharing_a_large_menu_are_told_apart_by_their_main_content():
    from crawler.page_analysis import analyse_html

    pages = {
        "http://otp.test/stdlib/base64.html": menu_page("base64", 1, 10),
        "http://otp.test/stdlib/lists.html": menu_page("lists", 1, 11),
        # a copy of base64's page under another application's menu
        "http://otp.test/kernel/base64.html": menu_page("base64", 2, 10),
    }
    analyses = {url: analyse_html(body, url) for url, body in pages.items()}
    base64 = analyses["http://otp.test/stdlib/base64.html"]
    assert len(base64.main_text.split()) < 0.15 * len(base64.text.split())  # the menu's share
    found = {}
    for content in ("all", "main"):
        test = ContentSeenTest(content=content)
        found[content] = {
            url: test.check(url, test.page_text(a.title, a.text, a.main_text))[1]
            for url, a in analyses.items()
        }
    # the whole text: the two modules of one application look alike (Jaccard 0.835),
    # the copy does not
    assert found["all"]["http://otp.test/stdlib/lists.html"].original == (
        "http://otp.test/stdlib/base64.html")
    assert found["all"]["http://otp.test/kernel/base64.html"] is None
    # the main content: the modules are distinct, the copy is an exact duplicate
    assert found["main"]["http://otp.test/stdlib/lists.html"] is None
    assert found["main"]["http://otp.test/kernel/base64.html"] == Duplicate(
        "http://otp.test/stdlib/base64.html", 1.0, exact=True)


def test_main_content_is_fingerprinted_when_there_is_one():
    test = ContentSeenTest()
    assert test.content == "main" and test.scheme == "winnow:k=8:w=30:karp_rabin:main"
    assert test.page_text("T", "menu words main words", "main words") == "T\nmain words"
    # no main content (a page stored before the content model, or none found): the text
    assert test.page_text("T", "menu words", None) == "T\nmenu words"
    assert test.page_text("T", "menu words", " ") == "T\nmenu words"
    whole = ContentSeenTest(content="all")
    assert whole.scheme == "winnow:k=8:w=30:karp_rabin"
    assert whole.page_text("T", "menu words main words", "main words") == (
        "T\nmenu words main words")
    with pytest.raises(ValueError, match="content must be one of main, all"):
        ContentSeenTest(content="body")


def test_dedup_content_setting():
    from scrapy.exceptions import UsageError
    from scrapy.settings import Settings

    from crawler.middlewares.content_seen import fingerprint_config

    assert fingerprint_config(Settings()).content == "main"
    assert fingerprint_config(Settings({"DEDUP_CONTENT": "ALL"})).test().content == "all"
    with pytest.raises(UsageError, match="DEDUP_CONTENT must be main or all, not 'body'"):
        fingerprint_config(Settings({"DEDUP_CONTENT": "body"}))
