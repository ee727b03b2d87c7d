"""Ranking signals of issue 25 (crawler/search/fields.py, crawler/search/ranking.py):
in-link anchor text, headings against long reference pages, the query's language and
the grouping of a page's translations and copies (exact rank orders on small indexes)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from crawler.search import IndexWriter, SearchEngine, open_index, page_document
from crawler.search.fields import (
    copy_key,
    inlink_anchor_text,
    source_copy_page,
    url_language,
    variant_key,
)
from crawler.search.query import compiler
from crawler.search.ranking import (
    Boosts,
    Candidate,
    accept_language,
    group_variants,
    language_factor,
    query_boosts,
    query_language,
)
from crawler.search.tantivy_index import NAME_TERMS

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_variant_key_removes_language_marks() -> None:
    same = [
        "http://h.test/docs/mod/mod_rewrite.html",
        "http://h.test/docs/mod/mod_rewrite.html.en",
        "http://h.test/docs/mod/mod_rewrite.html.ko.euc-kr",
        "http://h.test/docs/mod/mod_rewrite.ja.html",
    ]
    assert {variant_key(u) for u in same} == {"h.test/docs/mod/mod_rewrite.html"}
    assert variant_key("http://h.test/ko/guide/x.html") == "h.test/guide/x.html"
    assert variant_key("http://h.test/zh-cn/guide/x.html") == "h.test/guide/x.html"
    assert variant_key("http://h.test/x.html?lang=fr&a=1") == "h.test/x.html?a=1"
    assert variant_key("http://h.test/a/index.html") == variant_key("http://h.test/a/")
    # not languages: a word, a Java package name part, another page
    assert variant_key("http://h.test/id/x.html") == "h.test/id/x.html"
    assert variant_key("http://h.test/api/java.base/Map.Entry.html") == (
        "h.test/api/java.base/Map.Entry.html"
    )
    assert [url_language(u) for u in same] == ["", "en", "ko", "ja"]
    assert url_language("http://h.test/pt_BR/x.html") == "pt"


def test_a_sphinx_source_copy_shares_its_pages_variant_key() -> None:
    root = "http://cmake.test/help/"
    assert source_copy_page(root + "_sources/prop_tgt/LINK_WHAT.rst.txt") == (
        "/help/prop_tgt/LINK_WHAT.html")
    assert variant_key(root + "_sources/prop_tgt/LINK_WHAT.rst.txt") == variant_key(
        root + "prop_tgt/LINK_WHAT.html")
    assert variant_key(root + "_sources/index.rst.txt") == variant_key(root)
    assert variant_key(root + "_sources/guide.txt") == variant_key(root + "guide.html")
    assert variant_key(root + "_sources/nb/intro.ipynb.txt") == variant_key(
        root + "nb/intro.html")
    # not copies: a text file elsewhere, the folder's own name as a page
    for url in (root + "notes/readme.txt", root + "_sources.txt", root + "_sources/x.py"):
        assert source_copy_page(url) is None
        assert variant_key(url) == url.split("://", 1)[1]


def test_copy_key_folds_case_and_spacing_only() -> None:
    assert copy_key("Title", "Some  text\nhere") == copy_key("title", "some text here")
    assert copy_key("Title", "Some text here") != copy_key("Title", "Some text there")
    assert copy_key("", "") == ""


def test_inlink_anchor_text_weighs_other_hosts_and_caps_each_host() -> None:
    inlinks = [(f"http://a.test/p{i}.html", "Paths") for i in range(100)]  # a menu
    inlinks += [("http://b.test/x.html", "the Paths class"), ("http://a.test/n.html", " ")]
    inlinks += [("http://a.test/q.html", "next")]
    text = inlink_anchor_text(inlinks, "a.test")
    assert text.split("\n") == ["Paths"] * 3 + ["the Paths class"] * 2 + ["next"]


def test_query_language_and_accept_language() -> None:
    assert accept_language("da, en-GB;q=0.8, en;q=0.7") == "da"
    assert accept_language("en;q=0.5, ko-KR") == "ko"
    assert accept_language("") == ""
    assert query_language("mod_rewrite", default="en") == "en"
    assert query_language("mod_rewrite", preferred="de-DE", default="en") == "de"
    assert query_language("mod_rewrite", explicit="ko", preferred="de") == "ko"
    assert query_language("재작성 규칙", default="en") == "ko"
    assert query_language("Die Konfiguration des Servers ist für alle", default="en") == "de"
    assert query_language("Die Konfiguration des Servers ist einfach", default="en") == "en"
    # typographic punctuation is no sign of a language (and costs the detector's load)
    assert query_language("Die Konfiguration des Servers ist einfach —", default="en") == "en"
    assert query_language("x", default="") == ""
    assert language_factor("ko", "en", 0.5) == 0.5
    assert language_factor("", "en", 0.5) == language_factor("en", "en", 0.5) == 1.0


def test_group_variants_shows_the_query_language_at_the_best_members_place() -> None:
    ranked = [
        Candidate(1, 9.0, "ko", "h/x.html", "k1"),
        Candidate(2, 8.0, "", "h/y.html", "c"),
        Candidate(3, 7.0, "en", "h/x.html", "k3"),
        Candidate(4, 6.0, "en", "m/y.html", "c"),  # a copy of 2 on a mirror
    ]
    groups = group_variants(ranked, "en")
    assert [[m.key for m in g.members] for g in groups] == [[1, 3], [2, 4]]
    assert [g.shown.key for g in groups] == [3, 4]
    # a later tier's page joins its group
    group_variants([Candidate(5, 1.0, "de", "h/x.html", "k5")], "de", groups)
    assert [g.shown.key for g in groups] == [5, 2]
    # an untranslated page in a translation's folder (English under /de-DE/) ranks
    # first: the page whose URL marks no other language is shown
    urls = {6: "http://h/de-DE/z.html", 7: "http://h/en-US/z.html", 8: "http://h/fr/z.html"}
    ranked = [
        Candidate(6, 3.0, "en", "h/z.html", "k6"),
        Candidate(8, 2.5, "fr", "h/z.html", "k8"),
        Candidate(7, 2.0, "en", "h/z.html", "k7"),
    ]
    assert group_variants(ranked, "en", url_of=urls.__getitem__)[0].shown.key == 7
    assert group_variants(ranked, "en")[0].shown.key == 6
    assert group_variants(ranked, "fr", url_of=urls.__getitem__)[0].shown.key == 8
    # a Sphinx source copy ranked first: its page is shown, in any language or none
    urls = {9: "http://h/_sources/w.rst.txt", 10: "http://h/w.html"}
    ranked = [Candidate(9, 3.0, "en", "h/w.html", "k9"), Candidate(10, 2.0, "en", "h/w.html",
                                                                    "k10")]
    for lang in ("en", "fr", ""):
        assert group_variants(ranked, lang, url_of=urls.__getitem__)[0].shown.key == 10


def _engine(path: Path, pages: list[dict], backend: str = "whoosh", **options) -> SearchEngine:
    ix = open_index(path, backend=backend)
    IndexWriter(ix).write(
        page_document(host=p["url"].split("/")[2], content_type="text/html", fetched_at=NOW, **p)
        for p in pages
    )
    return SearchEngine(ix, **options)


def _pages(url: str, title: str, text: str, n: int = 20) -> list[dict]:
    """``n`` filler pages, each template's ``{}`` the page's number."""
    return [dict(url=url.format(i), title=title.format(i), text=text.format(i)) for i in range(n)]


FILLER = "General remarks about the server and its configuration files. " * 4
ENGLISH = "The rewrite module rewrites requested URLs on the fly with rules. " + FILLER
KOREAN = "mod_rewrite 모듈은 규칙에 따라 요청 URL을 재작성합니다. rewrite rewrite " * 3


def test_translations_are_one_result_in_the_query_language(tmp_path: Path, backend: str) -> None:
    base = "http://httpd.test/docs/mod/"
    engine = _engine(
        tmp_path,
        [
            dict(
                url=base + "mod_rewrite.html.ko",
                title="mod_rewrite",
                text=KOREAN,
                lang="ko",
                pagerank=5.0,
            ),
            dict(
                url=base + "mod_rewrite.html.en",
                title="mod_rewrite",
                text=ENGLISH,
                lang="en",
                pagerank=1.0,
            ),
            dict(
                url=base + "mod_alias.html.en",
                title="mod_alias",
                text="Mapping URLs to the file system; rewrite is another module. " + FILLER,
                lang="en",
                pagerank=1.0,
            ),
        ],
        backend=backend,
    )
    english = engine.search("rewrite")
    assert [h.url.rsplit("/", 1)[1] for h in english.hits] == [
        "mod_rewrite.html.en",
        "mod_alias.html.en",
    ]
    assert english.lang == "en" and english.total == 2
    assert english.hits[0].variants == [
        {"url": base + "mod_rewrite.html.ko", "title": "mod_rewrite", "lang": "ko"}
    ]
    for korean in (engine.search("rewrite lang:ko"), engine.search("rewrite", lang="ko-KR")):
        assert korean.lang == "ko"
        assert [h.url.rsplit("/", 1)[1] for h in korean.hits] == [
            "mod_rewrite.html.ko",
            "mod_alias.html.en",
        ]
        assert [v["lang"] for v in korean.hits[0].variants] == ["en"]
    as_json = english.as_dict()
    assert as_json["lang"] == "en" and as_json["results"][0]["variants"][0]["lang"] == "ko"


def test_an_untranslated_copy_in_a_translations_folder_is_not_shown_for_the_original(
    tmp_path: Path, backend: str
) -> None:
    base = "http://handbook.test/browse/"
    text = "The inetd super-server runs rarely used servers on demand. " + FILLER
    engine = _engine(
        tmp_path,
        [
            # the German folder's page is still English (detected), and ranks first
            dict(url=base + "de-DE/inetd.html", title="inetd inetd", text=text, lang="en"),
            dict(url=base + "en-US/inetd.html", title="The inetd server", text=text, lang="en"),
            dict(url=base + "fr-FR/inetd.html", title="Le super-serveur inetd", text=FILLER,
                 lang="fr"),
        ],
        pagerank_weight=0.0,
        backend=backend,
    )
    results = engine.search("inetd")
    assert [h.url for h in results.hits] == [base + "en-US/inetd.html"]
    assert [v["url"] for v in results.hits[0].variants] == [
        base + "de-DE/inetd.html",
        base + "fr-FR/inetd.html",
    ]


def test_a_sphinx_source_copy_is_listed_under_its_page(tmp_path: Path, backend: str) -> None:
    root = "http://cmake.test/help/"
    source = "LINK_WHAT_YOU_USE\n=================\n\nLink what you use: drop unused libraries. "
    engine = _engine(
        tmp_path,
        [
            # the source holds the query's words more often and ranks first on its own
            dict(url=root + "_sources/prop_tgt/LINK_WHAT_YOU_USE.rst.txt", title="",
                 text=source * 3, lang="en"),
            dict(url=root + "prop_tgt/LINK_WHAT_YOU_USE.html", title="LINK_WHAT_YOU_USE",
                 text="Drop libraries the target does not use. " + FILLER, lang="en"),
            dict(url=root + "prop_tgt/LINK_LIBRARIES.html", title="LINK_LIBRARIES",
                 text="Libraries a target links; unused ones stay. " + FILLER, lang="en"),
        ],
        pagerank_weight=0.0,
        backend=backend,
    )
    results = engine.search("drop unused libraries")
    assert [h.url for h in results.hits] == [
        root + "prop_tgt/LINK_WHAT_YOU_USE.html", root + "prop_tgt/LINK_LIBRARIES.html"]
    assert [v["url"] for v in results.hits[0].variants] == [
        root + "_sources/prop_tgt/LINK_WHAT_YOU_USE.rst.txt"]


def test_in_link_anchor_text_finds_the_page_others_name(tmp_path: Path, backend: str) -> None:
    text = "Static helpers that return locator objects from strings or identifiers. "
    pages = [
        dict(url="http://api.test/Alpha.html", title="Alpha", text=text + "alpha"),
        dict(
            url="http://api.test/Beta.html",
            title="Beta",
            text=text + "beta",
            inlinks=inlink_anchor_text([("http://blog.test/a", "the locator helpers")], "api.test"),
        ),
    ]
    engine = _engine(tmp_path, pages, pagerank_weight=0.0, backend=backend)
    assert [h.url for h in engine.search("locator helpers").hits] == [
        "http://api.test/Beta.html",
        "http://api.test/Alpha.html",
    ]
    pages[1]["inlinks"] = ""
    plain = _engine(tmp_path / "plain", pages, pagerank_weight=0.0, backend=backend)
    assert [h.url for h in plain.search("locator helpers").hits] == [
        "http://api.test/Alpha.html",
        "http://api.test/Beta.html",
    ]


def test_the_page_devoted_to_a_topic_beats_a_long_page_mentioning_it(
    tmp_path: Path, backend: str
) -> None:
    reference = " ".join(
        f"Directive Option{i}: sets the option{i}; see also KeepAlive handling and "
        f"KeepAlive timeouts for option{i}."
        for i in range(60)
    )
    guide = "Persistent connections let a client send several requests over one connection. " * 6
    engine = _engine(
        tmp_path,
        [
            dict(
                url="http://httpd.test/mod/directives.html",
                title="Directive Index",
                text=reference,
                headings=["Directive Index"],
                pagerank=3.0,
            ),
            dict(
                url="http://httpd.test/keepalive.html",
                title="Persistent connections",
                text="KeepAlive " + guide,
                headings=["KeepAlive", "Configuration"],
                pagerank=1.0,
            ),
        ],
        backend=backend,
    )
    assert [h.url.rsplit("/", 1)[1] for h in engine.search("keepalive").hits] == [
        "keepalive.html",
        "directives.html",
    ]


def test_a_description_is_one_tier_and_a_sentence_matches_any_of_its_words(
    tmp_path: Path, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    filler = " ".join(f"topic{i} words" for i in range(150))
    pages = [
        # a long page that holds every word of the description by chance
        dict(
            url="http://d.test/whatsnew.html",
            title="What's new",
            text=f"make {filler} temporary {filler} file {filler} closed {filler} gone",
        ),
        # the page described, without the word "make"
        dict(
            url="http://d.test/tempfile.html",
            title="tempfile",
            text="Temporary file objects: the temporary file is deleted once closed.",
        ),
    ]
    pages += _pages("http://d.test/p{}.html", "page {}", "a file that is closed and gone, page {}")
    engine = _engine(tmp_path, pages, pagerank_weight=0.0, backend=backend)
    found = engine.search("make temporary file closed").hits
    assert found[0].url == "http://d.test/tempfile.html"
    assert found[0].matched_all is None  # one tier
    assert engine.search("temporary file").hits[0].matched_all is True  # two tiers
    # a sentence is one tier of the pages holding any of its words, as a description is
    # (twenty-first round): the pages holding only its common words (file, closed, gone:
    # in over 10 % of the pages) match too
    text = "make the temporary file that is closed and gone for good right now"
    sentence = engine.search(text, per_page=50)
    assert sentence.total == 22
    assert sentence.hits[0].url == "http://d.test/tempfile.html"
    # with Lucene's common-terms query (COMMON_TERMS, off) they did not: the uncommon
    # words decided which pages match
    monkeypatch.setattr(compiler, "COMMON_TERMS", True)
    sentence = engine.search(text)
    assert {h.url for h in sentence.hits} == {
        "http://d.test/whatsnew.html",
        "http://d.test/tempfile.html",
    }
    assert sentence.total == 2


def test_a_sentence_finds_the_page_holding_only_its_common_words(
    tmp_path: Path, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A paraphrase shares its common words with the page it describes (a collection's
    own vocabulary) while its uncommon words are the user's own, which that page lacks
    ("folder", "away"): with the common-terms query (COMMON_TERMS) only the pages holding
    an uncommon word matched, and the page described was not found at all (scons's
    VariantDir chapter, docs/search.md, twenty-first round). Now it is first: its title
    and text hold the common words."""
    pages = [
        dict(
            url="http://s.test/variantdir.html",
            title="Variant directories: compiled objects apart from the sources",
            text="The compiled objects and every output of the build go to a variant "
            "directory, apart from the sources.",
        ),
        dict(
            url="http://s.test/misc.html",
            title="Miscellaneous",
            text="Put the folder away when you are done. " + FILLER,
        ),
    ]
    pages += _pages(
        "http://s.test/p{}.html",
        "page {}",
        "Notes on builders, page {}: compiled objects, output and sources.",
    )
    engine = _engine(tmp_path, pages, pagerank_weight=0.0, backend=backend)
    text = "put compiled objects in a separate output folder away from the sources"
    assert engine.search(text).hits[0].url == "http://s.test/variantdir.html"
    monkeypatch.setattr(compiler, "COMMON_TERMS", True)
    found = engine.search(text)
    assert [h.url for h in found.hits] == ["http://s.test/misc.html"]


@pytest.mark.parametrize("vocabulary", [True, False], ids=["vocabulary", "regex"])
def test_a_word_inside_a_pages_name_is_a_name_part(
    tmp_path: Path, backend: str, vocabulary: bool
) -> None:
    """``hooks`` names the page ``githooks`` (its title and URL name hold it inside a
    longer word, which no analyzer splits): the name-part bonus puts it above a page
    that uses the word more and whose title holds its stem; the page named exactly
    ``hooks`` stays above both; a description gets no such bonus. Tantivy finds the
    terms holding the word in the index's name-part vocabulary, or without one (an
    index written before it) by regular expressions, with the same results (Whoosh has
    one way)."""

    def engine_of(path: Path, pages: list[dict]) -> SearchEngine:
        engine = _engine(path, pages, pagerank_weight=0.0, backend=backend)
        if backend == "tantivy" and not vocabulary:
            (path / NAME_TERMS).unlink()
        return engine

    pages = [
        dict(
            url="http://g.test/docs/githooks.html",
            title="githooks(5)",
            text="Programs you can place in a directory to trigger actions; hooks.",
        ),
        dict(
            url="http://g.test/docs/git-hook.html",
            title="git-hook(1)",
            text="Run git hooks: git hook run runs the hooks, hooks and hooks again.",
        ),
    ]
    pages += _pages("http://g.test/docs/p{}.html", "page {}", "commits and branches, page {}")
    engine = engine_of(tmp_path, pages)
    assert [h.url.rsplit("/", 1)[1] for h in engine.search("hooks").hits] == [
        "githooks.html",
        "git-hook.html",
    ]
    # (a word of 3 letters is too short to be a part: "git" is inside every name)
    assert [h.url.rsplit("/", 1)[1] for h in engine.search("run hooks").hits][:2] == [
        "git-hook.html",
        "githooks.html",
    ]
    assert [
        h.url.rsplit("/", 1)[1] for h in engine.search("run the hooks and hooks again").hits
    ][:2] == ["git-hook.html", "githooks.html"]
    engine = engine_of(
        tmp_path / "exact",
        [*pages, dict(url="http://g.test/docs/hooks.html", title="hooks", text="About hooks.")],
    )
    assert [h.url.rsplit("/", 1)[1] for h in engine.search("hooks").hits] == [
        "hooks.html",
        "githooks.html",
        "git-hook.html",
    ]
    if backend == "tantivy":  # the vocabulary was read, or there was none
        expected = "githooks\nhook\nhooks\npage\n" if vocabulary else None  # one batch, sorted
        assert engine.compiler().name_vocabulary == expected


def test_a_sentence_is_one_tier_so_a_long_page_holding_all_its_words_does_not_win(
    tmp_path: Path, backend: str
) -> None:
    """A paraphrase of 8+ plain words (a sentence) shares most of its words with the page
    it describes, rarely all; a long page holds them all by chance. Ranked in one tier,
    the page described comes first (in two tiers, all words first, it came second)."""
    filler = " ".join(f"topic{i} remarks" for i in range(150))
    words = "pause my program some seconds then continue running again".split()
    pages = [
        dict(
            url="http://d.test/whatsnew.html",
            title="What's new",
            text=" ".join(f"{word} {filler}" for word in words),
        ),
        dict(
            url="http://d.test/time.html",
            title="time",
            text="Pause the running program for a number of seconds, then resume it.",
        ),
    ]
    pages += _pages("http://d.test/p{}.html", "page {}", "other remarks, page {}")
    engine = _engine(tmp_path, pages, pagerank_weight=0.0, backend=backend)
    found = engine.search("pause my program for some seconds then continue running again")
    assert [h.url for h in found.hits] == ["http://d.test/time.html", "http://d.test/whatsnew.html"]
    assert [h.matched_all for h in found.hits] == [None, None]  # one tier
    # three words are a name: two tiers, the page holding all of them first
    assert [h.matched_all for h in engine.search("pause program seconds").hits] == [True, True]


def test_a_paraphrase_is_ranked_by_the_text_not_by_a_title_sharing_its_words(
    tmp_path: Path, backend: str
) -> None:
    """A description (4+ plain words) that shares words as typed with another page's title
    and URL: its title, exact and lead bonuses weigh less (query_boosts), so the page
    whose text says it ranks first; a name query keeps its full bonuses."""
    pages = [
        dict(
            url="http://d.test/library/csv.html",
            title="csv - CSV File Reading and Writing",
            text="The csv module reads and writes tabular data in comma separated values "
            "format, the most common import and export format for spreadsheets. Values "
            "are separated by a comma; the reader and the writer handle quoting.",
        ),
        dict(
            url="http://d.test/library/read.html",
            title="read and write WAV files",
            text="The wave module provides an interface to the WAV sound format. It reads "
            "and writes audio frames, channels and the sample width of a sound file.",
        ),
    ]
    pages += _pages(
        "http://d.test/library/p{}.html", "module {}", "Module {} handles files and their names."
    )
    engine = _engine(tmp_path, pages, pagerank_weight=0.0, backend=backend)
    found = engine.search("read and write comma separated files").hits
    assert [h.url.rsplit("/", 1)[1] for h in found[:2]] == ["csv.html", "read.html"]
    # a name keeps the exact bonus: the page named "read" first
    assert engine.search("read").hits[0].url == "http://d.test/library/read.html"


def test_query_boosts_weigh_a_descriptions_bonuses_less() -> None:
    boosts = Boosts(
        title=2.0, exact=4.0, lead=3.0, proximity=1.0, heading=1.0, anchor=1.0, context=1.0
    )
    # a name gets no context bonus (SEARCH_CONTEXT_MIN_WORDS), a description's is whole
    assert query_boosts(boosts, 3) == Boosts(
        title=2.0, exact=4.0, lead=3.0, proximity=1.0, heading=1.0, anchor=1.0, context=0.0
    )
    assert query_boosts(boosts, 4) == Boosts(
        title=1.0, exact=0.0, lead=1.5, proximity=1.0, heading=0.5, anchor=0.5, context=1.0
    )


def test_a_search_of_an_index_without_pages_finds_nothing(tmp_path: Path, backend: str) -> None:
    """A crawl whose indexer has not committed yet (its pages wait in the outbox)."""
    engine = SearchEngine(open_index(tmp_path, backend=backend))
    found = engine.search("substitute")
    assert (found.total, found.hits, found.error) == (0, [], None)
