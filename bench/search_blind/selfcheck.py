#!/usr/bin/env python3
"""Checks the evaluation itself, without the crawler: every query's target is in its
collection's page set, and the proxy serves pages, redirects, robots.txt, 404s and
refuses CONNECT as the harness expects. Exit status 0 when all holds, 1 otherwise.

    python3 bench/search_blind/selfcheck.py
"""

from __future__ import annotations

import http.client
import os
import posixpath
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from collections_def import COLLECTIONS, check_queries, load_queries, page_set  # noqa: E402
from proxy import DocsProxy  # noqa: E402


def fetch(port: int, method: str, url: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, url)
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body


def main() -> int:
    problems: list[str] = []
    pages = {}
    for name, coll in COLLECTIONS.items():
        pages[name] = page_set(coll)
        problems += check_queries(coll, pages[name])
        qs = load_queries(name)
        if len(qs) < 30:
            problems.append(f"{name}: {len(qs)} queries (< 30)")
        print(f"{name}: {len(pages[name])} pages, {len(qs)} queries")
    apache = COLLECTIONS["apache"]
    n_trans = sum(1 for q in load_queries("apache") if q["other_languages"])
    if n_trans < 30:
        problems.append(f"apache: only {n_trans} targets with other-language copies")
    handbook = COLLECTIONS["handbook"]
    gimp = COLLECTIONS["gimp"]
    hq = load_queries("handbook")
    n_trans = sum(1 for q in hq if q["other_languages"])
    n_near = sum(1 for q in hq if any(e.startswith(("da-DK/", "ko-KR/")) for e in q["equivalent"]))
    if n_trans < 30 or n_near < 30:
        problems.append(
            f"handbook: {n_trans} targets with translations, {n_near} with near-copies (< 30)"
        )
    if any(not q["target"].startswith("en-US/") for q in hq):
        problems.append("handbook: a target outside en-US/")
    # third set: gimp's targets are English pages with an en_GB near-copy (equally correct)
    # and mostly a German translation; sdl's targets are no Doxygen "Source File" page
    gq = load_queries("gimp")
    n_trans = sum(1 for q in gq if q["other_languages"])
    n_near = sum(1 for q in gq if any(e.startswith("en_GB/") for e in q["equivalent"]))
    if n_trans < 30 or n_near != len(gq):
        problems.append(
            f"gimp: {n_trans} targets with translations (< 30?), {n_near} of {len(gq)} with an "
            "en_GB near-copy"
        )
    if any(not q["target"].startswith("en/") for q in gq):
        problems.append("gimp: a target outside en/")
    if any(q["target"].endswith("_source.html") for q in load_queries("sdl")):
        problems.append("sdl: a Source File page as a target")
    # fourth set: postconf.5.html (every parameter on one page) is the target of the
    # queries naming or describing a parameter; gnuplot's targets are numbered node pages
    if sum(1 for q in load_queries("postfix") if q["target"] == "postconf.5.html") < 4:
        problems.append("postfix: fewer than 4 queries target postconf.5.html")
    # seventh set: cppreference's targets are C pages (no C++ page is in the page set)
    if any(not q["target"].startswith("c/") for q in load_queries("cppreference")):
        problems.append("cppreference: a target outside c/")
    if any(p.startswith("cpp/") for p in pages["cppreference"]):
        problems.append("cppreference: a C++ page in the page set")
    if any(q["target"].startswith("src/") for q in load_queries("rustdoc")):
        problems.append("rustdoc: a source page as a target")
    # eighth set: bdb's targets are C API or Programmer's Reference pages (never a Tcl,
    # DB_CONFIG parameter or getter page; the C++/STL/Java references are left out);
    # abs's never the table of contents or the index; ant's never an overview or list page
    bq = load_queries("bdb")
    if any(
        not q["target"].startswith(("api_reference/C/", "programmer_reference/"))
        or q["target"].endswith("_parameter.html")
        for q in bq
    ):
        problems.append("bdb: a target outside the C API and the Programmer's Reference")
    if any(
        p.startswith(("api_reference/CXX/", "api_reference/STL/", "java/")) for p in pages["bdb"]
    ):
        problems.append("bdb: a C++, STL or Java page in the page set")
    if any(q["target"] in ("index.html", "xrefindex.html") for q in load_queries("abs")):
        problems.append("abs: the table of contents or the index as a target")
    if any(
        q["target"].endswith("list.html") or q["target"] == "tasksoverview.html"
        for q in load_queries("ant")
    ):
        problems.append("ant: an overview or list page as a target")
    # ninth set: sqlalchemy's targets are no example source page, changelog, index or
    # contents page; qttools' no "-members"/"-obsolete" list; asciidoctor's no contents page
    if any(
        q["target"].startswith(("_modules/", "changelog/changelog_"))
        or q["target"] in ("genindex.html", "contents.html", "index.html")
        for q in load_queries("sqlalchemy")
    ):
        problems.append("sqlalchemy: a source, changelog, index or contents page as a target")
    if any(
        q["target"].endswith(("-members.html", "-obsolete.html")) for q in load_queries("qttools")
    ):
        problems.append("qttools: a members or obsolete list as a target")
    if any(
        q["target"] in ("index.html", "table_of_contents.html") for q in load_queries("asciidoctor")
    ):
        problems.append("asciidoctor: the index or the table of contents as a target")
    # tenth set: rustbook's targets are section pages (never print.html, the whole book, or
    # the title or index page); drf's are index.html files of folders (MkDocs' directory
    # URLs); fpc's are identifier pages of the three seeded units (never an index page)
    if any(
        q["target"] in ("print.html", "index.html", "title-page.html")
        for q in load_queries("rustbook")
    ):
        problems.append("rustbook: print.html, the title or the index page as a target")
    if any(not q["target"].endswith("/index.html") for q in load_queries("drf")):
        problems.append("drf: a target that is not a folder's index.html")
    if any(
        not q["target"].startswith(("strutils/", "dateutils/", "math/")) or "/index" in q["target"]
        for q in load_queries("fpc")
    ):
        problems.append("fpc: a target outside the seeded units' identifier pages")
    # eleventh set: adwaita's targets are never the namespace's start page (which lists
    # every class and function with its one-line description) nor the visual index;
    # mpich's never an index page and never a large-count twin (`_c`, listed as equivalent
    # for the kinds that describe the routine); nim's never the symbol index or the
    # library overview
    if any(q["target"] in ("index.html", "visual-index.html") for q in load_queries("adwaita")):
        problems.append("adwaita: the start page or the visual index as a target")
    if any(
        q["target"].endswith(("index.html", "index.htm", "_c.html")) for q in load_queries("mpich")
    ):
        problems.append("mpich: an index page or a large-count twin as a target")
    for q in load_queries("mpich"):
        twin = q["target"][: -len(".html")] + "_c.html"
        if q["kind"] == "name" and twin in q["equivalent"]:
            problems.append(f"mpich: {q['query']}: a name query counts the _c twin as correct")
    if any(
        q["target"] in ("theindex.html", "lib.html", "overview.html", "index.html")
        for q in load_queries("nim")
    ):
        problems.append("nim: the symbol index or an overview page as a target")
    # twelfth set: cmake's targets are never a manual page listing every entry, the
    # general index or the search page; aptitude's are English pages, each with copies in
    # other language folders; scons's never the start page
    if any(
        q["target"].startswith("manual/cmake-")
        and q["target"].endswith(
            ("-commands.7.html", "-variables.7.html", "-properties.7.html", "-modules.7.html")
        )
        or q["target"] in ("genindex.html", "search.html", "index.html")
        for q in load_queries("cmake")
    ):
        problems.append("cmake: a listing page, the index or the search page as a target")
    aq = load_queries("aptitude")
    if any(not q["target"].startswith("en/") for q in aq):
        problems.append("aptitude: a target outside en/")
    if sum(1 for q in aq if q["other_languages"]) < 30:
        problems.append("aptitude: fewer than 30 targets with a translation")
    if any(q["target"] == "index.html" for q in load_queries("scons")):
        problems.append("scons: the start page as a target")
    # thirteenth set: ncurses's targets are manual pages (never a guide naming every
    # function), gnustep's never a table of contents or index page, batteries's never a
    # bare signature page (type_*), an index page or a Batteries.* copy
    if any(not q["target"].startswith("man/") for q in load_queries("ncurses")):
        problems.append("ncurses: a target outside man/")
    if any(q["target"].endswith(("TOC.html", "MainIndex.html")) for q in load_queries("gnustep")):
        problems.append("gnustep: a table of contents or an index page as a target")
    bq13 = load_queries("batteries")
    if any(q["target"].startswith(("type_", "index", "Batteries.")) for q in bq13):
        problems.append("batteries: a signature, index or Batteries.* page as a target")
    if sum(1 for q in bq13 if any(e.startswith("Batteries.") for e in q["equivalent"])) < 30:
        problems.append("batteries: fewer than 30 targets with a Batteries.* copy")
    # fourteenth set: ffmpeg's targets are never a program's "-all" page or the index,
    # gap's never a MathJax copy, a contents or an index page (each has its _mj copy),
    # libvirt's never an index page
    fq14 = load_queries("ffmpeg")
    if any(q["target"].endswith("-all.html") or q["target"] == "index.html" for q in fq14):
        problems.append("ffmpeg: an -all page or the index as a target")
    gq14 = load_queries("gap")
    if any(q["target"].endswith(("_mj.html", "chap0.html", "chapInd.html")) for q in gq14):
        problems.append("gap: a MathJax copy, contents or index page as a target")
    if any(not any(e.endswith("_mj.html") for e in q["equivalent"]) for q in gq14):
        problems.append("gap: a target without its MathJax copy")
    if any(q["target"].endswith("index.html") for q in load_queries("libvirt")):
        problems.append("libvirt: an index page as a target")
    # fifteenth set: agda's targets are never the Everything or README front pages,
    # docbookxsl's never a parameter name documented in two references (html/ and fo/
    # share 190) nor a contents page, chicken's never the manual's front page
    if any(q["target"] in ("Everything.html", "README.html") for q in load_queries("agda")):
        problems.append("agda: the Everything or README front page as a target")
    dq15 = load_queries("docbookxsl")
    dbx = COLLECTIONS["docbookxsl"]
    for q in dq15:
        base = posixpath.basename(q["target"])
        if base == "index.html" or any(
            os.path.exists(os.path.join(dbx.root, d, base))
            for d in ("html", "fo", "manpages", "slides", "website", "pi")
            if d != posixpath.dirname(q["target"])
        ):
            problems.append(f"docbookxsl: {q['target']} is a contents page or a shared name")
    if any(q["target"] == "The User's Manual.html" for q in load_queries("chicken")):
        problems.append("chicken: the front page as a target")
    # sixteenth set: jsoup's targets are never a "Uses of" page, a package, tree or index
    # page; wireshark's never a file name both books have (Preface.html, AppGPL.html...);
    # imagemagick's never a front page (index.html and www/index.html, the same text), the
    # sitemap or the changelog
    for q in load_queries("jsoup"):
        if (
            "class-use/" in q["target"]
            or q["target"].startswith(("index", "overview", "allclasses"))
            or "package-" in q["target"]
        ):
            problems.append(f"jsoup: {q['target']} is a use, package or index page")
    ws = COLLECTIONS["wireshark"]
    for q in load_queries("wireshark"):
        book, base = q["target"].split("/", 1)
        other = "wsdg_html_chunked" if book == "wsug_html_chunked" else "wsug_html_chunked"
        if base == "index.html" or os.path.exists(os.path.join(ws.root, other, base)):
            problems.append(f"wireshark: {q['target']} is a contents page or a shared name")
    if any(
        q["target"] in ("index.html", "www/index.html", "www/sitemap.html", "www/changelog.html")
        for q in load_queries("imagemagick")
    ):
        problems.append("imagemagick: a front page, the sitemap or the changelog as a target")
    # seventeenth set: grass's targets are never an index, topic, keyword or graphical index
    # page (each repeats the modules' one-line purposes); ntpsec's never the front page,
    # the site map, the command index or ntp_conf.html (which restates every option);
    # slurm's never the documentation page, the manual page index or the FAQ
    for q in load_queries("grass"):
        t = q["target"]
        listing = t in (
            "keywords.html",
            "raster.html",
            "vector.html",
            "imagery.html",
            "general.html",
            "display.html",
            "database.html",
            "temporal.html",
            "raster3d.html",
            "miscellaneous.html",
            "postscript.html",
            "manual_gallery.html",
        )
        if listing or t.startswith("topic") or t.endswith(("index.html", "_graphical.html")):
            problems.append(f"grass: {t} is an index or topic page")
    if any(
        q["target"] in ("index.html", "sitemap.html", "comdex.html", "ntp_conf.html")
        for q in load_queries("ntpsec")
    ):
        problems.append("ntpsec: the front page, site map, command index or ntp_conf as a target")
    if any(
        q["target"] in ("documentation.html", "man_index.html", "faq.html")
        for q in load_queries("slurm")
    ):
        problems.append("slurm: the documentation page, the man page index or the FAQ as a target")
    # eighteenth set: libxml2's targets are never the front pages, xml.html (the whole site
    # on one page), the API reference's contents page or the examples' index; varnish's
    # never a front page, a section's contents page (but the glossary's, which is the
    # glossary) or the general index; libtiff's never a front page, the functions' and
    # tools' overviews, functions/libtiff.html (every function's one-line purpose) or the
    # release history's index
    if any(
        q["target"]
        in ("index.html", "xml.html", "docs.html", "html/index.html", "html/libxml-lib.html")
        or q["target"].endswith("examples/index.html")
        for q in load_queries("libxml2")
    ):
        problems.append("libxml2: a front, contents or whole-site page as a target")
    for q in load_queries("varnish"):
        t = q["target"]
        if t in ("index.html", "genindex.html", "search.html") or (
            t.endswith("/index.html") and t != "glossary/index.html"
        ):
            problems.append(f"varnish: {t} is a front, contents or index page")
    if any(
        q["target"]
        in (
            "index.html",
            "genindex.html",
            "functions.html",
            "tools.html",
            "functions/libtiff.html",
            "releases/index.html",
            "project/index.html",
            "specification/index.html",
        )
        for q in load_queries("libtiff")
    ):
        problems.append("libtiff: a front, overview or index page as a target")
    if any(not q["target"].startswith("node") for q in load_queries("gnuplot")):
        problems.append("gnuplot: a target that is not a node page")
    # fifth set: libreoffice's targets are en-US pages, each with a German translation
    lq = load_queries("libreoffice")
    if sum(1 for q in lq if q["other_languages"]) < 30:
        problems.append("libreoffice: fewer than 30 targets with a German translation")
    if any(not q["target"].startswith("en-US/") for q in lq):
        problems.append("libreoffice: a target outside en-US/")
    lo_de = [p for p in pages["libreoffice"] if p.startswith("de/")]
    if len(lo_de) < 1000:
        problems.append(f"libreoffice: only {len(lo_de)} German pages in the page set")
    for name in (
        "gimp",
        "sdl",
        "octave",
        "gtk",
        "postfix",
        "gnuplot",
        "libreoffice",
        "erlang",
        "swipl",
        "haskell",
        "racket",
        "exim",
        "cppreference",
        "rustdoc",
        "crystal",
        "bdb",
        "ant",
        "abs",
        "sqlalchemy",
        "qttools",
        "asciidoctor",
        "rustbook",
        "drf",
        "fpc",
        "adwaita",
        "mpich",
        "nim",
        "cmake",
        "aptitude",
        "scons",
        "ncurses",
        "gnustep",
        "batteries",
        "ffmpeg",
        "gap",
        "libvirt",
        "agda",
        "docbookxsl",
        "chicken",
        "jsoup",
        "wireshark",
        "imagemagick",
        "grass",
        "ntpsec",
        "slurm",
    ):
        kinds = [q["kind"] for q in load_queries(name)]
        if any(kinds.count(k) < 8 for k in ("name", "description", "word", "paraphrase")):
            problems.append(f"{name}: fewer than 8 queries of a kind")
    allowed = {n: set(p) for n, p in pages.items()}
    proxy = DocsProxy(list(COLLECTIONS.values()), allowed).start()
    try:
        checks = [
            ("GET", "http://git-manual.test/robots.txt", 200, "text/plain", b"Allow: /"),
            ("GET", "http://git-manual.test/docs/git-rebase.html", 200, "text/html", b"git-rebase"),
            ("GET", "http://git-manual.test/docs/index.html", 301, None, None),
            ("GET", "http://git-manual.test/docs/no-such-page.html", 404, None, None),
            ("GET", "http://unknown-host.test/", 404, None, None),
            ("GET", apache.url("de/mod/mod_rewrite.html"), 301, None, None),
            ("GET", apache.url("fr/mod/mod_rewrite.html"), 200, "text/html", b'lang="fr"'),
            (
                "GET",
                "http://sqlite-docs.test/c3ref/prepare.html",
                200,
                "text/html",
                b"sqlite3_prepare",
            ),
            ("CONNECT", "git-manual.test:443", 502, None, None),
            ("GET", handbook.url("fr-FR/sect.apt-get.html"), 200, "text/html", b"apt-get"),
            ("GET", handbook.url("it-IT/sect.apt-get.html"), 404, None, None),  # not served
            ("GET", "http://pgdocs.test/docs/15/sql-copy.html", 200, "text/html", b"COPY"),
            (
                "GET",
                gimp.url("en/gimp-filter-gaussian-blur.html"),
                200,
                "text/html; charset=utf-8",
                b"Gaussian",
            ),
            ("GET", gimp.url("en_GB/gimp-tool-heal.html"), 200, "text/html", b"Heal"),
            ("GET", gimp.url("de/gimp-tool-heal.html"), 200, "text/html", b"Heilen"),
            ("GET", gimp.url("fr/gimp-tool-heal.html"), 404, None, None),  # not a language here
            ("GET", gimp.url("en/images/"), 404, None, None),
            (
                "GET",
                "http://libsdl-api.test/sdl2/dc/d64/_s_d_l__video_8h.html",
                200,
                "text/html",
                b"SDL_CreateWindow",
            ),
            ("GET", "http://libsdl-api.test/sdl2/globals_b.html", 404, None, None),  # unlinked
            (
                "GET",
                "http://octave-manual.test/doc/v7.3.0/Solvers.html",
                200,
                "text/html",
                b"fzero",
            ),
            # a Texinfo redirect stub no page links: outside the page set
            ("GET", "http://octave-manual.test/doc/v7.3.0/XREFfzero.html", 404, None, None),
            ("GET", "http://octave-manual.test/doc/v7.3.0/", 301, None, None),
            (
                "GET",
                "http://gtk-reference.test/gtk3/GtkRevealer.html",
                200,
                "text/html",
                b"gtk_revealer_set_reveal_child",
            ),
            # gtk-doc pages link the GLib/GObject manuals (../glib/...): not served
            ("GET", "http://gtk-reference.test/glib/glib-Strings.html", 404, None, None),
            (
                "GET",
                "http://postfix-docs.test/html/postconf.5.html",
                200,
                "text/html",
                b"message_size_limit",
            ),
            ("GET", "http://postfix-docs.test/html/mailq.1.html", 200, "text/html", b"sendmail"),
            (
                "GET",
                "http://gnuplot-manual.test/docs/5.4/node467.html",
                200,
                "text/html; charset=utf-8",
                b"Xrange",
            ),
            ("GET", "http://gnuplot-manual.test/docs/5.4/node999.html", 404, None, None),
            (
                "GET",
                "http://vimhelp.test/doc/usr_05.html",
                200,
                "text/html; charset=iso-8859-1",
                b"vimrc",
            ),
            # fifth set: LibreOffice's pages link through <base href="../../../../">
            (
                "GET",
                "http://help-libreoffice.test/7.4/en-US/text/scalc/01/func_countifs.html",
                200,
                "text/html; charset=utf-8",
                b'lang="en-US"',
            ),
            (
                "GET",
                "http://help-libreoffice.test/7.4/de/text/scalc/01/func_countifs.html",
                200,
                "text/html",
                b'lang="de"',
            ),
            (
                "GET",
                "http://help-libreoffice.test/7.4/fr/text/scalc/main0000.html",
                404,
                None,
                None,
            ),
            (
                "GET",
                "http://erlang-otp.test/doc/25/lib/stdlib-4.2/doc/html/lists.html",
                200,
                "text/html",
                b"keyfind",
            ),
            (
                "GET",
                "http://swi-prolog-manual.test/pldoc/9.0/Manual/manipatom.html",
                200,
                "text/html",
                b"atom_length",
            ),
            # sixth set: Haddock module and hyperlinked source pages, Scribble sections,
            # Exim's chapter files and their chNN.html aliases (symbolic links: redirects)
            (
                "GET",
                "http://haskell-libs.test/ghc-9.0.2/libraries/base-4.15.1.0/Data-List.html",
                200,
                "text/html",
                b"foldl'",
            ),
            (
                "GET",
                "http://haskell-libs.test/ghc-9.0.2/libraries/base-4.15.1.0/src/Data-OldList.html",
                200,
                "text/html",
                b"foldl'",
            ),
            (
                "GET",
                "http://docs-racket.test/8.7/reference/strings.html",
                200,
                "text/html",
                b"string-append",
            ),
            (
                "GET",
                COLLECTIONS["exim"].url("ch14.html"),
                301,
                None,
                None,
            ),
            (
                "GET",
                COLLECTIONS["exim"].url("ch-main_configuration.html"),
                200,
                "text/html; charset=utf-8",
                b"smtp_accept_max",
            ),
            # seventh set: cppreference's C pages (its C++ pages are excluded: not served),
            # rustdoc item pages, Crystal type pages
            (
                "GET",
                COLLECTIONS["cppreference"].url("c/string/byte/strtok.html"),
                200,
                "text/html",
                b"strtok_s",
            ),
            (
                "GET",
                COLLECTIONS["cppreference"].url("cpp/string/byte/strtok.html"),
                404,
                None,
                None,
            ),
            (
                "GET",
                COLLECTIONS["rustdoc"].url("syn/struct.ExprClosure.html"),
                200,
                "text/html",
                b"closure",
            ),
            ("GET", COLLECTIONS["crystal"].url("String.html"), 200, "text/html", b"gsub"),
            # eighth set: Berkeley DB's C reference (its C++ reference is excluded: not
            # served), Ant's task pages, the ABS Guide's ISO-8859-1 pages
            (
                "GET",
                COLLECTIONS["bdb"].url("api_reference/C/dbput.html"),
                200,
                "text/html",
                b"DB-&gt;put",
            ),
            ("GET", COLLECTIONS["bdb"].url("api_reference/CXX/dbput.html"), 404, None, None),
            ("GET", COLLECTIONS["ant"].url("Tasks/javac.html"), 200, "text/html", b"srcdir"),
            (
                "GET",
                COLLECTIONS["abs"].url("internal.html"),
                200,
                "text/html; charset=iso-8859-1",
                b"getopts",
            ),
            # ninth set: a SQLAlchemy autodoc page, a Qt class page (the Qt pages it links
            # outside the package are not served), an RDoc class page
            (
                "GET",
                COLLECTIONS["sqlalchemy"].url("orm/session_api.html"),
                200,
                "text/html",
                b"sqlalchemy.orm.Session.merge",
            ),
            (
                "GET",
                COLLECTIONS["qttools"].url("qthelp/qhelpenginecore.html"),
                200,
                "text/html",
                b"QHelpEngineCore",
            ),
            ("GET", COLLECTIONS["qttools"].url("qtcore/qobject.html"), 404, None, None),
            (
                "GET",
                COLLECTIONS["asciidoctor"].url("Asciidoctor/Parser.html"),
                200,
                "text/html",
                b"next_block",
            ),
            # tenth set: an mdBook page, a MkDocs folder URL (301 to its index.html) and
            # its page, an fpdoc identifier page (a unit past the cap is not served)
            (
                "GET",
                COLLECTIONS["rustbook"].url("ch08-03-hash-maps.html"),
                200,
                "text/html",
                b"HashMap",
            ),
            ("GET", COLLECTIONS["drf"].url("api-guide/viewsets/"), 301, None, None),
            (
                "GET",
                COLLECTIONS["drf"].url("api-guide/viewsets/index.html"),
                200,
                "text/html",
                b"ModelViewSet",
            ),
            (
                "GET",
                COLLECTIONS["fpc"].url("strutils/ansireplacestr.html"),
                200,
                "text/html; charset=utf-8",
                b"AnsiReplaceStr",
            ),
            ("GET", COLLECTIONS["fpc"].url("types/tagpoint.html"), 404, None, None),
            # eleventh set: a gi-docgen method page, a doctext routine page (its twin is
            # served too) and a nim doc module page; nim's index.html is a symbolic link to
            # manual.html (a redirect)
            (
                "GET",
                COLLECTIONS["adwaita"].url("method.ActionRow.add_prefix.html"),
                200,
                "text/html",
                b"adw_action_row_add_prefix",
            ),
            (
                "GET",
                COLLECTIONS["mpich"].url("www3/MPI_Send.html"),
                200,
                "text/html",
                b"Performs a blocking send",
            ),
            ("GET", COLLECTIONS["mpich"].url("www3/MPI_Send_c.html"), 200, "text/html", None),
            (
                "GET",
                COLLECTIONS["nim"].url("strutils.html"),
                200,
                "text/html",
                b"std/strutils",
            ),
            ("GET", COLLECTIONS["nim"].url("index.html"), 301, None, None),
            # thirteenth set: a man2html page, an autogsdoc header page (its reference's
            # index.html, a frameset, is outside the page set), an ocamldoc module page
            (
                "GET",
                COLLECTIONS["ncurses"].url("man/curs_inopts.3x.html"),
                200,
                "text/html",
                b"halfdelay",
            ),
            (
                "GET",
                COLLECTIONS["gnustep"].url("Base/Reference/NSFileHandle.html"),
                200,
                "text/html",
                b"NSPipe",
            ),
            ("GET", COLLECTIONS["gnustep"].url("Base/Reference/index.html"), 404, None, None),
            (
                "GET",
                COLLECTIONS["batteries"].url("BatList.html"),
                200,
                "text/html",
                b"filter_map",
            ),
            # fourteenth set: a texi2html manual page, a GAPDoc chapter, a libvirt API module
            # page
            (
                "GET",
                COLLECTIONS["ffmpeg"].url("ffmpeg-filters.html"),
                200,
                "text/html",
                b"loudnorm",
            ),
            ("GET", COLLECTIONS["gap"].url("ref/chap39.html"), 200, "text/html", b"SylowSubgroup"),
            (
                "GET",
                COLLECTIONS["libvirt"].url("html/libvirt-libvirt-domain.html"),
                200,
                "text/html",
                b"virDomainCreateXML",
            ),
            # fifteenth set: an Agda module page, a DocBook XSL parameter page, a CHICKEN
            # wiki page whose file name has spaces and parentheses (percent-encoded)
            (
                "GET",
                COLLECTIONS["agda"].url("Data.List.Sort.MergeSort.html"),
                200,
                "text/html",
                b"mergeSort",
            ),
            (
                "GET",
                COLLECTIONS["docbookxsl"].url("html/chunk.section.depth.html"),
                200,
                "text/html",
                b"chunk.section.depth",
            ),
            (
                "GET",
                COLLECTIONS["chicken"].url("Module%20(chicken%20string).html"),
                200,
                "text/html",
                b"string-intersperse",
            ),
            # sixteenth set: a javadoc class page, a chunked user's guide section, the
            # command-line options page of a tool's web site
            (
                "GET",
                COLLECTIONS["jsoup"].url("org/jsoup/safety/Safelist.html"),
                200,
                "text/html",
                b"basicWithImages",
            ),
            (
                "GET",
                COLLECTIONS["wireshark"].url("wsug_html_chunked/AppToolseditcap.html"),
                200,
                "text/html",
                b"editcap",
            ),
            (
                "GET",
                COLLECTIONS["imagemagick"].url("www/command-line-options.html"),
                200,
                "text/html",
                b"-liquid-rescale",
            ),
            # seventeenth set: a GRASS module page, an NTPsec driver page, a Slurm manual page;
            # Slurm has no index.html (404)
            (
                "GET",
                COLLECTIONS["grass"].url("v.net.salesman.html"),
                200,
                "text/html",
                b"salesman",
            ),
            (
                "GET",
                COLLECTIONS["ntpsec"].url("driver_nmea.html"),
                200,
                "text/html",
                b"NMEA",
            ),
            (
                "GET",
                COLLECTIONS["slurm"].url("sbcast.html"),
                200,
                "text/html",
                b"transmit a file",
            ),
            ("GET", COLLECTIONS["slurm"].url("index.html"), 404, None, None),
            # eighteenth set: a libxml2 API module page, a Varnish users guide page, a
            # LibTIFF tool's manual page
            (
                "GET",
                COLLECTIONS["libxml2"].url("html/libxml-tree.html"),
                200,
                "text/html",
                b"xmlDocGetRootElement",
            ),
            (
                "GET",
                COLLECTIONS["varnish"].url("users-guide/purging.html"),
                200,
                "text/html",
                b"ban",
            ),
            (
                "GET",
                COLLECTIONS["libtiff"].url("tools/tiffcp.html"),
                200,
                "text/html",
                b"tiffcp",
            ),
        ]
        for method, url, status, ctype, needle in checks:
            got, headers, body = fetch(proxy.port, method, url)
            if got != status:
                problems.append(f"{method} {url}: status {got}, expected {status}")
            if ctype and not headers.get("content-type", "").startswith(ctype):
                problems.append(f"{url}: Content-Type {headers.get('content-type')}")
            if needle and needle not in body:
                problems.append(f"{url}: body lacks {needle!r}")
        _, headers, _ = fetch(proxy.port, "GET", apache.url("de/mod/mod_rewrite.html"))
        if headers.get("location") != apache.url("en/mod/mod_rewrite.html"):
            problems.append(f"alias redirect to {headers.get('location')}")
    finally:
        proxy.stop()
    for p in problems:
        print("problem:", p)
    print("selfcheck:", "ok" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
