"""The Flask application of the search UI.

Pages: ``/`` (simple search box), ``/advanced`` (the advanced search form of the
effective-crawler paper's Figure 5), ``/search`` (results: title, URL, highlighted
snippet, count, query time, "did you mean", pagination); ``/crawls`` and ``/crawls/ID``:
the crawls with their status and report charts (crawler/web/crawls.py). The advanced
form is turned into a query-language string (crawler.search.query.advanced_query), so its
result page shows the equivalent query in the search box.

Jinja autoescaping is on for every template: crawled titles, URLs and text are untrusted
and always rendered escaped. Snippets are escaped by the search engine itself, which only
adds <mark> elements around matches.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from crawler import defaults
from crawler.search.engine import MAX_PER_PAGE, SearchEngine
from crawler.search.pending import pending_message
from crawler.search.query import OCCURRENCE_PREFIXES, advanced_query
from crawler.storage.database import CrawlDatabase
from crawler.web.crawls import configured_control_token, crawls_blueprint

PER_PAGE_CHOICES = (10, 20, 50, 100)
UPDATED_CHOICES = (
    ("anytime", "anytime"),
    ("day", "past 24 hours"),
    ("week", "past week"),
    ("month", "past month"),
    ("year", "past year"),
)
OCCURRENCE_CHOICES = (
    ("anywhere", "anywhere in the page"),
    ("title", "in the title of the page"),
    ("body", "in the text of the page"),
    ("url", "in the URL of the page"),
)
_ADVANCED_FIELDS = ("all", "exact", "any", "none", "site")


def _int_arg(name: str, default: int, low: int, high: int) -> int:
    try:
        value = int(request.args.get(name, default))
    except (TypeError, ValueError):
        value = default
    return max(low, min(high, value))


def create_app(
    settings: Any,
    index: Any,
    control_token: str | None = None,
    index_folder: str | None = None,
) -> Flask:
    """The UI for the index ``index`` (a FileIndex or folder), configured by ``settings``;
    ``control_token``: what the crawls pages' control form asks for (default: the
    CONTROL_TOKEN setting or CRAWLER_CONTROL_TOKEN; none: every action is refused);
    ``index_folder``: where the index lives, for the note of pages a crawl left unindexed
    (crawler/search/pending.py)."""
    app = Flask(__name__)
    app.config["SEARCH_ENGINE"] = engine = SearchEngine.from_settings(settings, index)
    default_per_page = settings.getint("SEARCH_RESULTS_PER_PAGE", defaults.SEARCH_RESULTS_PER_PAGE)
    app.jinja_env.autoescape = True  # every template, whatever its file name
    # result links only for web URLs (never javascript: or data: from an odd index)
    app.jinja_env.filters["web_href"] = lambda url: (
        url if str(url).lower().startswith(("http://", "https://")) else "#"
    )

    @app.after_request
    def security_headers(response: Response) -> Response:
        # no script at all is needed by the UI: forbid any that might slip in
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'"
        )
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    @app.get("/favicon.ico")
    def favicon() -> Response:
        # browsers ask for /favicon.ico whatever the page links to
        return app.send_static_file("favicon.svg")

    @app.get("/")
    def home() -> str:
        return render_template("home.html", documents=engine.doc_count())

    @app.get("/advanced")
    def advanced() -> str:
        return render_template(
            "advanced.html",
            formats=engine.formats(),
            per_page_choices=PER_PAGE_CHOICES,
            updated_choices=UPDATED_CHOICES,
            occurrence_choices=OCCURRENCE_CHOICES,
            default_per_page=default_per_page,
        )

    @app.get("/search")
    def search() -> str | Response:
        per_page = _int_arg("n", default_per_page, 1, MAX_PER_PAGE)
        text = request.args.get("q", "").strip()
        if not text and any(request.args.get(k, "").strip() for k in _ADVANCED_FIELDS):
            occur = request.args.get("occur", "anywhere")
            text = advanced_query(
                all_words=request.args.get("all", ""),
                exact_phrase=request.args.get("exact", ""),
                any_words=request.args.get("any", ""),
                none_words=request.args.get("none", ""),
                occur=occur if occur in OCCURRENCE_PREFIXES else "anywhere",
                site=request.args.get("site", ""),
                file_format=request.args.get("format", ""),
                updated=request.args.get("updated", ""),
            )
            return redirect(url_for("search", q=text, n=per_page))
        if not text:
            return redirect(url_for("home"))
        page = _int_arg("page", 1, 1, 10_000)
        results = engine.search(
            text, page=page, per_page=per_page, lang=request.headers.get("Accept-Language", "")
        )
        snippets = [Markup(hit.snippet_html) for hit in results.hits]  # escaped by the engine
        first = max(1, page - 4)
        last = min(results.pages, first + 9)
        return render_template(
            "results.html",
            results=results,
            hits=list(zip(results.hits, snippets, strict=True)),
            page_numbers=range(first, last + 1),
            per_page=per_page,
            pending=pending_message(index_folder) if index_folder else None,
        )

    # operator's pages: crawls with their status and charts (crawler/web/crawls.py)
    app.config["CRAWL_DATABASE"] = database = CrawlDatabase.from_settings(settings)
    token = control_token or configured_control_token(settings)
    app.register_blueprint(crawls_blueprint(database, token))
    return app
