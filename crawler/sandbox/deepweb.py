"""Deterministic sandbox web of small sites with forms, for the smart (deep-web) crawler.

:func:`build_deepweb` makes a directory site (the seed) and ``sites_per_topic`` small
sites of each topic. About a third of the sites hold a searchable form (a site search or
an advanced search) 0 to 3 links from their home page, behind links that name it
("Advanced search", ``/search/``) or behind links that do not (``/s2/more-3.html``); every
site also has forms that are not searchable: a login, a newsletter sign-up, comment forms
under articles, a contact form. The directory links a third of the sites, drawn whatever
their forms; the sites link sparsely to each other (mostly within their topic); every
site is reachable from the directory. One site of the first topic keeps its search
program under ``/cgi-bin/``, which its robots.txt disallows.
The ground truth is in :class:`DeepWeb`.
"""

from __future__ import annotations

import html
from collections import deque
from dataclasses import dataclass, field
from random import Random

from crawler.sandbox.synthetic import COMMON_WORDS, TOPIC_WORDS
from crawler.sandbox.web import Resource, SandboxWeb, canonical, html_page

DIRECTORY_HOST = "www.sitedirectory.test"

#: topic -> words its pages are made of (a third of a page's words)
DEEPWEB_TOPIC_WORDS: dict[str, list[str]] = {
    "books": """book books novel author reading library paperback hardcover fiction
        poetry publisher chapter bestseller literature biography isbn edition bookshop
        bookstore shelf reader mystery thriller classic anthology manuscript""".split(),
    **{topic: [w.replace("-", " ") for w in TOPIC_WORDS[topic]]
       for topic in ("cooking", "finance", "football", "gardening")},
}
DEEPWEB_TOPICS = tuple(DEEPWEB_TOPIC_WORDS)
_NAMES = """amber birch cedar delta ember fjord garnet harbor indigo juniper kestrel lumen
    maple nimbus onyx pinnacle quartz raven sierra tundra umber vesper willow xenon yarrow
    zephyr aspen bramble cobalt dune""".split()


#: a page being built: title, parts of its body (links to other sites are appended), forms
_StoredPage = tuple[str, list[str], str]


@dataclass
class SiteSpec:
    host: str
    topic: str
    form_depth: int | None  # links from home to the searchable form; None: no such form
    form_named: bool  # the links to it name it ("search")
    form_page: str | None  # URL of the page holding the searchable form
    form_action: str | None  # its absolute action URL
    pages: list[str] = field(default_factory=list)


@dataclass
class DeepWeb:
    web: SandboxWeb
    directory: str  # the seed: the directory's home page
    sites: list[SiteSpec]

    @property
    def seeds(self) -> list[str]:
        return [self.directory]

    def site(self, host: str) -> SiteSpec:
        return next(s for s in self.sites if s.host == host)

    def searchable_forms(self, topic: str | None = None) -> dict[str, str]:
        """page URL -> action URL of the searchable forms (of one topic's sites)."""
        return {s.form_page: s.form_action for s in self.sites  # type: ignore[misc]
                if s.form_page and (topic is None or s.topic == topic)}

    def deep_sites(self, topic: str) -> list[str]:
        return sorted(s.host for s in self.sites if s.topic == topic and s.form_page)


def _text(rng: Random, topic: str, sentences: int) -> str:
    words = DEEPWEB_TOPIC_WORDS[topic]
    pool = COMMON_WORDS + words * max(1, len(COMMON_WORDS) // (2 * len(words)))
    out = []
    for _ in range(sentences):
        sentence = rng.choices(pool, k=rng.randint(8, 14))
        out.append(" ".join(sentence).capitalize() + ".")
    return " ".join(out)


def _search_form(rng: Random, topic: str, action: str, advanced: bool) -> str:
    words = DEEPWEB_TOPIC_WORDS[topic]
    if advanced:
        options = "".join(f'<option value="{w}">{w.title()}</option>' for w in words[:4])
        return (f'<form action="{action}" method="get" class="advanced-search">'
                f"<fieldset><legend>Advanced search</legend>"
                f'<label for="kw">Keywords</label><input type="text" id="kw" name="keywords">'
                f'<label for="cat">Category</label><select id="cat" name="category">'
                f'<option value="">Any</option>{options}</select>'
                f'<input type="submit" value="Find"></fieldset></form>')
    return (f'<form action="{action}" method="get" role="search">'
            f'<input type="search" name="q" placeholder="Search the {topic} catalogue">'
            f'<button type="submit">Search</button></form>')


_LOGIN = ('<form action="/account/login" method="post"><label for="u">Username</label>'
          '<input type="text" id="u" name="username"><label for="p">Password</label>'
          '<input type="password" id="p" name="password"><input type="submit" value="Log in">'
          "</form>")
_NEWSLETTER = ('<form action="/newsletter/subscribe" method="post" class="newsletter">'
               '<input type="email" name="email" placeholder="Your e-mail address">'
               '<input type="submit" value="Subscribe"></form>')
_COMMENT = ('<form action="/comments/post" method="post"><label for="n">Name</label>'
            '<input type="text" id="n" name="name"><label for="c">Comment</label>'
            '<textarea id="c" name="comment"></textarea><input type="submit" value="Post comment">'
            "</form>")
_CONTACT = ('<form action="/contact/send" method="post"><input type="text" name="name">'
            '<input type="email" name="email"><textarea name="message"></textarea>'
            '<input type="submit" value="Send message"></form>')


def _results_handler(topic: str, host: str):  # type: ignore[no-untyped-def]
    def handler(path: str, query: str) -> Resource:
        rng = Random(f"{host}{path}{query}")
        rows = "".join(f"<li>{html.escape(_text(rng, topic, 1))}</li>" for _ in range(3))
        body = f"<h1>Results</h1><p>Query: {html.escape(query)}</p><ul>{rows}</ul>"
        return Resource(html_page(f"Search results - {host}", body))
    return handler


def build_deepweb(seed: int = 1, sites_per_topic: int = 9) -> DeepWeb:
    """The sandbox deep web (see the module docstring); only depends on its arguments."""
    rng = Random(seed)
    web = SandboxWeb()
    names = list(_NAMES)
    rng.shuffle(names)
    specs: list[SiteSpec] = []
    for t_index, topic in enumerate(DEEPWEB_TOPICS):
        for i in range(sites_per_topic):
            number = t_index * sites_per_topic + i
            name = names[number % len(names)] + (
                str(number // len(names)) if number >= len(names) else "")
            # every third site holds a searchable form; over the topics at every depth
            # 0..3, behind named and unnamed links
            k = i // 3
            depth = (t_index + 3 * k) % 4 if i % 3 == 0 else None
            named = (t_index + k) % 2 == 0
            specs.append(SiteSpec(f"www.{name}.test", topic, depth, named, None, None))
    # one site's search program lives under /cgi-bin/, which its robots.txt disallows
    cgi = next(s for s in specs[1:] if s.form_depth is not None)
    stored: dict[str, _StoredPage] = {}
    for spec in specs:
        _build_site(web, spec, rng, stored, cgi_bin=spec is cgi)
        if spec is cgi:
            web.set_robots(spec.host, "User-agent: *\nDisallow: /cgi-bin/\n")
    _link_sites(stored, specs, rng)
    directory = f"http://{DIRECTORY_HOST}/"
    _build_directory(web, stored, specs, rng)
    return DeepWeb(web, directory, specs)


def _page(web: SandboxWeb, url: str, title: str, body: str) -> None:
    web.add_page(url, html_page(html.escape(title), body))


def _build_site(
    web: SandboxWeb, spec: SiteSpec, rng: Random, stored: dict[str, _StoredPage],
    cgi_bin: bool = False,
) -> None:
    """Home, two sections of three articles, a 'more' chain, login and contact pages;
    the searchable form where ``form_depth`` puts it. Links between sites are added to the
    bodies later (``{{OUT}}`` placeholders)."""
    host, topic = spec.host, spec.topic
    base = f"http://{host}"
    label = topic.title()
    words = DEEPWEB_TOPIC_WORDS[topic]
    results = "/cgi-bin/search" if cgi_bin else "/search/results"
    action = base + results
    advanced = rng.random() < 0.5
    form_html = _search_form(rng, topic, action, advanced) if spec.form_depth is not None else ""
    # the chain leading to the form: depth 0 is the home page itself
    if spec.form_depth is not None and spec.form_depth > 0:
        if spec.form_named:
            chain = ["/search/", "/search/help.html", "/search/advanced.html"][: spec.form_depth]
            anchors = ["Search the catalogue", "Search help", "Advanced search"]
        else:
            chain = ["/s2/", "/s2/more-1.html", "/s2/more-2.html"][: spec.form_depth]
            anchors = ["More", "Continue", "Next page"]
    else:
        chain, anchors = [], []
    sections = ["s1", "s3"] + ([] if chain and chain[0] == "/s2/" else ["s2"])
    pages: dict[str, _StoredPage] = {}  # path -> title, body parts, forms
    home_links = [f'<a href="/{s}/">{label} {words[k % len(words)]}</a>'
                  for k, s in enumerate(sections)]
    home_links += ['<a href="/account/login.html">Sign in</a>',
                   '<a href="/contact.html">Contact</a>']
    if chain:
        home_links.append(f'<a href="{chain[0]}">{anchors[0]}</a>')
    home_forms = _NEWSLETTER + (form_html if spec.form_depth == 0 else "")
    pages["/"] = (f"{label}: {' '.join(rng.sample(words, 2))} - {host}",
                  [f"<h1>{label}</h1><p>{_text(rng, topic, 6)}</p>",
                   "<ul>" + "".join(f"<li>{a}</li>" for a in home_links) + "</ul>"], home_forms)
    for section in sections:
        articles = [f"/{section}/{rng.choice(words).replace(' ', '-')}-{n}.html" for n in range(3)]
        links = "".join(f'<li><a href="{a}">{html.escape(_text(rng, topic, 1)[:40])}</a></li>'
                        for a in articles)
        pages[f"/{section}/"] = (f"{label} {section} - {host}",
                                 [f"<p>{_text(rng, topic, 3)}</p><ul>{links}</ul>"], "")
        for article in articles:
            pages[article] = (f"{' '.join(rng.sample(words, 3)).title()} - {host}",
                              [f"<p>{_text(rng, topic, 5)}</p>"], _COMMENT)
    pages["/account/login.html"] = (f"Sign in - {host}", ["<p>Members sign in here.</p>"], _LOGIN)
    pages["/contact.html"] = (f"Contact - {host}", [f"<p>{_text(rng, topic, 2)}</p>"], _CONTACT)
    for n, path in enumerate(chain):
        nxt = ""
        if n + 1 < len(chain):
            nxt = f'<p><a href="{chain[n + 1]}">{anchors[n + 1]}</a></p>'
        form = form_html if n + 1 == spec.form_depth else ""
        pages[path] = (f"{anchors[n]} - {host}", [f"<p>{_text(rng, topic, 2)}</p>{nxt}"], form)
    if spec.form_depth is not None:
        form_path = "/" if spec.form_depth == 0 else chain[spec.form_depth - 1]
        spec.form_page = canonical(base + form_path)
        spec.form_action = canonical(action)
        web.add_dynamic(host, results, _results_handler(topic, host))
    spec.pages = [canonical(base + path) for path in pages]
    web.host_topics[host] = topic
    for path, page in pages.items():
        stored[canonical(base + path)] = page


def _link_sites(stored: dict[str, _StoredPage], specs: list[SiteSpec], rng: Random) -> None:
    """Each site links two others from one of its pages (two in three of its own topic)."""
    for spec in specs:
        same = [s for s in specs if s.topic == spec.topic and s is not spec]
        other = [s for s in specs if s.topic != spec.topic]
        targets = []
        for _ in range(2):
            pool = same if rng.random() < 2 / 3 else other
            target = rng.choice(pool)
            if target not in targets:
                targets.append(target)
        for target in targets:
            page = rng.choice(spec.pages)
            title, parts, form = stored[page]
            words = " ".join(rng.sample(DEEPWEB_TOPIC_WORDS[target.topic], 2))
            parts.append(f'<p>See also <a href="http://{target.host}/">{words} at '
                         f"{target.host}</a> for more.</p>")


def _build_directory(
    web: SandboxWeb, stored: dict[str, _StoredPage], specs: list[SiteSpec], rng: Random
) -> None:
    """The directory lists a third of the sites, drawn whatever their forms, and every site
    not reachable otherwise; then every page is served."""
    listed = sorted(rng.sample(specs, len(specs) // 3), key=specs.index)
    edges: dict[str, set[str]] = {s.host: set() for s in specs}
    for url, (_, parts, _) in stored.items():
        host = url.split("/")[2]
        for spec in specs:
            if f"http://{spec.host}/" in "".join(parts) and spec.host != host:
                edges[host].add(spec.host)
    while True:
        seen = {s.host for s in listed}
        queue = deque(seen)
        while queue:
            for nxt in edges[queue.popleft()]:
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        missing = [s for s in specs if s.host not in seen]
        if not missing:
            break
        listed.append(missing[0])
    items = "".join(
        f'<li><a href="http://{s.host}/">{s.host}</a> '
        f'{html.escape(" ".join(rng.sample(DEEPWEB_TOPIC_WORDS[s.topic], 2)))}</li>'
        for s in listed
    )
    web.add_page(f"http://{DIRECTORY_HOST}/", html_page(
        "Site directory", f"<h1>Site directory</h1><p>Sites we know of.</p><ul>{items}</ul>"))
    for url, (title, parts, form) in stored.items():
        _page(web, url, title, "".join(parts) + form)


def smart_visits(deepweb: DeepWeb, topic: str) -> dict[str, list[str]]:
    """Ground truth of a smart crawl of ``topic`` whose stop rules let every on-topic site
    be explored to the end: site -> canonical URLs fetched (robots.txt left out). The
    directory and the sites of the topic are fetched whole (robots.txt obeyed), other
    sites' home pages only; a site is reached through the links of the pages fetched."""
    web = deepweb.web
    home = deepweb.directory
    queue = deque([home])
    visits: dict[str, list[str]] = {}
    while queue:
        start = queue.popleft()
        host = start.split("/")[2]
        if host in visits:
            continue
        whole = start == home or web.host_topics.get(host) == topic
        pages = [u for u in web.reachable([start]) if u.split("/")[2] == host
                 and web.robots_allows(u)] if whole else [start]
        visits[host] = sorted(pages)
        for page in pages:
            for link in web.outlinks(page):
                target = link.split("/")[2]
                if target != host and target not in visits:
                    queue.append(f"http://{target}/")
    return visits
