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
    assert {row[1:] for row in rows} == {("winnow:k=8:w=30:karp_rabin", 0, 128 * 4)}


def test_store_fetches_words_from_waiting_rows_and_stored_pages(prepared_database: str, db):
    db.execute("DELETE FROM pages WHERE crawl_id = 'store-b'")
    title, text = "Release notes", article(70)
    db.execute(
        "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at, depth, "
        "title, text, content_md5, size) VALUES ('store-b', 'http://a.test/stored', "
        "'http://a.test/stored', 'a.test', 200, now(), 0, %s, %s, '', 0)", (title, text))

    async def scenario() -> dict[str, np.ndarray]:
        async with AsyncConnectionPool(prepared_database, min_size=1, open=False) as pool:
            test = ContentSeenTest()
            store = FingerprintStore(pool, "store-b", test.scheme)
            store.add("http://a.test/waiting", test.fingerprint("Waiting page, two words."))
            return await store.fetch_words(
                ["http://a.test/stored", "http://a.test/waiting", "http://a.test/absent"])

    found = asyncio.run(scenario())
    assert sorted(found) == ["http://a.test/stored", "http://a.test/waiting"]
    # the stored page's words are those of the text the spider fingerprinted
    np.testing.assert_array_equal(found["http://a.test/stored"], word_hashes(f"{title}\n{text}"))
    np.testing.assert_array_equal(found["http://a.test/waiting"],
                                  word_hashes("waiting page two words"))
    db.execute("DELETE FROM pages WHERE crawl_id = 'store-b'")
