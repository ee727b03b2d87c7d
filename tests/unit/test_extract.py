from crawler.extract import extract_page, position_score

PAGE = b"""<html><head><title> Hello
 World </title><script>var hidden = 1;</script><style>p {}</style></head><body>
<p>start <a href="one.html#frag">One</a> alpha beta gamma delta epsilon one two three
four five six seven
eight nine ten eleven twelve thirteen fourteen fifteen sixteen</p>
<p><b><i><a href="/two">Two</a></i></b> zeta eta theta iota kappa lambda mu</p>
<p>nu xi omicron pi rho sigma tau upsilon phi chi psi omega end of text here</p>
<span style="font-weight: 700"><a href="http://other.test/">three</a></span>
<em><a href="four.html">four</a></em>
<a href="mailto:x@y.test">mail</a> <a href="javascript:void(0)">js</a> <a href="tel:123">t</a>
<a href="data:text/html,hi">d</a> <a href="ftp://files.test/x">ftp</a> <a>no href</a>
<a href="one.html">One again</a>
<map><area href="five.html" alt="Five"></map></body></html>"""


def test_title_text_and_links():
    page = extract_page(PAGE, "http://a.test/dir/page.html")
    assert page.title == "Hello World"
    assert "hidden" not in page.text and "p {}" not in page.text
    assert page.text.startswith("start One alpha beta")
    urls = [link.url for link in page.links]
    assert urls == [
        "http://a.test/dir/one.html",
        "http://a.test/two",
        "http://other.test/",
        "http://a.test/dir/four.html",
        "http://a.test/dir/five.html",
    ]
    by_url = {link.url: link for link in page.links}
    assert by_url["http://a.test/dir/one.html"].anchor_text == "One"
    assert by_url["http://a.test/dir/five.html"].anchor_text == "Five"
    # visibility: bold+italic 3, bold (inline style) 2, italic 2, plain 1
    assert [by_url[u].visibility for u in urls] == [1, 3, 2, 2, 1]
    # distance: other host 5, same host 1
    assert [by_url[u].distance for u in urls] == [1, 1, 5, 1, 1]
    # position: first third 3, middle 2, last 1
    assert by_url["http://a.test/dir/one.html"].position == 3
    assert by_url["http://a.test/two"].position == 2
    assert by_url["http://other.test/"].position == 1


def test_base_href_is_respected():
    html = b'<html><head><base href="http://b.test/root/"></head><body><a href="x?b=2&a=1">x</a>'
    page = extract_page(html, "http://a.test/p")
    assert [link.url for link in page.links] == ["http://b.test/root/x?a=1&b=2"]
    assert page.links[0].distance == 5


def test_declared_encoding_is_used():
    html = '<html><body><p>caf\u00e9 na\u00efve</p></body></html>'.encode("cp1252")
    page = extract_page(html, "http://a.test/", encoding="cp1252")
    assert page.text == "caf\u00e9 na\u00efve"


def test_empty_and_broken_documents():
    assert extract_page(b"", "http://a.test/").links == []
    page = extract_page(b"<html><body><p>open <a href='x'>x<div>unclosed", "http://a.test/")
    assert [link.url for link in page.links] == ["http://a.test/x"]
    assert page.text == "open x unclosed"


def test_position_thirds():
    assert [position_score(o, 90) for o in (0, 29, 30, 59, 60, 89)] == [3, 3, 2, 2, 1, 1]
    assert position_score(0, 0) == 3


def test_content_mime_of_a_content_type_header() -> None:
    from crawler.content import content_mime

    assert content_mime(b"text/HTML; charset=utf-8") == "text/html"
    assert content_mime(" application/xhtml+xml ") == "application/xhtml+xml"
    assert content_mime(None) == content_mime(b"") == ""


def test_visibilities_of_a_page_equal_each_links_own():
    import lxml.etree

    from crawler import extract
    from crawler.extract import link_visibilities, link_visibility

    html = b"""<html><body>
    <a href="a">plain</a>
    <strong>x <a href="b">inside bold</a></strong>
    <a href="c"><em>italic inside</em></a>
    <div style="font-style: italic"><p><b><a href="d">both, deep</a></b></p></div>
    <a href="e" style="font-weight: bold">styled itself</a>
    <span style="color: red"><a href="f">a style that is no emphasis</a></span>
    <i><b><i><a href="g">nested twice</a></i></b></i>
    <map><area href="h" alt="area in italic" style="font-style: oblique"></map>
    <b><iframe src="i" title="an inline frame in bold"></iframe></b>
    </body></html>"""
    root = lxml.etree.fromstring(html, lxml.etree.HTMLParser())
    links = [el for el in root.iter("a", "area", "iframe")]
    assert link_visibilities(root, links) == [link_visibility(el) for el in links]
    # the page-wide walk of pages with many links, on the same links
    saved = extract.PAGE_WIDE_VISIBILITY_LINKS
    extract.PAGE_WIDE_VISIBILITY_LINKS = 1
    try:
        assert link_visibilities(root, links) == [1, 2, 2, 3, 2, 1, 3, 2, 2]
    finally:
        extract.PAGE_WIDE_VISIBILITY_LINKS = saved
    assert link_visibilities(root, links) == [1, 2, 2, 3, 2, 1, 3, 2, 2]
    assert link_visibilities(root, []) == []


def test_link_resolver_remembers_by_directory_and_resolves_like_urljoin():
    from urllib.parse import urljoin

    from crawler.extract import LinkResolver
    from crawler.urls import canonical_url

    resolver = LinkResolver(max_entries=4)
    cases = [
        ("http://a.test/dir/one.html?x=1", "two.html"),
        ("http://a.test/dir/three.html", "two.html"),  # same directory: remembered
        ("http://a.test/dir/three.html", "../up.html"),
        ("http://a.test/other/one.html", "two.html"),  # another directory
        ("http://a.test/dir/one.html", "?page=2"),  # a query needs the whole base
        ("http://a.test/dir/three.html", "?page=2"),
        ("http://a.test/dir/three.html", ""),
        ("http://a.test", "x.html"),  # no path
        ("http://a.test/dir/", "/root.html"),
        ("http://a.test/dir/", "mailto:x@y.test"),
        ("http://a.test/dir/", "http://[bad"),  # urljoin raises ValueError
    ]
    for base, href in cases:
        try:
            expected = canonical_url(urljoin(base, href))
        except ValueError:
            expected = None
        assert resolver.resolver(base)(href) == expected, (base, href)
    assert resolver.resolver("http://a.test/dir/three.html")("two.html") == (
        "http://a.test/dir/two.html"
    )
    assert resolver.resolver("http://a.test/dir/three.html")("?page=2") == (
        "http://a.test/dir/three.html?page=2"
    )
    assert len(resolver._resolved) <= 4  # cleared when full


def test_frames_and_noframes_content_are_links() -> None:
    # a manual's frameset (Apache Ant's): its frames are its pages; libxml2 keeps the
    # <noframes> content as raw text, which is parsed here (a link, and words, not markup)
    html = b"""<!DOCTYPE html><html lang="en"><head><title>Manual</title></head>
<frameset cols="26%,74%"><frame src="toc.html" name="navFrame">
<frame src="cover.html#top" title="Cover"></frameset>
<noframes><h2>The manual</h2> <a href="intro.html">Introduction</a></noframes></html>"""
    page = extract_page(html, "http://ant.test/manual/index.html")
    assert [(link.url, link.anchor_text) for link in page.links] == [
        ("http://ant.test/manual/toc.html", ""),
        ("http://ant.test/manual/cover.html", "Cover"),
        ("http://ant.test/manual/intro.html", "Introduction"),
    ]
    assert page.text == "The manual Introduction"
    inline = b'<html><body><p>x</p><iframe src="/embedded.html" title="Map"></iframe></body>'
    links = extract_page(inline, "http://a.test/p").links
    assert [(link.url, link.anchor_text) for link in links] == [
        ("http://a.test/embedded.html", "Map")
    ]
