"""The page content model (crawler/content.py): main content without navigation,
headings, language; stored by the storage pipeline and indexed from PostgreSQL."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import psycopg
import pytest

from crawler.content import (
    join_headings,
    language_tag,
    main_content,
    script_language,
    split_headings,
    whole_page_content,
)
from crawler.extract import MAX_NAME_ELEMENTS, MAX_NAMES, extract_page
from crawler.items import PageItem
from crawler.page_analysis import analyse_html
from crawler.pipelines.postgres import write_batch
from crawler.search.schema import headings_with_names
from crawler.search.source import iter_page_documents, latest_page_documents
from crawler.storage.database import CrawlDatabase

PROSE = (
    "The json module encodes Python objects as JSON text and decodes JSON text into "
    "Python objects. It offers dumps and loads for strings, dump and load for files, "
    "and encoder and decoder classes for finer control over the conversion of values."
)

SPHINX_PAGE = f"""<!DOCTYPE html><html lang="en"><head><title>json</title></head><body>
<div class="related" role="navigation"><h3>Navigation</h3><ul>
<li><a href="genindex.html">index</a></li> | <li><a href="py-modindex.html">modules</a></li> |
<li><a href="next.html">next</a></li> | <li><a href="prev.html">previous</a></li></ul></div>
<div class="document"><div class="body" role="main">
<h1>json — JSON encoder and decoder<a class="headerlink" href="#x">¶</a></h1>
<p>{PROSE}</p><h2>Basic Usage<a class="headerlink" href="#y">¶</a></h2><p>{PROSE}</p>
</div></div>
<div class="sphinxsidebar" role="navigation"><h3>Previous topic</h3>
<p><a href="prev.html">email</a></p><h3>Quick search</h3></div>
<div class="footer">© Copyright 2001-2023. Found a bug? Created using Sphinx.</div>
</body></html>"""

DOCBOOK_PAGE = f"""<html><head><title>CREATE INDEX</title></head><body>
<div class="navheader"><table><tr><th colspan="3">CREATE INDEX</th></tr><tr>
<td><a href="a.html">Prev</a></td><td><a href="b.html">Up</a></td>
<th>SQL Commands</th><td><a href="c.html">Home</a></td><td><a href="d.html">Next</a></td>
</tr></table></div>
<div class="refentry"><h2>CREATE INDEX</h2><p>CREATE INDEX — define a new index.</p>
<p>{PROSE}</p></div>
<div class="navfooter"><table><tr><td><a href="a.html">Prev</a></td>
<td><a href="c.html">Home</a></td></tr></table></div></body></html>"""


def test_main_content_leaves_out_the_navigation_and_keeps_the_text() -> None:
    content = main_content(SPHINX_PAGE.encode())
    assert content.text.startswith("json — JSON encoder and decoder The json module")
    for boilerplate in ("modules", "previous", "Quick search", "Found a bug"):
        assert boilerplate not in content.text
    assert content.text.count(PROSE) == 2
    # the sidebar's headings are not the page's
    assert content.headings == ["json — JSON encoder and decoder", "Basic Usage"]
    assert content.lang == "en"


def test_a_page_over_the_main_content_limit_keeps_its_whole_text() -> None:
    url = "http://docs.python-lang.test/library/json.html"
    body = SPHINX_PAGE.encode()
    extracted = main_content(body)
    # within the limit: the extractor's main content, without the navigation
    within = analyse_html(body, url, main_content_max_bytes=len(body))
    assert (within.main_text, within.headings, within.lang) == (
        extracted.text, extracted.headings, extracted.lang
    )
    # one byte over it: the page's whole visible text, its navigation and sidebar too,
    # every heading of the page, the language still from <html lang>
    over = analyse_html(body, url, main_content_max_bytes=len(body) - 1)
    assert over.main_text == " ".join(over.text.split())
    for words in ("modules", "previous", "Quick search", "Found a bug", PROSE):
        assert words in over.main_text
    assert over.main_text.count(PROSE) == 2
    assert over.headings == [
        "Navigation", "json — JSON encoder and decoder", "Basic Usage", "Previous topic",
        "Quick search",
    ]
    assert over.lang == "en"
    # the rest of the analysis does not depend on the limit
    assert (over.title, over.text, over.links, over.names) == (
        within.title, within.text, within.links, within.names
    )
    # 0: no limit
    assert analyse_html(body, url, main_content_max_bytes=0).main_text == extracted.text


def test_whole_page_content_language_and_headings_without_a_lang_attribute() -> None:
    page = (
        "<html><body>"
        + "".join(f"<h2>Abschnitt {i}</h2><h2>Abschnitt {i}</h2>" for i in range(300))
        + "<p>Die Datei wird geöffnet, gelesen und wieder geschlossen, bevor das "
        "Programm die nächste Zeile der Eingabe verarbeitet und ausgibt.</p></body></html>"
    )
    content = whole_page_content(page, "  Die   Datei wird\ngeöffnet ")
    assert content.text == "Die Datei wird geöffnet"
    # each heading once, at most MAX_HEADINGS of them
    assert content.headings == [f"Abschnitt {i}" for i in range(200)]
    assert content.lang == "de"  # detected from the text given
    assert whole_page_content(page, "x", content_language="fr-CH").lang == "fr"


def test_headings_of_a_long_reference_page_in_page_order_up_to_the_cap() -> None:
    # a rustdoc-like page: thousands of nested h3/h4 sections beside a sidebar's headings
    sections = "".join(
        f'<section><h3 id="m{i}">method_{i}</h3><div><h4>Examples {i}</h4>'
        f"<p>{PROSE}</p></div></section>"
        for i in range(400)
    )
    page = (
        '<html lang="en"><body><nav><h2>Sidebar</h2></nav><main><h1>Primitive u8</h1>'
        f"{sections}</main></body></html>"
    )
    content = main_content(page.encode())
    expected = ["Primitive u8"] + [h for i in range(400) for h in (f"method_{i}", f"Examples {i}")]
    assert content.headings == expected[:200]


def test_docbook_navigation_tables_are_left_out() -> None:
    content = main_content(DOCBOOK_PAGE.encode())
    assert content.text.startswith("CREATE INDEX CREATE INDEX — define a new index.")
    assert "Prev" not in content.text and "Home" not in content.text
    assert content.headings == ["CREATE INDEX"]


FIELDS = ["The port number or service name", "The socket type", "The protocol, tcp or udp"]
ITEMS = "".join(f'<li class="listitem">{f}.</li>' for f in FIELDS)
DOCBOOK_SECTION_PAGE = f"""<html><head><title>9.6. The inetd Super-Server</title></head><body>
<div id="banner"><a href="/get/">Download the ebook</a></div>
<ul class="docnav top"><li><a href="p.html">Prev</a></li><li>The Handbook</li>
<li><a href="n.html">Next</a></li></ul>
<div class="section"><div class="titlepage"><h2 class="title">9.6. The inetd Super-Server</h2></div>
<div class="para">Inetd is a server of servers. {PROSE}</div>
<div class="sidebar"><div class="titlepage"><p class="title">POLICY Register a server</p></div>
<div class="para">Packages use the update-inetd script to register a new server.</div></div>
<div class="para">Each line of the configuration file describes a server by fields:</div>
<div class="itemizedlist"><ul>{ITEMS}</ul></div>
<div class="para">{PROSE}</div></div>
<ul class="docnav"><li><a href="p.html">Prev 9.5. syslog</a></li><li><a href="/">Home</a></li>
<li><a href="n.html">Next 9.7. cron</a></li></ul></body></html>"""


def test_boxes_and_lists_inside_the_content_container_are_kept() -> None:
    # resiliparse alone drops DocBook's sidebar boxes and itemized lists: the container
    # holding its main content (div.section) gives its whole text, the navigation
    # outside it stays out
    content = main_content(DOCBOOK_SECTION_PAGE.encode())
    assert content.text == (
        f"9.6. The inetd Super-Server Inetd is a server of servers. {PROSE} POLICY Register "
        "a server Packages use the update-inetd script to register a new server. Each line "
        "of the configuration file describes a server by fields: • The port number or "
        f"service name. • The socket type. • The protocol, tcp or udp. {PROSE}"
    )
    assert content.headings == ["9.6. The inetd Super-Server"]


ASCIIDOC_MAN_PAGE = f"""<html><head><title>git-fetch(1)</title></head><body class="manpage">
<div id="header"><h1>git-fetch(1) Manual Page</h1><h2>NAME</h2><div class="sectionbody">
<p>git-fetch - Download objects and refs from another repository</p></div></div>
<div id="content"><div class="sect1"><h2>SYNOPSIS</h2><p>git fetch [options]</p>
<h2>DESCRIPTION</h2><p>{PROSE}</p><p>{PROSE}</p></div></div>
<div id="footer"><div id="footer-text">Last updated 2023-01-01</div></div></body></html>"""

SITE_HEADER_PAGE = f"""<html><head><title>Utils</title></head><body>
<div id="hd"><h1><a href="/">Django documentation</a></h1><div id="global-nav">
<a href="/">Home</a> | <a href="/toc">Table of contents</a> | <a href="/index">Index</a> |
<a href="/modules">Modules</a></div></div>
<div id="bd"><div class="body"><h2>Django Utils</h2><p>{PROSE}</p><p>{PROSE}</p></div></div>
</body></html>"""


def test_a_dropped_title_block_is_put_back_before_the_main_content() -> None:
    # resiliparse drops AsciiDoc's <div id="header">: the h1 and the NAME line, the
    # command's one-line description, come back
    content = main_content(ASCIIDOC_MAN_PAGE.encode())
    assert content.text.startswith(
        "git-fetch(1) Manual Page NAME git-fetch - Download objects and refs from another "
        "repository SYNOPSIS"
    )
    assert content.headings[:2] == ["git-fetch(1) Manual Page", "NAME"]
    # a site header whose words are mostly links (a menu): its h1 alone
    content = main_content(SITE_HEADER_PAGE.encode())
    assert content.text.startswith("Django documentation Django Utils")
    assert "Table of contents" not in content.text


def test_language_from_attribute_then_header_then_detector() -> None:
    body = f"<body><p>{PROSE}</p></body>"
    assert main_content(f'<html lang="de-AT">{body}</html>', content_language="fr").lang == "de"
    assert main_content(f"<html>{body}</html>", content_language="fr-CA, en").lang == "fr"
    assert main_content(f"<html>{body}</html>").lang == "en"
    sentence = "서버 설정 파일을 편집하여 모듈을 불러옵니다. "
    korean = "<html><body><p>" + sentence * 5 + "</p></body></html>"
    assert main_content(korean).lang == "ko"
    assert main_content(f"<html>{body}</html>", detect=False).lang == ""


def test_a_list_page_keeps_its_list() -> None:
    links = "".join(f'<li><a href="m{i}.html">module{i} tools</a></li>' for i in range(40))
    content = main_content(f"<html><body><h1>Modules</h1><ul>{links}</ul></body></html>")
    assert "module0 tools" in content.text and "module39 tools" in content.text


def test_language_tags_and_scripts() -> None:
    assert [language_tag(v) for v in ("en-US", "pt_BR", "de, en", "", "und", "x")] == [
        "en",
        "pt",
        "de",
        "",
        "",
        "",
    ]
    assert script_language("서버 설정") == "ko"
    assert script_language("設定ファイル") == "ja"
    assert script_language("配置文件") == "zh"
    assert script_language("настройка сервера") == "ru"
    assert script_language("mod_rewrite café") == ""


# The ways reference pages mark what they define: a Sphinx signature (dt with its
# permalink sign), Haddock's anchor, a DocBook term; beside them a link to another page,
# an empty anchor, links to the page's own places (Scribble's, a gtk-doc summary's), a
# term linking to another page (a list of classes) and a permalink sign alone, which are
# not names it defines.
REFERENCE_PAGE = f"""<html lang="en"><head><meta charset="utf-8"><title>Data.List</title>
</head><body>
<nav><a href="index.html">Contents</a> <a href="other.html#x">elsewhere</a></nav>
<main><h1>Data.List</h1><p>{PROSE}</p>
<dl><dt id="str.join">str.join(<em>iterable</em>)<a class="headerlink" href="#str.join">¶</a></dt>
<dd><p>Return a string.</p></dd></dl>
<p class="src"><a id="v:foldl&#39;" class="def">foldl'</a> :: (b -&gt; a -&gt; b)</p>
<p><a name="(def._string-append)"></a><a href="#%28def._string-append%29">string-append</a></p>
<p><a href="list.html#gtk-tree-view-new">gtk_tree_view_new</a>
<a href="list.html">list</a> <a href="#x">¶</a></p>
<dl><dt><a href="tree.html">GtkTreeView</a> — A widget for trees</dt><dd></dd>
<dt><span class="term"><code>work_mem</code> (<code>integer</code>)</span></dt>
<dd><p>Memory.</p></dd></dl><p>{PROSE}</p></main></body></html>"""


def test_the_names_a_page_defines_apart_from_its_headings() -> None:
    url = "http://lib.test/doc/list.html"
    page = extract_page(REFERENCE_PAGE.encode(), url, names=True)
    assert page.names == ["str.join(iterable)", "foldl'", "work_mem (integer)"]
    # the same walk finds the same links as without names
    plain = extract_page(REFERENCE_PAGE.encode(), url)
    assert plain.names == []
    assert page.links == plain.links and page.text == plain.text
    analysis = analyse_html(REFERENCE_PAGE.encode(), url)
    assert analysis.headings == ["Data.List"]
    assert analysis.names == page.names


def test_the_names_of_a_page_are_capped() -> None:
    terms = "".join(f"<dt>name_{i}</dt><dd>{i}</dd>" for i in range(MAX_NAMES + 50))
    page = extract_page(f"<html><body><dl>{terms}</dl></body></html>".encode(),
                        "http://a.test/", names=True)
    assert page.names == [f"name_{i}" for i in range(MAX_NAMES)]


def test_the_elements_read_for_names_are_bounded() -> None:
    # empty anchors (section marks) count against the bound: a name after
    # MAX_NAME_ELEMENTS of them is not read, while every link still is
    marks = "".join(f'<a id="s{i}"></a>' for i in range(MAX_NAME_ELEMENTS))
    html = (f'<html><body><dl><dt>first</dt></dl>{marks}<dl><dt>late</dt></dl>'
            '<a href="/x.html">x</a></body></html>')
    page = extract_page(html.encode(), "http://a.test/", names=True)
    assert page.names == ["first"]
    assert [link.url for link in page.links] == ["http://a.test/x.html"]


def test_a_term_linking_elsewhere_is_dropped_among_many() -> None:
    # the dropped term leaves its place empty; the names around it keep their order
    html = ('<html><body><dl><dt>alpha</dt><dt><a href="b.html">Beta</a> - other page</dt>'
            '<dt>gamma</dt></dl><a id="delta">delta</a></body></html>')
    page = extract_page(html.encode(), "http://a.test/", names=True)
    assert page.names == ["alpha", "gamma", "delta"]


def test_the_index_puts_the_names_after_the_headings() -> None:
    assert headings_with_names(["Data.List"], ["foldl'", "Data.List", "nub"], 10) == (
        "Data.List\nfoldl'\nnub"
    )
    # as stored (one per line), capped: the first max_names names, one a heading
    assert headings_with_names("Data.List\nfoldl'", "foldl'\nnub\nsort", 2) == (
        "Data.List\nfoldl'\nnub"
    )
    assert headings_with_names("", "nub", 5) == "nub"
    assert headings_with_names("A", "nub", 0) == "A"
    assert headings_with_names(["A", "B"], "", 5) == "A\nB"


def test_headings_round_trip_as_stored() -> None:
    assert split_headings(join_headings(["A  b", " ", "C"])) == ["A b", "C"]
    assert split_headings("") == []


@pytest.fixture
def prepared_db(database_url: str, db: psycopg.Connection) -> psycopg.Connection:
    CrawlDatabase(url=database_url).prepare()
    return db


def test_stored_content_model_feeds_the_index_document(
    prepared_db: psycopg.Connection, database_url: str
) -> None:
    crawl_id = f"cm-{uuid.uuid4().hex[:8]}"
    prepared_db.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'test')", (crawl_id,))
    content = main_content(SPHINX_PAGE.encode())
    now = datetime.now(UTC)
    pages = [
        PageItem(
            url="http://h.test/json.html",
            final_url="http://h.test/json.html",
            host="h.test",
            status=200,
            content_type="text/html",
            fetched_at=now,
            depth=0,
            size=1,
            content_md5="a",
            title="json",
            text="index | modules | next | previous " + content.text,
            main_text=content.text,
            headings=content.headings,
            lang=content.lang,
            names=["json.dumps(obj)", "Basic Usage", "json.loads(s)"],
        ),
        # stored before the content model: no main text, the whole text is indexed
        PageItem(
            url="http://h.test/old.html",
            final_url="http://h.test/old.html",
            host="h.test",
            status=200,
            content_type="text/html",
            fetched_at=now,
            depth=0,
            size=1,
            content_md5="b",
            title="old",
            text="old page text",
        ),
    ]

    async def write() -> None:
        async with await psycopg.AsyncConnection.connect(database_url) as conn:
            await write_batch(conn, crawl_id, pages, [])

    asyncio.run(write())
    row = prepared_db.execute(
        "SELECT main_text, headings, lang, names FROM pages WHERE crawl_id = %s AND url = %s",
        (crawl_id, "http://h.test/json.html"),
    ).fetchone()
    assert row == (
        content.text, "json — JSON encoder and decoder\nBasic Usage", "en",
        "json.dumps(obj)\nBasic Usage\njson.loads(s)",
    )
    docs = {d["url"]: d for d in iter_page_documents(prepared_db, crawl_id)}
    assert docs["http://h.test/json.html"]["body"] == content.text
    # the names after the headings, the one that is a heading not repeated
    assert docs["http://h.test/json.html"]["headings"] == (
        "json — JSON encoder and decoder\nBasic Usage\njson.dumps(obj)\njson.loads(s)"
    )
    capped = {d["url"]: d for d in iter_page_documents(prepared_db, crawl_id, max_names=1)}
    assert capped["http://h.test/json.html"]["headings"] == (
        "json — JSON encoder and decoder\nBasic Usage\njson.dumps(obj)"
    )
    # the outbox indexer's reading of the same rows: no names with a bound of 0
    latest = latest_page_documents(
        prepared_db, [crawl_id], ["http://h.test/json.html"], max_names=0
    )
    assert latest["http://h.test/json.html"]["headings"] == (
        "json — JSON encoder and decoder\nBasic Usage"
    )
    assert docs["http://h.test/json.html"]["lang"] == "en"
    assert docs["http://h.test/old.html"]["body"] == "old page text"
    assert docs["http://h.test/old.html"]["lang"] == ""


def _container_id(page: str) -> str:
    from resiliparse.extract.html2text import extract_plain_text

    from crawler.content import NAVIGATION_SELECTORS, PERMALINK_SELECTORS, _container, _tree

    tree = _tree(page, None)
    skip = [*NAVIGATION_SELECTORS, *PERMALINK_SELECTORS]
    text = " ".join(
        extract_plain_text(tree, main_content=True, alt_texts=False, skip_elements=skip).split()
    )
    return _container(tree.body, text).getattr("id")


def test_the_container_walk_counts_text_not_comments_below_wrappers() -> None:
    # the walk takes an only child's length from its parent's (less the parent's own
    # text nodes; comments are no text): through the wrappers down to the content, but
    # not into a child that words beside it make too short to be a wrapper
    def page(stray: str) -> str:
        return (
            f"<html><body><!-- a comment {'x' * 500} --><div id='outer'><!-- c -->{stray}"
            "<div id='wrap'><nav><a href='/'>Home</a> <a href='/a'>Archive</a></nav>"
            f"<div id='main'><p>{PROSE}</p><p>{PROSE}</p></div></div></div></body></html>"
        )

    assert _container_id(page("")) == "main"
    assert _container_id(page("Stray words beside the wrapper. " * 8)) == "outer"
