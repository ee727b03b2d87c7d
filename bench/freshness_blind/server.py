"""The news site's HTTP server: an HTTP proxy on 127.0.0.1 serving http://www.dailynews.test/.

Run by run.py inside the crawl's network namespace:

    python server.py --model dev --seed 26 --port 8931 --horizon 1500 --log DIR/requests.jsonl \
        --trace DIR/trace.jsonl

The site's clock is frozen (every page at version 0) until the harness sends
`GET /__control/start` straight to the server (not through the proxy); the clock then starts
on the next whole second and pages change at the trace's offsets from it.
`GET /__control/stop` writes the trace and the last log lines and stops the server.

Every request is logged as one JSON line: t (server time when the answer was chosen),
phase (general before the start, incremental after), method, url, if_none_match,
if_modified_since, status, version (of the page served or confirmed), bytes.
HTTP: ETag (strong) and Last-Modified on every page, sitemap and feed; If-None-Match takes
precedence over If-Modified-Since (RFC 9110 13.2.2); 304 carries the ETag and Last-Modified;
HTTP/1.1 keep-alive; HEAD; a CONNECT (https through the proxy) is answered 502.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import email.utils
import hashlib
import html
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import newssite  # noqa: E402
from newssite import BASE, HOST, MODELS, Page, Site  # noqa: E402

FEED_ITEMS = 30


def http_date(t: float) -> str:
    return email.utils.formatdate(math.floor(t), usegmt=True)


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def w3c_date(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(math.floor(t)))


class NewsServer:
    def __init__(self, site: Site, log_path: Path, trace_path: Path) -> None:
        self.site = site
        self.created = float(math.floor(time.time()))  # anchor of version 0 and earlier changes
        self.t0: float | None = None  # clock start (whole second)
        self.log = open(log_path, "w", encoding="utf-8", buffering=1 << 16)
        self.trace_path = trace_path
        self.stopping = asyncio.Event()
        self.cache: dict[tuple[str, int], bytes] = {}
        # article changes, oldest first, for the feed: (absolute time, path, version)
        self.article_changes: list[tuple[float, str, int]] = self._article_changes()

    # -- clock -----------------------------------------------------------------------------
    def offset(self, now: float) -> float | None:
        return None if self.t0 is None else now - self.t0

    def change_time(self, page: Page, version: int) -> float:
        """Absolute time of the change that created `version` of `page`."""
        if version > 0:
            return self.t0 + page.changes[version - 1]
        return self.created + page.past[-version] if -version < len(page.past) else self.created

    def _article_changes(self) -> list[tuple[float, str, int]]:
        arts = []
        for path in self.site.articles:
            page = self.site.pages[path]
            for i in range(len(page.past)):
                arts.append((self.created + page.past[i], path, -i))
            if self.t0 is not None:
                for v, off in enumerate(page.changes, start=1):
                    arts.append((self.t0 + off, path, v))
        arts.sort()
        return arts

    def start_clock(self) -> float:
        if self.t0 is None:
            self.t0 = float(math.ceil(time.time()) + 1)
            self.article_changes = self._article_changes()
        return self.t0

    def write_trace(self) -> None:
        with open(self.trace_path, "w", encoding="utf-8") as out:
            out.write(
                json.dumps(
                    {
                        "model": self.site.model.name,
                        "role": self.site.model.role,
                        "seed": self.site.seed,
                        "created": self.created,
                        "t0": self.t0,
                        "horizon": self.site.horizon,
                    }
                )
                + "\n"
            )
            for path in sorted(self.site.pages):
                p = self.site.pages[path]
                out.write(
                    json.dumps(
                        {
                            "url": BASE + path,
                            "kind": p.kind,
                            "rate": p.rate,
                            "class": newssite.rate_class(p.rate),
                            "last_modified_v0": self.created + p.past[0],
                            "changes": [round(c, 4) for c in p.changes],
                        }
                    )
                    + "\n"
                )

    # -- rendering -------------------------------------------------------------------------
    def _a(self, path: str, text: str | None = None) -> str:
        page = self.site.pages.get(path)
        label = text or (page.title if page else path)
        return f'<a href="{html.escape(BASE + path)}">{html.escape(label)}</a>'

    def _teaser(self, path: str, version: int, salt: str) -> str:
        rnd = random.Random(f"{self.site.seed}/teaser/{path}/{salt}/{version}")
        return " ".join(rnd.choice(newssite.WORDS) for _ in range(14))

    def render(self, page: Page, version: int) -> bytes:
        key = (page.path, version)
        body = self.cache.get(key)
        if body is not None:
            return body
        site = self.site
        rnd = random.Random(f"{site.seed}/content/{page.path}/{version}")
        words = newssite.WORDS
        nav = " | ".join(self._a(p) for p in page.links[:9])
        parts = [
            "<!DOCTYPE html><html><head><meta charset='utf-8'>",
            f"<title>{html.escape(site.headline(page, version))} - The Daily News</title>",
            '<link rel="alternate" type="application/rss+xml" title="Latest" '
            f'href="{BASE}/feed.xml">',
            "</head><body>",
            f"<header><nav>{nav}</nav></header><main>",
            f"<h1>{html.escape(site.headline(page, version))}</h1>",
        ]
        if page.kind == "article":
            y, m, d = newssite._date(page.day)
            parts.append(
                f"<p class='byline'>By {self._a('/author/' + page.author + '/')} in "
                f"{self._a('/' + page.section + '/')}, {y}-{m:02d}-{d:02d}</p>"
            )
            n_par = 4 + min(version, 6) if version > 0 else 4
            for _ in range(n_par):
                text = " ".join(rnd.choice(words) for _ in range(40 + rnd.randint(0, 30)))
                parts.append(f"<p>{html.escape(text.capitalize())}.</p>")
            if version > 0:
                parts.append(
                    f"<p class='update'><strong>Update {version}:</strong> "
                    f"{html.escape(' '.join(rnd.choice(words) for _ in range(25)))}.</p>"
                )
            parts.append(
                "<p>Tags: " + ", ".join(self._a(f"/tag/{t}/", t) for t in page.tags) + "</p>"
            )
            related = [p for p in page.links if p.endswith(".html")]
            parts.append(
                "<h2>Related</h2><ul>"
                + "".join(f"<li>{self._a(p)}</li>" for p in related)
                + "</ul>"
            )
            parts.append(f"<p>{self._a(page.links[-1], 'Today in the archive')}</p>")
        elif page.kind == "front":
            order = list(site.articles[:60])
            rnd.shuffle(order)
            top = order[:25]
            parts.append("<h2>Top stories</h2><ul>")
            for p in top:
                parts.append(
                    f"<li>{self._a(p)} "
                    f"<span>{html.escape(self._teaser(p, version, 'front'))}</span></li>"
                )
            parts.append("</ul><h2>Most read</h2><ol>")
            for p in rnd.sample(site.articles[:120], 10):
                parts.append(f"<li>{self._a(p)}</li>")
            parts.append("</ol><h2>Topics</h2><p>")
            parts.append(" ".join(self._a(p) for p in page.links if p.startswith("/tag/")))
            parts.append("</p><h2>Archive</h2><p>")
            parts.append(" ".join(self._a(p) for p in page.links if p.startswith("/archive/")))
            parts.append(f"</p><p><a href='{BASE}/feed.xml'>RSS feed</a></p>")
        elif page.kind in ("section", "tag", "author", "archive"):
            listing = list(page.listing)
            if page.kind != "archive":
                # the freshest stories first, a new order and new teasers with each change
                head = listing[: min(12, len(listing))]
                rnd.shuffle(head)
                listing = head + listing[len(head) :]
            parts.append("<ul>")
            for p in listing:
                parts.append(
                    f"<li>{self._a(p)} "
                    f"<span>{html.escape(self._teaser(p, version, page.path))}</span></li>"
                )
            parts.append("</ul>")
            extra = [p for p in page.links if p.startswith("/archive/") and page.kind == "archive"]
            if extra:
                parts.append("<p>" + " ".join(self._a(p) for p in extra) + "</p>")
        else:  # static
            for _ in range(3):
                text = " ".join(rnd.choice(words) for _ in range(50))
                parts.append(f"<p>{html.escape(text.capitalize())}.</p>")
        if version > 0 and page.kind != "article":
            parts.append(
                "<p class='ticker'>"
                f"{html.escape(' '.join(rnd.choice(words) for _ in range(12)))}</p>"
            )
        foot = " | ".join(
            self._a(p) for p in page.links if p.startswith("/") and p.strip("/") in newssite.STATIC
        )
        parts.append(
            f"</main><footer>{foot} | <a href='{BASE}/feed.xml'>RSS</a></footer></body></html>"
        )
        body = "\n".join(parts).encode("utf-8")
        if len(self.cache) > 20000:
            self.cache.clear()
        self.cache[key] = body
        return body

    def feed(self, now: float) -> tuple[bytes, float, str]:
        i = bisect.bisect_right(self.article_changes, (now, "\uffff", 1 << 30))
        items = list(reversed(self.article_changes[max(0, i - FEED_ITEMS) : i]))
        last = items[0][0] if items else self.created
        out = [
            '<?xml version="1.0" encoding="utf-8"?>',
            '<rss version="2.0"><channel><title>The Daily News - latest</title>',
            f"<link>{BASE}/</link><description>Stories published or updated recently</description>",
            f"<lastBuildDate>{http_date(last)}</lastBuildDate>",
        ]
        for t, path, version in items:
            page = self.site.pages[path]
            out.append(
                "<item><title>{}</title><link>{}</link><guid isPermaLink='false'>{}#v{}</guid>"
                "<pubDate>{}</pubDate><description>{}</description></item>".format(
                    html.escape(self.site.headline(page, max(version, 0))),
                    html.escape(BASE + path),
                    html.escape(BASE + path),
                    version,
                    http_date(t),
                    html.escape(self._teaser(path, version, "feed")),
                )
            )
        out.append("</channel></rss>")
        body = "\n".join(out).encode()
        etag = '"feed-' + _digest(repr([(p, v) for _, p, v in items])) + '"'
        return body, last, etag

    def sitemap(self, offset: float | None) -> tuple[bytes, float, str]:
        """The sitemap as last regenerated: once per compressed day of the model (many sites
        regenerate theirs daily or serve it through a cache), so its lastmods lag behind."""
        if offset is not None:
            period = self.site.model.day_seconds
            offset = math.floor(offset / period) * period
        out = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ]
        last = 0.0
        versions = []
        for path in sorted(self.site.pages):
            page = self.site.pages[path]
            v = self.site.version_at(page, offset)
            versions.append(v)
            t = self.change_time(page, v)
            last = max(last, t)
            out.append(
                f"<url><loc>{html.escape(BASE + path)}</loc><lastmod>{w3c_date(t)}</lastmod></url>"
            )
        out.append("</urlset>")
        etag = '"sitemap-' + _digest(repr(versions)) + '"'
        return "\n".join(out).encode(), last, etag

    # -- HTTP --------------------------------------------------------------------------------
    def answer(
        self, method: str, target: str, headers: dict[str, str]
    ) -> tuple[int, dict, bytes, dict]:
        """(status, response headers, body, log fields) for one request."""
        now = time.time()
        offset = self.offset(now)
        if not target.startswith("http://"):
            return 400, {"Content-Type": "text/plain"}, b"proxy requests only\n", {}
        rest = target[len("http://") :]
        host, _, path = rest.partition("/")
        path = "/" + path
        host = host.lower()
        if host not in (HOST, HOST + ":80"):
            return 502, {"Content-Type": "text/plain"}, b"news site: unknown host\n", {}
        path = path.split("#", 1)[0]
        if "?" in path:
            path = path.split("?", 1)[0]
        version = None
        if path == "/robots.txt":
            body = f"User-agent: *\nAllow: /\n\nSitemap: {BASE}/sitemap.xml\n".encode()
            lm, etag, ctype = self.created - 90 * 86400, '"robots-1"', "text/plain; charset=utf-8"
        elif path == "/sitemap.xml":
            body, lm, etag = self.sitemap(offset)
            ctype = "application/xml"
        elif path in ("/feed.xml", "/rss", "/rss.xml"):
            body, lm, etag = self.feed(now)
            ctype = "application/rss+xml; charset=utf-8"
        else:
            page = self.site.pages.get(path)
            if page is None:
                body = b"<html><body><h1>Not found</h1></body></html>"
                return 404, {"Content-Type": "text/html; charset=utf-8"}, body, {"t": now}
            version = self.site.version_at(page, offset)
            body = self.render(page, version)
            lm = self.change_time(page, version)
            etag = self.site.etag(page, version)
            ctype = "text/html; charset=utf-8"
        hdrs = {"ETag": etag, "Last-Modified": http_date(lm), "Content-Type": ctype}
        inm = headers.get("if-none-match")
        ims = headers.get("if-modified-since")
        not_modified = False
        if inm is not None:
            tags = [x.strip() for x in inm.split(",")]
            not_modified = "*" in tags or etag in tags or ("W/" + etag) in tags
        elif ims is not None:
            try:
                since = email.utils.parsedate_to_datetime(ims).timestamp()
                not_modified = math.floor(lm) <= since
            except (TypeError, ValueError, IndexError, OverflowError):
                not_modified = False
        fields = {"t": now, "version": version, "inm": inm, "ims": ims}
        if not_modified:
            return 304, hdrs, b"", fields
        return 200, hdrs, body, fields

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                try:
                    method, target, version = lines[0].split(" ", 2)
                except ValueError:
                    return
                headers: dict[str, str] = {}
                for line in lines[1:]:
                    if ":" in line:
                        k, _, v = line.partition(":")
                        headers[k.strip().lower()] = v.strip()
                length = int(headers.get("content-length", "0") or 0)
                if length:
                    await reader.readexactly(length)
                if target.startswith("/__control/"):
                    await self.control(target, writer)
                    return
                if method == "CONNECT":
                    status, hdrs, body, fields = (
                        502,
                        {"Content-Type": "text/plain"},
                        b"news site: no https\n",
                        {},
                    )
                    keep = False
                else:
                    status, hdrs, body, fields = self.answer(method, target, headers)
                    keep = (
                        headers.get("connection", "").lower() != "close" and version == "HTTP/1.1"
                    )
                self.log_request(method, target, status, len(body), fields)
                reason = {
                    200: "OK",
                    304: "Not Modified",
                    400: "Bad Request",
                    404: "Not Found",
                    502: "Bad Gateway",
                }[status]
                out = [
                    f"HTTP/1.1 {status} {reason}",
                    f"Date: {http_date(time.time())}",
                    "Server: dailynews/1.0",
                ]
                for k, v in hdrs.items():
                    out.append(f"{k}: {v}")
                if status != 304:
                    out.append(f"Content-Length: {len(body)}")
                out.append("Connection: keep-alive" if keep else "Connection: close")
                data = ("\r\n".join(out) + "\r\n\r\n").encode("latin-1")
                if method != "HEAD" and status != 304:
                    data += body
                writer.write(data)
                await writer.drain()
                if not keep:
                    return
        except (ConnectionError, asyncio.CancelledError):
            return
        finally:
            try:
                writer.close()
            except Exception:
                pass

    def log_request(self, method: str, url: str, status: int, size: int, fields: dict) -> None:
        rec = {
            "t": round(fields.get("t", time.time()), 4),
            "phase": "general" if self.t0 is None else "incremental",
            "method": method,
            "url": url,
            "status": status,
            "version": fields.get("version"),
            "inm": fields.get("inm"),
            "ims": fields.get("ims"),
            "bytes": size,
        }
        self.log.write(json.dumps(rec) + "\n")

    async def control(self, target: str, writer: asyncio.StreamWriter) -> None:
        if target == "/__control/start":
            t0 = self.start_clock()
            body = json.dumps({"t0": t0}).encode()
        elif target == "/__control/stop":
            self.log.flush()
            self.write_trace()
            body = b'{"stopped": true}'
            self.stopping.set()
        elif target == "/__control/ping":
            body = json.dumps({"pages": len(self.site.pages), "t0": self.t0}).encode()
        else:
            body = b"{}"
        writer.write(
            f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"Connection: close\r\n\r\n".encode()
            + body
        )
        await writer.drain()


async def serve(args: argparse.Namespace) -> None:
    site = Site(MODELS[args.model], args.seed, args.horizon)
    server = NewsServer(site, Path(args.log), Path(args.trace))
    srv = await asyncio.start_server(server.handle, "127.0.0.1", args.port, backlog=256)

    async def flusher() -> None:
        while True:
            await asyncio.sleep(1.0)
            server.log.flush()

    task = asyncio.create_task(flusher())
    print(
        f"news site: {len(site.pages)} pages, model {args.model} seed {args.seed}, "
        f"port {args.port}",
        flush=True,
    )
    await server.stopping.wait()
    task.cancel()
    srv.close()
    server.log.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=sorted(MODELS), required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--horizon", type=float, required=True, help="seconds of changes to generate")
    ap.add_argument("--log", required=True)
    ap.add_argument("--trace", required=True)
    args = ap.parse_args()
    asyncio.run(serve(args))


if __name__ == "__main__":
    main()
