"""Evaluation webs of bench/realweb_blind (blind: written without reading the crawler's code).

Three webs, all deterministic for a given seed:

- ``503site``: one documentation site (Debian's cmake-doc HTML, the ``variable/`` section left
  out: about 1,250 pages) on one host name; the server answers one page in ten (chosen by
  the seed) with ``503`` + ``Retry-After: 1`` the first time it is asked for.
- ``realweb``: a web like the real one: four large documentation sites (cmake-doc,
  rust-doc's standard library, python-pandas-doc, sqlite3-doc), a few hundred small sites of
  1-30 pages (text taken from nodejs-doc, bash-doc and sqlite3-doc, page sizes 5-150 KB,
  log-normal), links between hosts, links to dead outside hosts (connection refused, DNS
  failure answered 502, hosts that hang), slow pages, 404s, varied robots.txt.
- ``skewed``: synthetic sites only, host sizes drawn from a Zipf law so that a few hosts hold
  most of the pages, every response delayed by ``latency`` seconds (for the agents' benchmark).

Pages of documentation sites are read once, their links rewritten, and kept as bytes in a
cache file (``/tmp/realweb_blind_cache``); pages of synthetic sites are rendered on request
from pre-encoded paragraphs (a few microseconds each).
"""

from __future__ import annotations

import hashlib
import html
import math
import os
import pickle
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlsplit

CACHE_DIR = Path(os.environ.get("REALWEB_BLIND_CACHE", "/tmp/realweb_blind_cache"))
BUILD_VERSION = "5"  # of assembled webs
DOC_VERSION = "1"  # of documentation sites read from Debian packages

DOC_SOURCES = {
    "cmake": Path("/usr/share/doc/cmake-data/html"),
    "sqlite": Path("/usr/share/doc/sqlite3"),
    "rust": Path("/usr/share/doc/rust-doc/html"),
    "pandas": Path("/usr/share/doc/python-pandas-doc/html"),
    "nodejs": Path("/usr/share/doc/nodejs/api"),
    "bash": Path("/usr/share/doc/bash"),
}
DEBIAN_PACKAGES = {
    "cmake": "cmake-doc",
    "sqlite": "sqlite3-doc",
    "rust": "rust-doc",
    "pandas": "python-pandas-doc",
    "nodejs": "nodejs-doc",
    "bash": "bash-doc",
}

STALL_HOST = "docs.cmake-manual.test"

_A_HREF = re.compile(r"""(<a\b[^>]*?\bhref\s*=\s*)(["'])(.*?)\2""", re.I | re.S)
_BODY_END = re.compile(r"</body\s*>", re.I)


def stable_hash(*parts: object) -> int:
    """A hash that does not change between processes (unlike hash())."""
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def unit(*parts: object) -> float:
    """A deterministic number in [0, 1) for the given key."""
    return stable_hash(*parts) / 2**64


# --------------------------------------------------------------------------------------------
# Documentation sites read from Debian packages


@dataclass
class DocSite:
    host: str
    pages: dict[str, bytes]  # URL path -> HTML body
    links: dict[str, list[str]]  # URL path -> internal paths it links to (served ones)
    start: str = "/index.html"

    def reachable(self, start: str | None = None) -> set[str]:
        start = start or self.start
        seen = {start}
        todo = [start]
        while todo:
            for target in self.links.get(todo.pop(), ()):
                if target not in seen and target in self.pages:
                    seen.add(target)
                    todo.append(target)
        return seen


def check_sources(*names: str) -> None:
    missing = [n for n in names if not DOC_SOURCES[n].is_dir()]
    if missing:
        pkgs = " ".join(DEBIAN_PACKAGES[n] for n in missing)
        raise SystemExit(f"error: documentation missing: apt-get install {pkgs}")


def _url_path(rel: Path) -> str:
    return "/" + rel.as_posix()


def load_doc_site(name: str, host: str, **kw) -> DocSite:
    """load_doc_site_uncached, cached in CACHE_DIR (reading a tree takes minutes when loaded)."""
    key = f"doc-{DOC_VERSION}-{name}-{host}-{sorted(kw.items())}"
    return _cached(key, lambda: load_doc_site_uncached(name, host, **kw))


def load_doc_site_uncached(
    name: str,
    host: str,
    exclude_dirs: tuple[str, ...] = (),
    include_dirs: tuple[str, ...] | None = None,
    start: str = "/index.html",
    max_pages: int | None = None,
    keep_broken_share: float = 0.0,
    seed: int = 0,
) -> DocSite:
    """Read a documentation tree, keep <a href> links to served pages and external links.

    Links to files that are not served (sources, downloads, excluded sections) lose their
    href, except a share ``keep_broken_share`` of them kept as they are (404s, like a real
    site's broken links).
    """
    root = DOC_SOURCES[name]
    files: list[Path] = []
    for path in sorted(root.rglob("*.html")):
        rel = path.relative_to(root)
        top = rel.parts[0] if len(rel.parts) > 1 else ""
        if top in exclude_dirs or any(p.startswith("_") for p in rel.parts[:-1]):
            continue
        if include_dirs is not None and top not in include_dirs and top != "":
            continue
        files.append(rel)
    if max_pages is not None and len(files) > max_pages:
        # keep the pages nearest the start page first: breadth-first over the raw links
        files = _nearest(root, files, start, max_pages)
    served = {_url_path(rel) for rel in files}
    pages: dict[str, bytes] = {}
    links: dict[str, list[str]] = {}
    base = f"http://{host}"
    for rel in files:
        path = _url_path(rel)
        text = (root / rel).read_bytes().decode("utf-8", "replace")
        page_links: list[str] = []

        def fix(match: re.Match[str], path: str = path, page_links: list[str] = page_links) -> str:
            href = html.unescape(match.group(3)).strip()
            if not href or href.startswith("#"):
                return match.group(0)
            absolute = urljoin(base + path, href)
            parts = urlsplit(absolute)
            if parts.scheme not in ("http", "https"):
                return match.group(0)
            if parts.netloc != host:
                return match.group(0)  # external link: left to the proxy (dead outside host)
            target = parts.path or "/"
            if target.endswith("/"):
                target += "index.html"
            if target in served:
                page_links.append(target)
                return match.group(0)
            if keep_broken_share and unit(seed, "broken", path, href) < keep_broken_share:
                return match.group(0)
            return match.group(1) + match.group(2) + "#" + match.group(2)  # link dropped

        text = _A_HREF.sub(fix, text)
        pages[path] = text.encode("utf-8")
        links[path] = page_links
    return DocSite(host=host, pages=pages, links=links, start=start)


def _nearest(root: Path, files: list[Path], start: str, limit: int) -> list[Path]:
    by_path = {_url_path(rel): rel for rel in files}
    order: list[str] = []
    seen = {start}
    todo = [start]
    base = "http://h"
    while todo and len(order) < limit:
        nxt: list[str] = []
        for path in todo:
            if path not in by_path:
                continue
            order.append(path)
            if len(order) >= limit:
                break
            text = (root / by_path[path]).read_bytes().decode("utf-8", "replace")
            for m in _A_HREF.finditer(text):
                parts = urlsplit(urljoin(base + path, html.unescape(m.group(3))))
                if parts.netloc != "h":
                    continue
                target = parts.path if not parts.path.endswith("/") else parts.path + "index.html"
                if target in by_path and target not in seen:
                    seen.add(target)
                    nxt.append(target)
        todo = nxt
    return [by_path[p] for p in order]


def inject_links(site: DocSite, path: str, urls: list[str]) -> None:
    """Append a 'see also' block of absolute links to a page (links between hosts)."""
    items = "".join(
        f'<li><a href="{html.escape(u)}">{html.escape(_label(u))}</a></li>' for u in urls
    )
    block = f'<div class="elsewhere"><h4>Elsewhere on the web</h4><ul>{items}</ul></div>'
    text = site.pages[path].decode("utf-8")
    ends = list(_BODY_END.finditer(text))
    m = ends[-1] if ends else None
    if m is None:
        text += block
    else:
        text = text[: m.start()] + block + text[m.start() :]
    site.pages[path] = text.encode("utf-8")
    for u in urls:
        parts = urlsplit(u)
        if parts.netloc == site.host:
            site.links[path].append(parts.path)


def _label(url: str) -> str:
    parts = urlsplit(url)
    return parts.netloc + (parts.path if parts.path not in ("", "/") else "")


# --------------------------------------------------------------------------------------------
# Text for synthetic sites


_TAG = re.compile(r"<[^>]+>")
_SCRIPT = re.compile(r"<(script|style)\b.*?</\1>", re.I | re.S)
_PARA = re.compile(r"<p\b[^>]*>(.*?)</p>", re.I | re.S)


def paragraph_pool(
    names: tuple[str, ...] = ("nodejs", "bash", "sqlite"), limit: int = 6000
) -> list[str]:
    """Plain paragraphs (HTML-escaped) from documentation pages: text of synthetic pages."""
    pool: list[str] = []
    for name in names:
        root = DOC_SOURCES[name]
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.html")):
            text = _SCRIPT.sub(" ", path.read_bytes().decode("utf-8", "replace"))
            for m in _PARA.finditer(text):
                words = html.unescape(_TAG.sub(" ", m.group(1))).split()
                if len(words) >= 12:
                    pool.append(html.escape(" ".join(words)))
                if len(pool) >= limit * len(names):
                    break
    if not pool:
        raise SystemExit(
            "error: no text for synthetic pages: apt-get install nodejs-doc bash-doc sqlite3-doc"
        )
    return pool


# --------------------------------------------------------------------------------------------
# Synthetic sites


WORDS = (
    "alpine orchard harbor granite meadow copper willow lantern summit delta fjord tundra "
    "cedar basalt prairie canyon lagoon atlas beacon cobalt ember falcon glacier heron "
    "indigo juniper kestrel linden marble nectar onyx pepper quartz raven saffron thistle "
    "umber violet walnut yarrow zephyr birch clover dune fern grove hazel iris jade kelp"
).split()
TLDS = ("com", "org", "net", "io", "de", "fr", "co.uk", "info", "edu", "nl")


def host_name(rng: random.Random, taken: set[str]) -> str:
    while True:
        name = f"{rng.choice(WORDS)}{rng.choice(['', '-', ''])}{rng.choice(WORDS)}"
        prefix = rng.choice(["www.", "www.", "", "blog.", "shop.", "news."])
        host = f"{prefix}{name}.{rng.choice(TLDS)}.test"
        if host not in taken:
            taken.add(host)
            return host


@dataclass
class SynthSite:
    host: str
    n_pages: int
    page_sizes: list[int]  # target body size in bytes per page
    paragraphs: list[
        int
    ]  # per page: index of its first paragraph in the pool (then consecutive ones)
    internal: list[list[int]]  # page numbers linked
    external: list[list[str]]  # absolute URLs linked
    broken: list[list[str]] = field(default_factory=list)  # internal paths that 404
    title: str = ""

    def path(self, i: int) -> str:
        return "/" if i == 0 else f"/p/{i}.html"

    def page_index(self, path: str) -> int | None:
        if path in ("/", "/index.html"):
            return 0
        if path.startswith("/p/") and path.endswith(".html"):
            try:
                i = int(path[3:-5])
            except ValueError:
                return None
            if 0 < i < self.n_pages:
                return i
        return None


def render_synth_page(site: SynthSite, i: int, pool: list[str]) -> bytes:
    nav = "".join(
        f'<li><a href="{site.path(j)}">{site.title} part {j}</a></li>' for j in site.internal[i]
    )
    ext = "".join(
        f'<li><a href="{html.escape(u)}">{html.escape(_label(u))}</a></li>'
        for u in site.external[i]
    )
    broken = "".join(
        f'<li><a href="{p}">archive {p}</a></li>' for p in (site.broken[i] if site.broken else ())
    )
    head = (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{site.title} - page {i}</title>'
        f'<link rel="stylesheet" href="/static/site.css"></head><body>'
        f'<header><a href="/">{site.title}</a></header><nav><ul>{nav}</ul></nav>'
        f"<main><h1>{site.title} {i}</h1>"
    )
    tail = (
        f"</main><aside><h3>Links</h3><ul>{ext}{broken}</ul></aside>"
        f"<footer>(c) {site.host}</footer></body></html>"
    )
    parts = [head]
    size = len(head) + len(tail)
    first = site.paragraphs[i]
    for k in range(first, first + 400):
        para = pool[k % len(pool)]
        parts.append(f"<p>{para}</p>")
        size += len(para) + 7
        if size >= site.page_sizes[i]:
            break
    parts.append(tail)
    return "".join(parts).encode("utf-8")


def lognormal_size(rng: random.Random, median: float = 28_000, sigma: float = 0.75) -> int:
    return int(min(150_000, max(5_000, rng.lognormvariate(math.log(median), sigma))))


# --------------------------------------------------------------------------------------------
# Dead outside hosts


DEAD_KINDS = ("refused", "dns", "hang")


@dataclass
class DeadHost:
    host: str
    kind: str  # refused: connection closed at once; dns: 502 at once; hang: 504 after hang_s
    hang_s: float = 0.0


# --------------------------------------------------------------------------------------------
# The webs


@dataclass
class Web:
    name: str
    seed: int
    docs: dict[str, DocSite]
    synth: dict[str, SynthSite]
    dead: dict[str, DeadHost]
    robots: dict[str, bytes | None]  # host -> robots.txt body (None: 404)
    slow: dict[tuple[str, str], float]  # (host, path) -> extra seconds
    seeds: list[str]
    latency: float = 0.0
    stall_host: str | None = None  # 503site: the host answering 503 the first time
    pool: list[str] = field(default_factory=list)

    def describe(self) -> str:
        doc_pages = sum(len(s.pages) for s in self.docs.values())
        syn_pages = sum(s.n_pages for s in self.synth.values())
        return (
            f"web {self.name} seed {self.seed}: {len(self.docs)} documentation hosts "
            f"({doc_pages} pages), "
            f"{len(self.synth)} synthetic hosts ({syn_pages} pages), {len(self.dead)} dead hosts, "
            f"{len(self.slow)} slow pages, latency {self.latency} s"
        )

    def host_pages(self, host: str) -> int:
        if host in self.docs:
            return len(self.docs[host].pages)
        if host in self.synth:
            return self.synth[host].n_pages
        return 0


def is_503_first(seed: int, path: str) -> bool:
    """503site: the pages that answer 503 + Retry-After: 1 the first time (one in ten)."""
    return path != "/robots.txt" and stable_hash(seed, "503", path) % 10 == 0


def _cached(key: str, build):
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    file = CACHE_DIR / f"{hashlib.sha1(key.encode()).hexdigest()[:16]}.pickle"
    if file.exists():
        try:
            with file.open("rb") as fh:
                return pickle.load(fh)
        except Exception:
            pass
    value = build()
    tmp = file.with_suffix(f".{os.getpid()}.tmp")
    with tmp.open("wb") as fh:
        pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, file)
    return value


def build_503site(seed: int = 31) -> Web:
    check_sources("cmake")

    def build() -> Web:
        site = load_doc_site("cmake", STALL_HOST, exclude_dirs=("variable",))
        return Web(
            name="503site",
            seed=seed,
            docs={STALL_HOST: site},
            synth={},
            dead={},
            robots={STALL_HOST: b"User-agent: *\nDisallow: /search.html\n"},
            slow={},
            seeds=[f"http://{STALL_HOST}/index.html"],
            stall_host=STALL_HOST,
        )

    web = _cached(f"503site-{BUILD_VERSION}", build)  # the pages do not depend on the seed
    web.seed = seed  # which pages answer 503 first
    return web


def build_realweb(
    seed: int = 29,
    skewed: bool = False,
    latency: float = 0.0,
    n_small: int | None = None,
    skew: float = 1.0,
) -> Web:
    """The real-web-like web (``skewed``: synthetic hosts with Zipf sizes, for the agents)."""
    if skewed:
        check_sources("nodejs", "bash", "sqlite")
    else:
        check_sources("cmake", "sqlite", "rust", "pandas", "nodejs", "bash")

    def build() -> Web:
        rng = random.Random(seed)
        pool = paragraph_pool()
        taken: set[str] = set()
        docs: dict[str, DocSite] = {}
        if not skewed:
            docs["www.cmake-docs.test"] = load_doc_site(
                "cmake", "www.cmake-docs.test", keep_broken_share=0.02, seed=seed
            )
            docs["doc.rust-std.test"] = load_doc_site(
                "rust",
                "doc.rust-std.test",
                include_dirs=("std", "core", "alloc"),
                start="/std/index.html",
                max_pages=6000,
                keep_broken_share=0.02,
                seed=seed,
            )
            docs["pandas.pydata-docs.test"] = load_doc_site(
                "pandas",
                "pandas.pydata-docs.test",
                max_pages=5000,
                keep_broken_share=0.02,
                seed=seed,
            )
            docs["www.sqlite-docs.test"] = load_doc_site(
                "sqlite", "www.sqlite-docs.test", keep_broken_share=0.02, seed=seed
            )
            taken.update(docs)
        # synthetic sites
        synth: dict[str, SynthSite] = {}
        if skewed:
            n_sites = n_small or 400
            sizes = [
                max(1, int(6000 / (r + 1) ** skew)) for r in range(n_sites)
            ]  # Zipf: top 10 hosts hold half the pages
            rng.shuffle(sizes)
        else:
            n_sites = n_small or 320
            sizes = [
                min(30, max(1, int(rng.paretovariate(1.1))))
                if rng.random() < 0.9
                else rng.randint(10, 30)
                for _ in range(n_sites)
            ]
        hosts = [host_name(rng, taken) for _ in range(n_sites)]
        # dead outside hosts
        dead: dict[str, DeadHost] = {}
        for k in range(60 if not skewed else 20):
            h = host_name(rng, taken)
            kind = DEAD_KINDS[0] if k % 10 < 5 else DEAD_KINDS[1] if k % 10 < 9 else DEAD_KINDS[2]
            dead[h] = DeadHost(
                h, kind, hang_s=round(rng.uniform(2.0, 5.0), 2) if kind == "hang" else 0.0
            )
        dead_list = sorted(dead)
        # popularity of hosts for links between hosts: a few hosts get most in-links
        weights = (
            [1.0 / (r + 1) for r in range(n_sites)] if not skewed else [math.sqrt(x) for x in sizes]
        )
        doc_urls: list[str] = []
        for h, s in docs.items():
            for p in sorted(s.pages)[:: max(1, len(s.pages) // 40)]:
                doc_urls.append(f"http://{h}{p}")
        host_rank = {h: n for n, h in enumerate(hosts)}
        for n, h in enumerate(hosts):
            count = sizes[n]
            prng = random.Random(stable_hash(seed, h))
            title = h.split(".")[-3 if h.count(".") >= 3 else 0].replace("-", " ").title()
            page_sizes = [
                lognormal_size(prng) if not skewed else lognormal_size(prng, 15_000, 0.5)
                for _ in range(count)
            ]
            paras = [prng.randrange(len(pool)) for _ in range(count)]
            internal: list[list[int]] = []
            external: list[list[str]] = []
            broken: list[list[str]] = []
            for i in range(count):
                if count <= 12:
                    links = [j for j in range(count) if j != i]
                else:
                    links = sorted(
                        {
                            0,
                            (i + 1) % count,
                            (i - 1) % count,
                            *prng.sample(range(count), min(count, 8)),
                        }
                        - {i}
                    )
                internal.append(links)
                ext: list[str] = []
                for _ in range(prng.choice((0, 1, 1, 2, 2, 3, 4))):
                    r = prng.random()
                    if r < 0.55:
                        other = prng.choices(hosts, weights)[0]
                        if other != h:
                            osize = sizes[host_rank[other]]
                            j = 0 if prng.random() < 0.6 or osize == 1 else prng.randrange(1, osize)
                            ext.append(f"http://{other}" + ("/" if j == 0 else f"/p/{j}.html"))
                    elif r < 0.75 and doc_urls:
                        ext.append(prng.choice(doc_urls))
                    elif r < 0.93:
                        ext.append(f"http://{prng.choice(dead_list)}/")
                    else:
                        ext.append(
                            f"https://{prng.choice(hosts)}/"
                        )  # https: CONNECT, refused by the proxy
                external.append(ext)
                broken.append([f"/old/{prng.randrange(1000)}.html"] if prng.random() < 0.04 else [])
            synth[h] = SynthSite(h, count, page_sizes, paras, internal, external, broken, title)
        # links from documentation pages to other hosts
        for h, s in docs.items():
            drng = random.Random(stable_hash(seed, "doc", h))
            for p in sorted(s.pages):
                if drng.random() < 0.08:
                    urls = []
                    for _ in range(drng.randint(1, 3)):
                        if drng.random() < 0.7:
                            urls.append(f"http://{drng.choices(hosts, weights)[0]}/")
                        else:
                            urls.append(f"http://{drng.choice(dead_list)}/")
                    inject_links(s, p, urls)
        # robots.txt: most small hosts none (404), some allow all, some disallow a section
        robots: dict[str, bytes | None] = {}
        for h in docs:
            robots[h] = b"User-agent: *\nDisallow: /search.html\nDisallow: /_sources/\n"
        for h in hosts:
            r = unit(seed, "robots", h)
            if r < 0.6:
                robots[h] = None
            elif r < 0.9:
                robots[h] = b"User-agent: *\nDisallow:\n"
            else:
                robots[h] = b"User-agent: *\nDisallow: /private/\n"
        # slow pages: about 1 in 100, 0.5-3 s
        slow: dict[tuple[str, str], float] = {}
        if not skewed:
            for h, s in docs.items():
                for p in s.pages:
                    if unit(seed, "slow", h, p) < 0.01:
                        slow[(h, p)] = round(0.5 + 2.5 * unit(seed, "slowt", h, p), 2)
            for h, s in synth.items():
                for i in range(s.n_pages):
                    if unit(seed, "slow", h, i) < 0.01:
                        slow[(h, s.path(i))] = round(0.5 + 2.5 * unit(seed, "slowt", h, i), 2)
        if skewed:
            by_size = sorted(hosts, key=lambda x: -synth[x].n_pages)
            seeds = [f"http://{h}/" for h in by_size[:3]] + [f"http://{h}/" for h in hosts[:7]]
        else:
            seeds = [f"http://{h}{s.start}" for h, s in docs.items()] + [
                f"http://{h}/" for h in hosts[:6]
            ]
        seen: set[str] = set()
        seeds = [u for u in seeds if not (u in seen or seen.add(u))]
        return Web(
            name="skewed" if skewed else "realweb",
            seed=seed,
            docs=docs,
            synth=synth,
            dead=dead,
            robots=robots,
            slow=slow,
            seeds=seeds,
            pool=pool,
        )

    name = "skewed" if skewed else "realweb"
    key = f"{name}-{BUILD_VERSION}-{seed}-{n_small}-{skew if skewed else ''}"
    web = _cached(key, build)
    web.latency = latency
    return web


def build(
    name: str,
    seed: int | None = None,
    latency: float = 0.0,
    n_small: int | None = None,
    skew: float = 1.0,
) -> Web:
    if name == "503site":
        return build_503site(31 if seed is None else seed)
    if name == "realweb":
        return build_realweb(29 if seed is None else seed, latency=latency, n_small=n_small)
    if name == "skewed":
        return build_realweb(
            32 if seed is None else seed, skewed=True, latency=latency, n_small=n_small, skew=skew
        )
    raise SystemExit(f"error: unknown web {name!r} (503site, realweb, skewed)")


def reachable_pages(web: Web) -> dict[str, set[str]]:
    """Pages reachable from the seeds through served links, per host (robots.txt ignored)."""
    out: dict[str, set[str]] = {}
    todo: list[tuple[str, str]] = []
    for u in web.seeds:
        p = urlsplit(u)
        todo.append((p.netloc, p.path or "/"))
    seen = set(todo)
    while todo:
        host, path = todo.pop()
        targets: list[tuple[str, str]] = []
        if host in web.docs:
            site = web.docs[host]
            if path not in site.pages:
                continue
            targets = [(host, t) for t in site.links.get(path, ())]
        elif host in web.synth:
            s = web.synth[host]
            i = s.page_index(path)
            if i is None:
                continue
            targets = [(host, s.path(j)) for j in s.internal[i]]
            for u in s.external[i]:
                pu = urlsplit(u)
                if pu.scheme == "http":
                    targets.append((pu.netloc, pu.path or "/"))
        else:
            continue
        if _disallowed(web.robots.get(host), path):
            continue
        out.setdefault(host, set()).add(path)
        for t in targets:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return out


def _disallowed(robots: bytes | None, path: str) -> bool:
    """Prefix rules of the webs' own robots.txt files (they only use 'User-agent: *')."""
    if not robots:
        return False
    for line in robots.decode().splitlines():
        key, _, value = line.partition(":")
        value = value.strip()
        if key.strip().lower() == "disallow" and value and path.startswith(value):
            return True
    return False
