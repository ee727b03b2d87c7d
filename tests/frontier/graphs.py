"""Hand-built link graphs and a driver that crawls them through a Frontier, one page at a
time, as the spider and the scheduler would (same link events, same acks)."""

from __future__ import annotations

from urllib.parse import urlsplit

from crawler.frontier.frontier import Frontier
from crawler.frontier.scores import link_event, make_strategy, page_link_kinds, seed_stats
from crawler.frontier.seen import url_fingerprint
from crawler.frontier.store import FrontierStore
from tests.frontier.memory_store import MemoryStore

S, P, Q, R = "http://a.test/", "http://a.test/p", "http://a.test/q", "http://a.test/r"
S2, T = "http://a.test/s", "http://a.test/t"
B, U = "http://b.test/", "http://b.test/u"
C, V = "http://c.test/", "http://c.test/v"

# Three registered domains. S (the seed) links to two pages of its own domain and to B;
# p has many links (small OPIC shares), q a single one (a big share), B links back.
GRAPH: dict[str, list[str]] = {
    S: [P, Q, B],
    P: [R, S2, T, B],
    Q: [C],
    B: [U, R],
    C: [V],
    R: [],
    S2: [],
    T: [],
    U: [],
    V: [],
}

NAMES = {S: "S", P: "p", Q: "q", R: "r", S2: "s", T: "t", B: "B", U: "u", C: "C", V: "v"}

# The dequeue order of each strategy on GRAPH, worked out by hand in test_order.py.
EXPECTED_ORDER = {
    "bfs": "S p q B r s t C u v",
    "dfs": "S B r u q C v p t s",
    "backlink": "S p B r q s t u C v",
    "opic": "S p B q C v r u s t",
    "interintra": "S B r p s t q u C v",
    "bestfirst": "S B p r q C v u s t",
}


def host(url: str) -> str:
    return urlsplit(url).hostname or ""


def always_ready(host: str) -> float:
    return 0.0


def make_frontier(strategy: str, store: FrontierStore | None = None, **kwargs) -> Frontier:
    return Frontier(
        store if store is not None else MemoryStore(),
        make_strategy(strategy),
        serialize=lambda request, url: url.encode(),
        **kwargs,
    )


async def drain(frontier: Frontier) -> list[str]:
    """Pop and ack every queued URL (refilling from the store); the URLs in order."""
    order = []
    while frontier.has_pending():
        if frontier.needs_refill():
            await frontier.refill()
        entry = frontier.pop(always_ready)
        order.append(entry.url)
        frontier.done(entry)
    return order


def add_seed(frontier: Frontier, url: str, priority: int = 1) -> bool:
    return frontier.add(
        url_fingerprint(url), url, host(url), priority, seed_stats(), True, url
    )


def add_links(frontier: Frontier, source, links: list[str], position: int = 3) -> list[bool]:
    """The link events of a fetched page ``source`` (a popped entry)."""
    n_inter, n_intra, inter = page_link_kinds(source.url, links)
    added = []
    for url in links:
        event = link_event(
            depth=source.stats.depth + 1, n_inter=n_inter, n_intra=n_intra, inter=inter[url],
            visibility=1, position=position,
            distance=5 if host(url) != host(source.url) else 1, source_cash=source.stats.cash,
        )
        added.append(frontier.add(
            url_fingerprint(url), url, host(url), 0, event, inter[url], url, link=True
        ))
    return added


async def crawl(
    frontier: Frontier, graph: dict[str, list[str]], seeds: list[str], *,
    flush_every: int = 1, limit: int | None = None,
) -> list[str]:
    """Fetch one page at a time, best first; returns the URLs in the order fetched."""
    for seed in seeds:
        add_seed(frontier, seed)
    order: list[str] = []
    while frontier.has_pending() and (limit is None or len(order) < limit):
        entry = frontier.pop(always_ready)
        if entry is None:
            await frontier.flush()
            await frontier.refill()
            entry = frontier.pop(always_ready)
            assert entry is not None, "pending URLs but nothing to pop"
        url = entry.request if entry.request is not None else entry.payload.decode()
        order.append(url)
        add_links(frontier, entry, graph.get(url, []))
        frontier.done(entry)
        if len(order) % flush_every == 0:
            await frontier.flush()
            if frontier.needs_refill():
                await frontier.refill()
    return order


def names(urls: list[str]) -> str:
    return " ".join(NAMES.get(u, u) for u in urls)


def site_web(hosts: int = 4, pages: int = 30, delay: float = 0.0, seed: int = 3):
    """A small web: ``hosts`` sites of ``pages`` pages; every page links to its home page,
    to 3 pages of its site and to 1 page of another site. Returns (web, seeds)."""
    import random

    from crawler.sandbox import SandboxWeb, html_page

    rng = random.Random(seed)
    words = [f"{a}{b}" for a in ("ka", "lo", "mi", "nu", "pe", "ro", "su", "ti")
             for b in ("bar", "cel", "dov", "fen", "gur", "hal", "jin", "kor")]

    def text() -> str:  # distinct pages: the content-seen test must not drop any
        return "<p>" + " ".join(rng.choice(words) for _ in range(120)) + "</p>"

    def anchors(links: list[str]) -> str:
        return "<p>" + " ".join(f'<a href="{u}">{u}</a>' for u in links) + "</p>"

    names = [f"http://site{h}.test" for h in range(hosts)]
    web = SandboxWeb()
    for h, base in enumerate(names):
        home_links = [f"{base}/p{i}" for i in range(0, pages, 3)]
        web.add_page(f"{base}/", html_page(base, anchors(home_links) + text()), delay=delay)
        for i in range(pages):
            links = [f"{base}/"] + [f"{base}/p{rng.randrange(pages)}" for _ in range(3)]
            other = names[(h + 1 + rng.randrange(hosts - 1)) % hosts]
            links.append(f"{other}/p{rng.randrange(pages)}")
            web.add_page(f"{base}/p{i}", html_page(f"{base} {i}", anchors(links) + text()),
                         delay=delay)
    return web, [f"{names[0]}/"]
