"""Deterministic synthetic web: topical sites, mirrors, robots rules, a spider trap, faults.

:func:`build_synthetic_web` returns a :class:`~crawler.sandbox.web.SandboxWeb` whose
content only depends on its arguments. Each feature draws from its own
``random.Random`` stream derived from the seed, so switching a feature off removes its
pages and links without reshuffling the rest of the web.
"""

from __future__ import annotations

import calendar
import datetime
import functools
import html
import itertools
import posixpath
import re
import struct
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from urllib.parse import urlsplit

from crawler.sandbox.web import Resource, SandboxWeb, canonical

COMMON_WORDS = """
the a an and or but of to in on at for with from by about as into over after before
between through during without within under again further then once here there when
where why how all any both each few more most other some such only own same so than
too very can will just should now also often usually always never sometimes every many
much new old good great small large long short early late first last next best better
simple practical useful common important different easy hard quick careful clear real
people time year day week way part place case point group number world life work hand
example question idea result reason problem change story experience detail choice plan
approach season guide review look note list step start end side level form kind type
make take find give use try keep help show think know learn read write build bring
follow consider explain describe discover prefer remember improve prepare compare share
""".split()

TOPIC_WORDS: dict[str, list[str]] = {
    "java": """java jvm class bytecode spring garbage-collector interface method object
        compiler javac maven gradle thread concurrency lambda stream generics annotation
        hibernate jdk jre heap stack classloader reflection exception servlet tomcat junit
        spring-boot kotlin inheritance polymorphism encapsulation package import static
        final synchronized hotspot jit virtual-machine jakarta microservice dependency
        injection bean jar serialization collections hashmap arraylist design-pattern
        refactoring openjdk record sealed module memory-leak profiler benchmark""".split(),
    "cooking": """recipe oven flour butter garlic onion tomato basil simmer saute roast
        bake dough pasta risotto sauce stock broth spice pepper salt olive-oil kitchen
        chef knife skillet braise marinade dessert chocolate sugar vanilla yeast bread
        cheese parmesan herbs thyme rosemary lemon vinegar grill soup stew noodles rice
        chicken beef vegetables seasoning whisk caramelize pastry crust fillet seafood
        salad dressing appetizer""".split(),
    "finance": """market stocks bond dividend inflation interest-rate investor portfolio
        equity yield earnings revenue profit bank central-bank currency exchange index
        shares valuation hedge-fund pension mortgage loan credit debt budget tax fiscal
        monetary recession growth gdp quarterly analyst trading volatility asset
        liquidity capital merger acquisition ipo commodity gold oil-price savings
        retirement broker futures""".split(),
    "football": """match goal striker midfielder defender goalkeeper coach league
        championship stadium penalty corner offside referee tactics formation pressing
        counterattack transfer fixture derby supporters trophy cup final header
        free-kick dribble assist clean-sheet winger captain squad training injury
        substitute kickoff halftime scoreline promotion relegation academy pitch tackle
        yellow-card red-card manager""".split(),
    "gardening": """garden soil compost seeds seedling mulch prune perennial annual shrub
        hedge lawn tomato-plant roses tulips bulbs watering irrigation greenhouse
        raised-bed fertilizer manure weeds pests aphids slugs pollinator bees blossom
        harvest vegetable-patch herbs potting-mix container trellis climbing shade
        sunlight frost germination cuttings propagation orchard fruit-trees spade trowel
        hoe wildflower meadow""".split(),
    "travel": """travel journey flight airport hotel hostel itinerary passport visa
        luggage backpack beach island mountain hiking trail museum cathedral old-town
        market train railway ferry road-trip guidebook tourist local-cuisine sightseeing
        sunset coast village city-break budget booking destination adventure landscape
        valley lake national-park tour souvenir border customs jet-lag timetable
        harbour""".split(),
    "photography": """camera lens aperture shutter iso exposure sensor tripod flash
        mirrorless dslr prime-lens zoom-lens focal-length bokeh composition portrait
        landscape macro raw lightroom editing histogram white-balance filter polarizer
        autofocus megapixels viewfinder battery memory-card strap lighting softbox studio
        print gallery framing contrast saturation monochrome long-exposure night-sky
        telephoto wide-angle stabilization firmware accessory""".split(),
    "events": """event calendar concert festival exhibition workshop meeting conference
        schedule agenda ticket venue speaker opening closing registration reminder weekly
        monthly session""".split(),
}

TOPIC_SECTIONS: dict[str, list[str]] = {
    "java": ["tutorials", "jvm", "frameworks", "tools"],
    "cooking": ["recipes", "techniques", "ingredients", "kitchen"],
    "finance": ["markets", "economy", "companies", "personal-finance"],
    "football": ["matches", "transfers", "tactics", "clubs"],
    "gardening": ["vegetables", "flowers", "lawn-care", "equipment"],
    "travel": ["destinations", "guides", "tips", "stories"],
    "photography": ["cameras", "lenses", "accessories", "workshops"],
}

TOPIC_LABELS: dict[str, str] = {
    "java": "Java programming and the JVM",
    "cooking": "Cooking and recipes",
    "finance": "Finance and markets",
    "football": "Football news",
    "gardening": "Gardening",
    "travel": "Travel guides",
    "photography": "Photography gear",
}

#: Content hosts and their topics; ``topics=`` of :func:`build_synthetic_web` overrides them.
DEFAULT_SITES: dict[str, str] = {
    "www.alpha.test": "cooking",
    "news.alpha.test": "finance",
    "www.beta.test": "football",
    "blog.gamma.test": "gardening",
    "www.delta.test": "travel",
    "shop.epsilon.test": "photography",
    "www.javadev.test": "java",
}

PORTAL_HOST = "www.portal.test"
MIRROR_HOST = "mirror.alpha.test"
NEAR_MIRROR_HOST = "www.recipe-archive.test"
TRAP_HOST = "calendar.trap.test"
TRAP_ENTRY = f"http://{TRAP_HOST}/cal/2026/11"
DEAD_HOST = "www.gone.test"
ROBOTS_5XX_HOST = "old.delta.test"

# Role of each default host in the special features (they keep it when topics change).
_MIRRORED_HOST = "www.alpha.test"
_MEMBERS_HOST = "www.beta.test"
_DRAFTS_HOST = "blog.gamma.test"
_BASE_HREF_HOST = "www.delta.test"
_NO_EXTENSION_HOSTS = frozenset({"www.javadev.test"})
_FIXED_SECTION_SIZES = {(_MIRRORED_HOST, 0): 19}
_EXTRA_SECTIONS = {_MEMBERS_HOST: ("members", 6), _DRAFTS_HOST: ("drafts", 6)}
_NAV_FORMS = ("root", "relative", "absolute")
_HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+")
_PER_INDEX_PAGE = 10
# About as many pages per section as a default site has (60-110 pages, 4 sections).
_PAGES_PER_SECTION = 25
#: smallest ``site_sizes`` value (the sections' minimum of 3 articles must fit)
MIN_SITE_PAGES = 40

_AUTHORS = ["Ann Miller", "Bo Chen", "Carla Ruiz", "Dev Patel", "Eva Novak", "Femi Okafor",
            "Greta Lund", "Hiro Sato", "Ines Costa", "Jon Berg"]
_STYLES = ("", "", "", "", "", "b", "strong", "i", "em", "bi", "style-bold", "style-italic",
           "span-bold")
_GENERIC_ANCHORS = ["read more", "here", "this article", "continue reading", "details"]


@dataclass
class _Link:
    target: str  # absolute canonical URL
    text: str
    form: str = "absolute"  # absolute | root | relative | protocol
    fragment: str = ""
    style: str = ""


@dataclass
class _Page:
    url: str
    host: str
    path: str
    topic: str
    kind: str  # home | section | article
    title: str
    section: str | None = None
    date: str = "2025-01-01"
    author: str = ""
    paragraphs: list[list[str | _Link]] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)
    nav: list[_Link] = field(default_factory=list)
    listing: list[_Link] = field(default_factory=list)
    areas: list[_Link] = field(default_factory=list)
    listed: list[_Page] = field(default_factory=list)  # articles on a section index page
    base: str | None = None
    mirrored: bool = False
    toc: bool = False


@dataclass
class _Site:
    host: str
    topic: str
    home: _Page
    sections: dict[str, _Page]
    indexes: list[_Page]  # section index pages, including the paginated ones
    articles: list[_Page]
    nav_form: str

    @property
    def pages(self) -> list[_Page]:
        return [self.home, *self.indexes, *self.articles]


# -- text ------------------------------------------------------------------------------


_POOLS: dict[str, list[str]] = {}


def _pool(topic: str) -> list[str]:
    """Word pool where about a third of the draws are topic words."""
    pool = _POOLS.get(topic)
    if pool is None:
        topical = [word.replace("-", " ") for word in TOPIC_WORDS[topic]]
        pool = COMMON_WORDS + topical * max(1, round(len(COMMON_WORDS) / 2 / len(topical)))
        _POOLS[topic] = pool
    return pool


def _sentence(rng: Random, topic: str) -> list[str]:
    words = rng.choices(_pool(topic), k=rng.randint(7, 16))
    words[0] = words[0].capitalize()
    words[-1] += "."
    return words


def _paragraph(rng: Random, topic: str) -> list[str | _Link]:
    tokens: list[str | _Link] = []
    for _ in range(rng.randint(2, 5)):
        tokens.extend(_sentence(rng, topic))
    return tokens


def _title(rng: Random, topic: str) -> str:
    words = rng.sample(TOPIC_WORDS[topic], rng.randint(2, 3))
    if rng.random() < 0.5:
        words.insert(rng.randint(0, len(words)), rng.choice(COMMON_WORDS))
    return " ".join(w.replace("-", " ") for w in words).title()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _date(rng: Random) -> str:
    day = datetime.date(2023, 1, 1) + datetime.timedelta(days=rng.randrange(1000))
    return day.isoformat()


def _fill_text(page: _Page, rng: Random) -> None:
    count = rng.randint(4, 8) if page.kind == "article" else rng.randint(2, 3)
    page.paragraphs = [_paragraph(rng, page.topic) for _ in range(count)]
    page.headings = [_title(rng, page.topic) for _ in range((count + 1) // 2)]
    page.date = _date(rng)
    page.author = rng.choice(_AUTHORS)
    page.toc = page.kind == "article" and rng.random() < 0.3


def _insert_link(page: _Page, link: _Link, rng: Random, third: int | None = None) -> None:
    """Insert ``link`` at a word boundary of a paragraph in the given third of the body."""
    count = len(page.paragraphs)
    if third is None:
        index = rng.randrange(count)
    else:
        lo = count * third // 3
        hi = max(count * (third + 1) // 3, lo + 1)
        index = rng.randrange(lo, min(hi, count))
    tokens = page.paragraphs[index]
    tokens.insert(rng.randint(0, len(tokens)), link)


# -- structure -------------------------------------------------------------------------


def _section_names(topic: str, pages: int | None) -> list[str]:
    """Section names of a site: the topic's own four, and for a site of ``pages`` pages
    more sections (named after topic words) so each holds about as many articles as on a
    default site: a big site is wider, not deeper."""
    names = list(TOPIC_SECTIONS[topic])
    if pages is not None:
        wanted = max(len(names), round(pages / _PAGES_PER_SECTION))
        for word in TOPIC_WORDS[topic]:
            if len(names) >= wanted:
                break
            name = _slug(word)
            if name not in names and name not in ("members", "drafts"):
                names.append(name)
    return names


def _build_sites(
    rng: Random,
    site_topics: Mapping[str, str],
    site_sizes: Mapping[str, int] | None = None,
    neutral_urls: Mapping[str, str] | None = None,
) -> list[_Site]:
    """Sites in ``site_topics`` order. ``neutral_urls`` (content host -> name it is served
    under) gives those sites word-free directories and article paths; the random draws
    are the same either way, so only the URLs differ."""
    sites = []
    site_sizes = site_sizes or {}
    neutral_urls = neutral_urls or {}
    for position, (key, topic) in enumerate(site_topics.items()):
        host = neutral_urls.get(key, key)
        neutral = key in neutral_urls
        ext = "" if key in _NO_EXTENSION_HOSTS else ".html"
        nav_form = _NAV_FORMS[position % len(_NAV_FORMS)]
        names = _section_names(topic, site_sizes.get(key))
        # topic sections get directories s1, s2, ... on a neutral site (the extra members
        # and drafts sections keep theirs: robots.txt rules name them)
        dirs = {name: f"s{index}" if neutral else name for index, name in enumerate(names, 1)}
        sizes: dict[str, int] = {}
        extra = _EXTRA_SECTIONS.get(key)
        # always drawn, so without site_sizes the web comes from the same random stream
        drawn = rng.randint(60, 110)
        pages = site_sizes.get(key, drawn)
        total_articles = pages - 1 - len(names) - (1 if extra else 0)
        for index, name in enumerate(names):
            fixed = _FIXED_SECTION_SIZES.get((key, index))
            if fixed is not None:
                sizes[name] = fixed
        if extra:
            names.append(extra[0])
            sizes[extra[0]] = extra[1]
            dirs[extra[0]] = extra[0]
        free = [name for name in names if name not in sizes]
        remaining = total_articles - sum(sizes.values())
        for name in free:
            sizes[name] = 3
        for _ in range(remaining - 3 * len(free)):
            sizes[rng.choice(free)] += 1

        home = _Page(f"http://{host}/", host, "/", topic, "home",
                     f"{TOPIC_LABELS[topic]} - {host}")
        sections: dict[str, _Page] = {}
        indexes: list[_Page] = []
        articles: list[_Page] = []
        slugs: set[str] = set()
        for name in names:
            label = name.replace("-", " ").title()
            in_section = []
            for _ in range(sizes[name]):
                title = _title(rng, topic)
                slug = _slug(title)
                while slug in slugs:
                    slug = f"{slug}-{rng.randint(2, 99)}"
                slugs.add(slug)
                # a neutral site numbers its articles (the slug is drawn all the same)
                path = f"/{dirs[name]}/{len(slugs) if neutral else slug}{ext}"
                in_section.append(_Page(f"http://{host}{path}", host, path, topic, "article",
                                        title, section=name))
            articles += in_section
            # Paginated listings make the web deeper than home -> section -> article.
            for number, start in enumerate(range(0, len(in_section), _PER_INDEX_PAGE), 1):
                path = f"/{dirs[name]}/" if number == 1 else f"/{dirs[name]}/page-{number}{ext}"
                title = f"{label} - {host}" if number == 1 else f"{label} (page {number}) - {host}"
                index = _Page(f"http://{host}{path}", host, path, topic, "section", title,
                              section=name, listed=in_section[start:start + _PER_INDEX_PAGE])
                indexes.append(index)
                sections.setdefault(name, index)
        if key == _MIRRORED_HOST:
            for page in indexes + articles:
                page.mirrored = page.section == names[0]
        sites.append(_Site(host, topic, home, sections, indexes, articles, nav_form))
    return sites


def _zipf_weights(count: int, exponent: float = 1.1) -> list[float]:
    return list(itertools.accumulate(1.0 / (rank + 1) ** exponent for rank in range(count)))


def _anchor(rng: Random, target: _Page) -> str:
    if rng.random() < 0.1:
        return rng.choice(_GENERIC_ANCHORS)
    words = target.title.split(" - ")[0].lower().split()
    return " ".join(words[: rng.randint(2, max(2, len(words)))])


def _link_sites(rng: Random, sites: list[_Site]) -> None:
    """Navigation, listings and Zipf-skewed intra- and inter-site links."""
    everything = [article for site in sites for article in site.articles]
    popular = everything[:]
    rng.shuffle(popular)
    global_weights = _zipf_weights(len(popular))
    for site in sites:
        ranked = site.articles[:]
        rng.shuffle(ranked)
        site_weights = _zipf_weights(len(ranked))
        nav = [_Link(site.home.url, "Home", site.nav_form)]
        nav += [_Link(s.url, name.replace("-", " ").title(), site.nav_form)
                for name, s in site.sections.items()]
        for page in site.pages:
            page_rng = Random(f"{rng.random()}")
            _fill_text(page, page_rng)
            page.nav = [_Link(link.target, link.text, link.form) for link in nav]
        site.home.areas = [_Link(s.url, s.title, "root") for s in site.sections.values()]
        for target in ranked[:6]:
            _insert_link(site.home, _Link(target.url, _anchor(rng, target), "root",
                                          style=rng.choice(_STYLES)), rng)
        for index in site.indexes:
            index.listing = [_Link(a.url, a.title, rng.choice(("relative", "root")))
                             for a in index.listed]
        for index, following in itertools.pairwise(site.indexes):
            if following.section == index.section:
                index.listing.append(_Link(following.url, "next page", "relative"))
                following.listing.insert(0, _Link(index.url, "previous page", "relative"))
        for page in site.articles:
            overview = site.sections[str(page.section)].url
            links = [_Link(overview, "section overview", rng.choice(("relative", "root")))]
            for target in rng.choices(ranked, cum_weights=site_weights, k=rng.randint(2, 5)):
                if target is not page:
                    fragment = "sec1" if rng.random() < 0.15 else ""
                    links.append(_Link(target.url, _anchor(rng, target),
                                       rng.choice(("relative", "relative", "root", "absolute")),
                                       fragment))
            for _ in range(rng.choice((0, 1, 1, 2, 3))):
                for _attempt in range(10):
                    target = rng.choices(popular, cum_weights=global_weights)[0]
                    if target.host != page.host:
                        form = "protocol" if rng.random() < 0.1 else "absolute"
                        links.append(_Link(target.url, _anchor(rng, target), form))
                        break
            for index, link in enumerate(links):
                link.style = rng.choice(_STYLES)
                _insert_link(page, link, rng, third=index % 3)


def _mention(rng: Random, topic: str) -> list[str]:
    """A sentence of common words naming ``topic`` in passing: its first topic word (the
    word a query for it would use, e.g. "java") and one more."""
    words = rng.choices(COMMON_WORDS, k=rng.randint(6, 12))
    for word in (TOPIC_WORDS[topic][0], rng.choice(TOPIC_WORDS[topic][1:])):
        words.insert(rng.randint(0, len(words)), word.replace("-", " "))
    words[0] = words[0].capitalize()
    words[-1] += "."
    return words


def _add_mentions(rng: Random, sites: list[_Site], share: float) -> None:
    """Let ``share`` of each site's articles mention another site's topic once, so
    off-topic pages also contain a topic's query word now and then (as real pages do)."""
    topics = sorted({site.topic for site in sites})
    for site in sites:
        others = [topic for topic in topics if topic != site.topic]
        if not others:
            continue
        for page in site.articles:
            if rng.random() < share:
                paragraph = page.paragraphs[rng.randrange(len(page.paragraphs))]
                paragraph.extend(_mention(rng, rng.choice(others)))


# -- rendering -------------------------------------------------------------------------


def _href(page: _Page, link: _Link, mirrored: set[str]) -> str:
    parts = urlsplit(link.target)
    form = link.form
    if parts.netloc != page.host and form in ("root", "relative"):
        form = "absolute"
    # Mirrored pages only use local links among themselves, so copies stay consistent.
    if page.mirrored and parts.netloc == page.host and link.target not in mirrored:
        form = "absolute"
    path_query = parts.path + (f"?{parts.query}" if parts.query else "")
    if form == "absolute":
        href = link.target
    elif form == "protocol":
        href = f"//{parts.netloc}{path_query}"
    elif form == "root":
        href = path_query
    else:
        base_path = urlsplit(page.base).path if page.base else page.path
        href = posixpath.relpath(parts.path, posixpath.dirname(base_path))
        if href == ".":
            href = "./"
        elif parts.path.endswith("/"):
            href += "/"
        href += f"?{parts.query}" if parts.query else ""
    if link.fragment:
        href += f"#{link.fragment}"
    return html.escape(href)


def _render_link(page: _Page, link: _Link, mirrored: set[str]) -> str:
    href = _href(page, link, mirrored)
    text = html.escape(link.text)
    style = link.style
    if style == "style-bold":
        return f'<a href="{href}" style="font-weight:bold">{text}</a>'
    if style == "style-italic":
        return f'<a href="{href}" style="font-style:italic">{text}</a>'
    anchor = f'<a href="{href}">{text}</a>'
    if style == "span-bold":
        return f'<span style="font-weight: bold">{anchor}</span>'
    if style == "bi":
        return f"<b><i>{anchor}</i></b>"
    if style:
        return f"<{style}>{anchor}</{style}>"
    return anchor


def _mutate(word: str, rng: Random) -> str:
    replacement = rng.choice(COMMON_WORDS)
    if word[:1].isupper():
        replacement = replacement.capitalize()
    return replacement + ("." if word.endswith(".") else "")


def _render(
    page: _Page,
    mirrored: set[str],
    *,
    banner: str = "",
    date: str | None = None,
    mutate: Random | None = None,
    mutate_rate: float = 0.03,
) -> bytes:
    def link(item: _Link) -> str:
        return _render_link(page, item, mirrored)

    out = ['<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
           f"<title>{html.escape(page.title)}</title>\n",
           f'<meta name="description" content="{html.escape(page.title.lower())}">\n']
    if page.base:
        out.append(f'<base href="{page.base}">\n')
    out.append("</head>\n<body>\n")
    if banner:
        out.append(f'<div class="banner">{banner}</div>\n')
    out.append("<header><nav>" + " | ".join(link(item) for item in page.nav) + "</nav></header>\n")
    out.append(f"<main>\n<h1>{html.escape(page.title)}</h1>\n")
    out.append(f'<p class="byline">Published {date or page.date} by {page.author}</p>\n')
    if page.areas:
        out.append(f'<img src="/sitemap.png" usemap="#sitemap" alt="Site map of {page.host}">\n'
                   '<map name="sitemap">\n')
        for index, area in enumerate(page.areas):
            coords = f"{index * 100},0,{index * 100 + 99},60"
            out.append(f'<area shape="rect" coords="{coords}" href="{_href(page, area, mirrored)}"'
                       f' alt="{html.escape(area.text)}">\n')
        out.append("</map>\n")
    if page.toc:
        out.append('<ol class="toc">' + "".join(
            f'<li><a href="#sec{i + 1}">{html.escape(h)}</a></li>'
            for i, h in enumerate(page.headings)) + "</ol>\n")
    for index, tokens in enumerate(page.paragraphs):
        if index % 2 == 0:
            heading = html.escape(page.headings[index // 2])
            out.append(f'<h2 id="sec{index // 2 + 1}">{heading}</h2>\n')
        words = []
        for token in tokens:
            if isinstance(token, _Link):
                words.append(link(token))
            elif mutate is not None and mutate.random() < mutate_rate:
                words.append(_mutate(token, mutate))
            else:
                words.append(token)
        out.append("<p>" + " ".join(words) + "</p>\n")
    if page.listing:
        out.append("<ul class=\"articles\">\n" + "".join(
            f"<li>{link(item)}</li>\n" for item in page.listing) + "</ul>\n")
    out.append("</main>\n<footer>")
    out.append(f'<a href="mailto:editor@{page.host}">Contact the editors</a> · '
               '<a href="javascript:window.print()">Print this page</a> · '
               '<a href="tel:+15550100">Call us</a> · <a name="bottom">&copy; 2025</a>')
    out.append("</footer>\n</body>\n</html>\n")
    return "".join(out).encode("utf-8")


# -- features ----------------------------------------------------------------------------


def _pick(site: _Site, rng: Random, exclude: tuple[_Page, ...] = ()) -> _Page:
    candidates = [a for a in site.articles if not a.mirrored and a not in exclude
                  and a.section not in ("members", "drafts")]
    return rng.choice(candidates)


def _png_bytes() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x80\x00")
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels)
            + chunk(b"IEND", b""))


_PDF_BYTES = (b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
              b"2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n"
              b"trailer << /Root 1 0 R >>\n%%EOF\n")


def _simple_page(title: str, paragraphs: Sequence[str], links: Sequence[tuple[str, str]] = (),
                 charset: str | None = "utf-8") -> str:
    meta = f'<meta charset="{charset}">\n' if charset else ""
    body = "".join(f"<p>{p}</p>\n" for p in paragraphs)
    body += "".join(f'<p><a href="{html.escape(u)}">{html.escape(t)}</a></p>\n' for u, t in links)
    return (f"<!DOCTYPE html>\n<html>\n<head>\n{meta}<title>{title}</title>\n</head>\n"
            f"<body>\n<h1>{title}</h1>\n{body}</body>\n</html>\n")


def _text(rng: Random, topic: str, paragraphs: int) -> list[str]:
    return [" ".join(t for t in _paragraph(rng, topic) if isinstance(t, str))
            for _ in range(paragraphs)]


def _add_faults(web: SandboxWeb, sites: dict[str, _Site], rng: Random) -> None:
    """Fault pages, each linked (absolute URL) from a normal article."""
    alpha, news, beta = sites["www.alpha.test"], sites["news.alpha.test"], sites["www.beta.test"]
    gamma, delta = sites["blog.gamma.test"], sites["www.delta.test"]
    epsilon, java = sites["shop.epsilon.test"], sites["www.javadev.test"]
    faults: dict[str, tuple[str, _Site]] = {}
    served_as = {key: site.host for key, site in sites.items()}

    def served(url: str) -> str:
        """``url`` on the name its content host is served under (``neutral_urls``)."""
        host = urlsplit(url).netloc
        return url.replace(host, served_as.get(host, host), 1)

    def fault(kind: str, url: str, site: _Site, text: str) -> None:
        url = served(url)
        faults[kind] = (url, site)
        _insert_link(_pick(site, rng), _Link(url, text, "absolute"), rng)

    fault("not_found", "http://www.beta.test/archive/transfer-rumours-2019.html", beta,
          "old transfer rumours")
    fault("forbidden", "http://shop.epsilon.test/admin/orders.html", epsilon, "order admin")
    web.add_page(faults["forbidden"][0], _simple_page("Forbidden", ["Access denied."]),
                 status=403)
    fault("unavailable", "http://blog.gamma.test/maintenance/status.html", gamma,
          "maintenance status")
    web.add_page(faults["unavailable"][0],
                 _simple_page("Service Unavailable", ["Back soon."]), status=503,
                 headers={"Retry-After": "120"})
    fault("slow", "http://www.delta.test/reports/slow-report.html", delta, "yearly report")
    web.add_page(faults["slow"][0], _simple_page(
        "Yearly Travel Report", _text(rng, "travel", 4),
        [(delta.home.url, "home")]), delay=1.5)
    fault("image", "http://shop.epsilon.test/media/product-42.png", epsilon, "product photo")
    web.add_page(faults["image"][0], _png_bytes(), content_type="image/png")
    fault("pdf", "http://news.alpha.test/download/annual-report?id=2025", news,
          "annual report (PDF)")
    web.add_page(faults["pdf"][0], _PDF_BYTES, content_type="application/pdf")
    fault("text", "http://www.javadev.test/files/release-notes.txt", java, "release notes")
    web.add_page(faults["text"][0], "Release notes\n\n* faster class loading\n",
                 content_type="text/plain; charset=utf-8")

    fault("broken_html", "http://blog.gamma.test/legacy/old-page.html", gamma, "old page")
    broken = (b"<html><head><title>Old garden page<body><div><p>Compost <b>and <i>mulch "
              b"<table><tr><td>cell<td>\xff\xfe garbage <<< >>> &&& &nbsp &#xZZ; <p>"
              + f'<a href="{gamma.home.url}">home</a>'.encode()
              + b" </div></span></i> <li>stray <em>end</html>\x00\x01 trailing junk <")
    web.add_page(faults["broken_html"][0], broken)

    fault("windows_1252", "http://www.alpha.test/legacy/cafe-menu.html", alpha, "café menu")
    menu = _simple_page("Caf\u00e9 menu \u2013 cr\u00e8me br\u00fbl\u00e9e",
                        ["\u201cSpecial\u201d of the day: cr\u00e8me br\u00fbl\u00e9e "
                         "for 5 \u20ac, pur\u00e9e, jalape\u00f1o na\u00efve fa\u00e7ade."],
                        [(alpha.home.url, "home")], charset="windows-1252")
    web.add_page(faults["windows_1252"][0], menu.encode("cp1252"), content_type="text/html")

    fault("no_charset", "http://www.delta.test/legacy/plain-page.html", delta, "plain page")
    web.add_page(faults["no_charset"][0],
                 _simple_page("Plain page", _text(rng, "travel", 2), [(delta.home.url, "home")],
                              charset=None),
                 content_type="text/html")

    fault("redirect", "http://www.beta.test/old/home.html", beta, "old home")
    web.add_redirect(faults["redirect"][0], beta.articles[0].url)

    fault("large", "http://news.alpha.test/archive/full-archive.html", news, "full archive")
    chunks = _text(rng, "finance", 150)
    parts = ["<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
             "<title>Full archive</title></head>\n<body>\n<h1>Full archive</h1>\n"]
    size, index = 0, 0
    while size < 3_000_000:
        target = news.articles[index % len(news.articles)].url
        piece = (f"<h2>Entry {index}</h2>\n<p>{chunks[index % len(chunks)]} "
                 f'<a href="{target}">entry {index}</a></p>\n')
        parts.append(piece)
        size += len(piece)
        index += 1
    parts.append("</body></html>\n")
    web.add_page(faults["large"][0], "".join(parts))

    # Query-string explosion: 48 parameter combinations of one listing.
    catalog = served("http://shop.epsilon.test/catalog/")
    listing = served("http://shop.epsilon.test/catalog/list.html")
    combos = [f"{listing}?sort={s}&view={v}&page={p}" for s in ("price", "name", "date", "rating")
              for v in ("grid", "list", "compact") for p in (1, 2, 3, 4)]
    web.add_page(catalog, _simple_page("Catalog", _text(rng, "photography", 1),
                                       [(u, f"listing {i}") for i, u in enumerate(combos)]))
    web.add_page(listing, _simple_page("Product list", _text(rng, "photography", 3),
                                       [(epsilon.home.url, "shop home")]), any_query=True)
    _insert_link(epsilon.home, _Link(catalog, "catalog", "absolute"), rng)
    faults["query_explosion"] = (listing, epsilon)

    # Session ids in URLs: distinct URLs, identical content.
    login = served("http://www.javadev.test/account/login")
    web.add_page(login, _simple_page("Sign in", ["Sign in to comment on tutorials."],
                                     [(java.home.url, "home")]), any_query=True)
    used: list[_Page] = []
    for _ in range(5):
        page = _pick(java, rng, tuple(used))
        used.append(page)
        token = f"{rng.getrandbits(64):016x}"
        jsession = f"{login};jsessionid={token.upper()}"
        web.add_page(jsession, web.resource(login).body)  # type: ignore[union-attr]
        for variant in (f"{login}?sid={token}", jsession, f"{login}?PHPSESSID={token[::-1]}"):
            _insert_link(page, _Link(variant, "sign in", "absolute"), rng)
    faults["session_id"] = (login, java)

    fault("dead_host", f"http://{DEAD_HOST}/", delta, "a site that is gone")
    fault("robots_5xx", f"http://{ROBOTS_5XX_HOST}/", delta, "old travel site")
    old_pages = [f"http://{ROBOTS_5XX_HOST}/archive/{i}.html" for i in range(1, 4)]
    web.add_page(faults["robots_5xx"][0], _simple_page(
        "Old travel site", _text(rng, "travel", 2), [(u, u) for u in old_pages]))
    for url in old_pages:
        web.add_page(url, _simple_page("Old travel story", _text(rng, "travel", 3)))
    web.host_topics[ROBOTS_5XX_HOST] = "travel"

    for kind, (url, site) in faults.items():
        web.faults[kind] = canonical(url)
        found = web.resource(url)
        if found is not None and found.status == 200 and found.is_html:
            web.topics.setdefault(canonical(url), site.topic)
    for url in (catalog, listing):
        web.topics[canonical(url)] = epsilon.topic
    for url in old_pages:
        web.topics[canonical(url)] = "travel"


def _calendar_handler(seed: int) -> Callable[[str, str], Resource | None]:
    pattern = re.compile(r"/cal/(\d+)/(\d{2})(?:/(\d{2}))?")

    def month_days(year: int, month: int) -> int:
        return calendar.monthrange(year, month)[1] if year <= 9999 else 30

    # Crawlers and ground-truth walks ask for the same pages repeatedly.
    @functools.lru_cache(maxsize=4096)
    def handler(path: str, query: str) -> Resource | None:
        match = pattern.fullmatch(path)
        if query or match is None:
            return None
        year, month = int(match[1]), int(match[2])
        if not 1 <= month <= 12 or year < 1:
            return None
        rng = Random(f"{seed}:{path}")
        prev_ym = (year, month - 1) if month > 1 else (year - 1, 12)
        next_ym = (year, month + 1) if month < 12 else (year + 1, 1)
        if match[3] is None:
            title = f"Events {year}-{month:02d}"
            links = [(f"/cal/{prev_ym[0]}/{prev_ym[1]:02d}", "previous month"),
                     (f"/cal/{next_ym[0]}/{next_ym[1]:02d}", "next month")]
            links += [(f"/cal/{year}/{month:02d}/{d:02d}", f"day {d}")
                      for d in range(1, month_days(year, month) + 1)]
        else:
            day = int(match[3])
            if not 1 <= day <= month_days(year, month):
                return None
            title = f"Events {year}-{month:02d}-{day:02d}"
            links = [(f"/cal/{year}/{month:02d}", "month view")]
            if day > 1:
                links.append((f"/cal/{year}/{month:02d}/{day - 1:02d}", "previous day"))
            if day < month_days(year, month):
                links.append((f"/cal/{year}/{month:02d}/{day + 1:02d}", "next day"))
        body = _simple_page(title, _text(rng, "events", 1), links)
        return Resource(body.encode("utf-8"))

    return handler


_ROBOTS = {
    _MEMBERS_HOST: "User-agent: *\nDisallow: /members/\n\nUser-agent: badbot\nDisallow: /\n",
    "www.javadev.test": "# Everyone welcome\nUser-agent: *\nDisallow:\n\n"
                        "Sitemap: http://www.javadev.test/sitemap.xml\n",
    "shop.epsilon.test": "User-agent: *\nDisallow: /cart/\nDisallow: /admin/secret\n",
}


def build_synthetic_web(
    seed: int = 7,
    *,
    trap: bool = True,
    faults: bool = True,
    mirrors: bool = True,
    robots: bool = True,
    topics: Mapping[str, str] | None = None,
    site_sizes: Mapping[str, int] | None = None,
    mentions: float = 0.0,
    portal_order: Sequence[str] | None = None,
    neutral_urls: Mapping[str, str] | None = None,
) -> SandboxWeb:
    """Build the deterministic synthetic web for ``seed``.

    Content hosts are the keys of :data:`DEFAULT_SITES`; ``topics`` overrides their topic
    (values are keys of :data:`TOPIC_SECTIONS`). ``site_sizes`` sets a host's number of
    home, section and article pages (at least :data:`MIN_SITE_PAGES`; the paginated
    listings come on top) instead of a random 60-110; a bigger site gets more sections of
    about the default size (:func:`_section_names`), so it is wider, not deeper.
    ``mentions`` is the share of every site's articles that name another site's topic
    once in passing (its first topic word, e.g. "java" on a cooking page).
    ``portal_order`` lists the content hosts in the order the portal links them (default:
    :data:`DEFAULT_SITES` order); a breadth-first crawl favours the first ones.
    ``neutral_urls`` maps content hosts to the host name each is served under instead
    (e.g. ``{"www.javadev.test": "www.beanery.test"}``) and gives those sites URLs made
    of no words of their topic: section directories ``/s1/``, ``/s2/``, ... and numbered
    articles (``/s3/117``; the fault pages and the members / drafts sections keep their
    paths), so a query can only match their pages' content, not their URLs (for the
    Java site: no URL says "java"). Everything else (pages, titles, text, links, anchor
    texts) is the same web; the other options still name hosts by their
    :data:`DEFAULT_SITES` key. Left at their defaults, these four give the same web as
    without them.

    The switches remove the infinite calendar trap (``trap``), the error/odd pages,
    query-string and session-id explosions and the host with a 5xx robots.txt
    (``faults``), the exact and near-duplicate mirror hosts (``mirrors``) and all
    robots.txt files (``robots``). ``web.seeds`` are the content sites' home pages;
    ``web.portal`` links to all of them.
    """
    site_topics = dict(DEFAULT_SITES)
    for host, topic in (topics or {}).items():
        if host not in site_topics:
            raise ValueError(f"unknown content host {host!r}")
        if topic not in TOPIC_SECTIONS:
            raise ValueError(f"unknown topic {topic!r}")
        site_topics[host] = topic
    for host, pages in (site_sizes or {}).items():
        if host not in site_topics:
            raise ValueError(f"unknown content host {host!r}")
        if not isinstance(pages, int) or pages < MIN_SITE_PAGES:
            raise ValueError(f"site size of {host!r} must be an integer >= {MIN_SITE_PAGES}, "
                             f"not {pages!r}")
    if not 0.0 <= mentions <= 1.0:
        raise ValueError(f"mentions must be a share between 0 and 1, not {mentions!r}")
    if portal_order is not None and sorted(portal_order) != sorted(site_topics):
        raise ValueError(f"portal_order must list each content host once: {sorted(site_topics)}")
    served_as = {host: host for host in site_topics}
    for host, name in (neutral_urls or {}).items():
        if host not in site_topics:
            raise ValueError(f"unknown content host {host!r}")
        if not isinstance(name, str) or not _HOST_NAME.fullmatch(name):
            raise ValueError(f"neutral_urls: {name!r} is not a lower-case host name")
        served_as[host] = name
    taken = [*served_as.values(), PORTAL_HOST, MIRROR_HOST, NEAR_MIRROR_HOST, TRAP_HOST,
             DEAD_HOST, ROBOTS_5XX_HOST]
    for name in (neutral_urls or {}).values():
        if taken.count(name) > 1:
            raise ValueError(f"neutral_urls: host name {name!r} is already used")

    web = SandboxWeb()
    site_list = _build_sites(Random(seed), site_topics, site_sizes, neutral_urls)
    _link_sites(Random(f"{seed}:links"), site_list)
    if mentions:
        _add_mentions(Random(f"{seed}:mentions"), site_list, mentions)
    # by DEFAULT_SITES key (a neutral_urls site is served under another name)
    sites = dict(zip(site_topics, site_list, strict=True))
    for site in site_list:
        web.host_topics[site.host] = site.topic

    delta = sites[_BASE_HREF_HOST]
    feature_rng = Random(f"{seed}:base")
    base_page = _pick(delta, feature_rng)
    other = [s for name, s in delta.sections.items() if name != base_page.section]
    base_page.base = feature_rng.choice(other).url
    # The one robots-allowed draft must be linked from outside the disallowed directory.
    gamma = sites[_DRAFTS_HOST]
    allowed_draft = next(a for a in gamma.articles if a.section == "drafts")
    _insert_link(_pick(gamma, feature_rng), _Link(allowed_draft.url, "a draft we published"),
                 feature_rng)

    alpha = sites[_MIRRORED_HOST]
    if mirrors:
        rng = Random(f"{seed}:mirrors")
        first = next(iter(alpha.sections.values()))
        _insert_link(alpha.home, _Link(first.url.replace(alpha.host, MIRROR_HOST), "mirror site"),
                     rng)
        _insert_link(_pick(delta, rng),
                     _Link(first.url.replace(alpha.host, NEAR_MIRROR_HOST), "recipe archive"),
                     rng)
    if trap:
        _insert_link(_pick(delta, Random(f"{seed}:trap")), _Link(TRAP_ENTRY, "events calendar"),
                     Random(f"{seed}:trap-position"))
        web.add_dynamic(TRAP_HOST, "/cal/", _calendar_handler(seed))
        web.host_topics[TRAP_HOST] = "events"
        web.traps["calendar"] = canonical(TRAP_ENTRY)
    if faults:
        _add_faults(web, sites, Random(f"{seed}:faults"))

    mirrored = {page.url for page in alpha.pages if page.mirrored}
    for site in site_list:
        for page in site.pages:
            web.add_page(page.url, _render(page, mirrored))
            web.topics[canonical(page.url)] = page.topic

    if mirrors:
        rng = Random(f"{seed}:near-duplicates")
        for page in alpha.pages:
            if not page.mirrored:
                continue
            body = web.resource(page.url).body  # type: ignore[union-attr]
            copy = page.url.replace(alpha.host, MIRROR_HOST, 1)
            web.add_page(copy, body)
            near = page.url.replace(alpha.host, NEAR_MIRROR_HOST, 1)
            shifted = datetime.date.fromisoformat(page.date) + datetime.timedelta(days=400)
            web.add_page(near, _render(
                page, mirrored, mutate=rng, date=shifted.isoformat(),
                banner="Archived copy kept by the Recipe Archive. Content may be outdated."))
            for url, table in ((copy, web.duplicate_of), (near, web.near_duplicate_of)):
                table[canonical(url)] = canonical(page.url)
                web.topics[canonical(url)] = page.topic
        web.host_topics[MIRROR_HOST] = web.host_topics[NEAR_MIRROR_HOST] = alpha.topic

    if robots:
        for key, text in _ROBOTS.items():
            host = sites[key].host
            web.set_robots(host, text.replace(key, host))
        web.set_robots(gamma.host,
                       f"User-agent: *\nAllow: {allowed_draft.path}\nDisallow: /drafts/\n")
        if faults:
            web.set_robots(ROBOTS_5XX_HOST, "Service unavailable", status=503)

    ordered = [sites[host] for host in portal_order] if portal_order else site_list
    portal_links = [(site.home.url, f"{site.topic.title()} at {site.host}") for site in ordered]
    web.add_page(f"http://{PORTAL_HOST}/", _simple_page(
        "Sandbox portal", ["A directory of sites about many subjects."], portal_links))
    web.host_topics[PORTAL_HOST] = "portal"
    web.portal = canonical(f"http://{PORTAL_HOST}/")
    web.seeds = [site.home.url for site in site_list]
    return web
