"""In-link context (docs/search.md, seventeenth round): the words around a link on the
page that links it (crawler.extract.link_context), stored with the link
(links.context), indexed as the target's ``context`` field and scored as a bonus of
descriptions, alike on both backends."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest

from crawler.extract import CONTEXT_WORDS_AFTER, CONTEXT_WORDS_BEFORE, extract_page
from crawler.items import LinkRecord, PageItem
from crawler.page_analysis import analyse_html
from crawler.pipelines.postgres import write_batch
from crawler.search import IndexWriter, SearchEngine, open_index, page_document
from crawler.search.fields import CONTEXT_MAX_TEXTS, inlink_context_text
from crawler.search.ranking import Boosts, query_boosts
from crawler.search.source import iter_page_documents, latest_page_documents
from crawler.storage.database import CrawlDatabase

NOW = datetime(2026, 1, 1, tzinfo=UTC)

PAGE = b"""<html><head><title>Commands</title></head><body>
<div class="related"><ul><li><a href="next.html">next</a> |</li></ul></div>
<dl><dt><a href="git-add.html">git-add(1)</a></dt><dd><p>Add file contents to the index.</p></dd>
<dt><a href="git-am.html#x">git-am(1)</a></dt><dd><ul><li><a href="y.html">y</a></li></ul></dd></dl>
<table><tr><td></td><td><a href="string.html#module-string"><code>string</code></a></td>
<td><em>Common string operations.</em></td></tr></table>
<ul><li><a href="ch01.html">Chapter 1</a> (the basics)<ul><li><a href="ch01s01.html">One</a>
</li></ul></li></ul>
<p>w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 Use <a href="join.html">str.join</a>
a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 a14 a15 a16 a17 a18 a19 a20 a21 a22 a23 a24 a25</p>
<p><a href="next.html">Next</a> describes the next step.</p>
<div><a href="plain.html">a link in a div</a> with words</div>
<div class="navfooter"><table><tr><td><a href="prev.html">Prev</a></td><td>Up</td></tr>
<tr><td>The previous chapter</td></tr></table></div>
</body></html>"""


def _contexts(html: bytes) -> dict[str, str]:
    page = extract_page(html, "http://h.test/d/index.html", contexts=True)
    return {link.url.rsplit("/", 1)[1]: link.context for link in page.links}


def test_a_links_context_is_its_blocks_words_around_it() -> None:
    assert (CONTEXT_WORDS_BEFORE, CONTEXT_WORDS_AFTER) == (12, 24)
    before = " ".join(f"w{i}" for i in range(4, 15))  # 11 words and "Use"
    after = " ".join(f"a{i}" for i in range(1, 25))
    assert _contexts(PAGE) == {
        # a menu item says nothing else; a later link to the same page does
        "next.html": "describes the next step.",
        # a definition term: its description too
        "git-add.html": "Add file contents to the index.",
        # a description holding only a nested list adds nothing
        "git-am.html": "",
        "y.html": "",
        # a table cell: its row
        "string.html": "Common string operations.",
        # a list item without its nested list
        "ch01.html": "(the basics)",
        "ch01s01.html": "",
        # a paragraph: 12 words before the link, 24 after
        "join.html": f"{before} Use {after}",
        # no block within reach
        "plain.html": "",
        # a navigation block (DocBook's navfooter: its row would say "Up")
        "prev.html": "",
    }


def test_a_block_of_many_links_gives_each_its_own_words() -> None:
    # one paragraph of 1,500 links (an index line): each link's context is read from its
    # neighbours only (the whole block's text was joined again for every link: 0.9 s
    # for 2,000 links), and reads the same words as from the whole block
    html = "<html><body><p>{}</p></body></html>".format(
        " ".join(f'see <a href="p{i}.html">page {i}</a> about t{i},' for i in range(1500))
    ).encode()
    items = [f"see page {i} about t{i}," for i in range(1500)]  # the block's text
    contexts = _contexts(html)
    assert len(contexts) == 1500

    def expected(i: int) -> str:  # from the block's whole word list
        words = " ".join(items[:i]).split() + ["see"]
        after = f"about t{i}, " + " ".join(items[i + 1 :])
        return " ".join(words[-12:] + after.split()[:24])

    assert contexts["p0.html"] == "see about t0, " + " ".join(
        f"see page {i} about t{i}," for i in range(1, 5)
    ) + " see page"
    assert contexts["p700.html"] == (
        "t697, see page 698 about t698, see page 699 about t699, see "
        "about t700, " + " ".join(f"see page {i} about t{i}," for i in range(701, 705))
        + " see page"
    )
    assert contexts["p1499.html"] == (
        "t1496, see page 1497 about t1497, see page 1498 about t1498, see about t1499,"
    )
    assert all(contexts[f"p{i}.html"] == expected(i) for i in range(1500))


def test_contexts_are_extracted_only_when_asked_and_by_the_crawls_analysis() -> None:
    plain = extract_page(PAGE, "http://h.test/d/index.html")
    assert {link.context for link in plain.links} == {""}
    analysed = analyse_html(PAGE, "http://h.test/d/index.html")
    assert {link.url.rsplit("/", 1)[1]: link.context for link in analysed.links} == _contexts(
        PAGE
    )


def test_inlink_context_text_caps_each_host_and_the_texts() -> None:
    inlinks = [(f"http://a.test/p{i}.html", "Download the manual") for i in range(100)]
    inlinks += [("http://b.test/x.html", "Add file contents to the index.")]
    assert inlink_context_text(inlinks, "a.test") == "\n".join(
        ["Download the manual"] * 3 + ["Add file contents to the index."] * 2
    )
    many = [(f"http://a.test/p{i:03}.html", f"context {i:03}") for i in range(100)]
    assert inlink_context_text(many, "a.test").split("\n") == [
        f"context {i:03}" for i in range(CONTEXT_MAX_TEXTS)
    ]


@pytest.fixture
def prepared_db(database_url: str, db: psycopg.Connection) -> psycopg.Connection:
    CrawlDatabase(url=database_url).prepare()
    return db


def _page(url: str, text: str, links: list[LinkRecord] | None = None) -> PageItem:
    return PageItem(
        url=url, final_url=url, host="h.test", status=200, content_type="text/html",
        fetched_at=NOW, depth=0, size=1, content_md5="x", title=url.rsplit("/", 1)[1],
        text=text, links=links or [],
    )


def test_stored_contexts_feed_the_targets_context_field(
    prepared_db: psycopg.Connection, database_url: str
) -> None:
    crawl_id = f"ctx-{uuid.uuid4().hex[:8]}"
    prepared_db.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'test')", (crawl_id,))
    pages = [
        _page("http://h.test/index.html", "commands", [
            LinkRecord("http://h.test/add.html", "git-add", 1, 3, 1, "Add file contents"),
            LinkRecord("http://h.test/am.html", "git-am", 1, 3, 1),
            LinkRecord("http://h.test/index.html", "home", 1, 3, 1, "this very page"),
        ]),
        _page("http://h.test/guide.html", "guide", [
            LinkRecord("http://h.test/add.html", "add", 1, 3, 1, "to stage changes, use"),
        ]),
        _page("http://h.test/add.html", "git add"),
        _page("http://h.test/am.html", "git am"),
    ]

    async def write() -> None:
        async with await psycopg.AsyncConnection.connect(database_url) as conn:
            await write_batch(conn, crawl_id, pages, [])

    asyncio.run(write())
    rows = prepared_db.execute(
        "SELECT target_url, context FROM links WHERE crawl_id = %s ORDER BY source_url, "
        "target_url", (crawl_id,),
    ).fetchall()
    assert rows == [
        ("http://h.test/add.html", "to stage changes, use"),
        ("http://h.test/add.html", "Add file contents"),
        ("http://h.test/am.html", ""),
        ("http://h.test/index.html", "this very page"),
    ]
    docs = {d["url"]: d for d in iter_page_documents(prepared_db, crawl_id)}
    assert docs["http://h.test/add.html"]["context"] == "Add file contents\nto stage changes, use"
    assert docs["http://h.test/am.html"]["context"] == ""
    # a page's link to itself is not its context
    assert docs["http://h.test/index.html"]["context"] == ""
    latest = latest_page_documents(prepared_db, [crawl_id], ["http://h.test/add.html"])
    assert latest["http://h.test/add.html"]["context"] == docs["http://h.test/add.html"]["context"]


def _engine(path: Path, backend: str, contexts: dict[str, str], **options) -> SearchEngine:
    text = "Reference of the {} command: what it changes in the working directory. "
    names = ["add", "commit", "rebase", "merge", "stash", "tag"]
    ix = open_index(path, backend=backend)
    IndexWriter(ix).write(
        page_document(
            url=f"http://g.test/git-{name}.html",
            title=f"git-{name}(1)",
            text=text.format(name) * 3 + (" directory" if name == "add" else ""),
            host="g.test",
            content_type="text/html",
            fetched_at=NOW,
            context=contexts.get(name, ""),
        )
        for name in names
    )
    return SearchEngine(ix, pagerank_weight=0.0, **options)


def test_a_description_finds_the_page_its_in_links_describe(tmp_path: Path, backend: str) -> None:
    contexts = {"stash": "Stash the changes in a dirty working directory away"}
    engine = _engine(tmp_path, backend, contexts)
    off = _engine(tmp_path / "off", backend, contexts, boosts=Boosts(context=0.0))
    query = "put away changes of the working directory"
    assert engine.search(query).hits[0].url == "http://g.test/git-stash.html"
    assert off.search(query).hits[0].url == "http://g.test/git-add.html"
    # a name (3 words or fewer) gets no context bonus, unless SEARCH_CONTEXT_MIN_WORDS
    assert engine.search("dirty working directory").hits[0].url == "http://g.test/git-add.html"
    every = _engine(tmp_path / "every", backend, contexts, boosts=Boosts(context_min_words=1))
    assert every.search("dirty working directory").hits[0].url == (
        "http://g.test/git-stash.html"
    )


def test_query_boosts_give_the_context_bonus_to_descriptions_only() -> None:
    boosts = Boosts(title=2.0, exact=4.0, lead=3.0, proximity=1.0, heading=1.0, anchor=1.0)
    assert query_boosts(boosts, 3).context == 0.0
    assert query_boosts(boosts, 4).context == 1.0
    assert query_boosts(Boosts(context=2.0, context_min_words=1), 1).context == 2.0
