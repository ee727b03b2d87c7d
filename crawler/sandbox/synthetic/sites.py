"""The structure of the content sites (sections, paginated listings, articles)
and their links: navigation, listings, Zipf-skewed intra- and inter-site links."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from random import Random

from crawler.sandbox.synthetic.hosts import (
    EXTRA_SECTIONS,
    FIXED_SECTION_SIZES,
    MIRRORED_HOST,
    NO_EXTENSION_HOSTS,
)
from crawler.sandbox.synthetic.model import Link, Page, Site
from crawler.sandbox.synthetic.text import fill_text, insert_link, mention, random_title, slug_of
from crawler.sandbox.synthetic.words import TOPIC_LABELS, TOPIC_SECTIONS, TOPIC_WORDS

_NAV_FORMS = ("root", "relative", "absolute")
_PER_INDEX_PAGE = 10
# About as many pages per section as a default site has (60-110 pages, 4 sections).
_PAGES_PER_SECTION = 25
#: smallest ``site_sizes`` value (the sections' minimum of 3 articles must fit)
MIN_SITE_PAGES = 40

_STYLES = (
    "",
    "",
    "",
    "",
    "",
    "b",
    "strong",
    "i",
    "em",
    "bi",
    "style-bold",
    "style-italic",
    "span-bold",
)
_GENERIC_ANCHORS = ["read more", "here", "this article", "continue reading", "details"]


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
            name = slug_of(word)
            if name not in names and name not in ("members", "drafts"):
                names.append(name)
    return names


def build_sites(
    rng: Random,
    site_topics: Mapping[str, str],
    site_sizes: Mapping[str, int] | None = None,
    neutral_urls: Mapping[str, str] | None = None,
) -> list[Site]:
    """Sites in ``site_topics`` order. ``neutral_urls`` (content host -> name it is served
    under) gives those sites word-free directories and article paths; the random draws
    are the same either way, so only the URLs differ."""
    sites = []
    site_sizes = site_sizes or {}
    neutral_urls = neutral_urls or {}
    for position, (key, topic) in enumerate(site_topics.items()):
        host = neutral_urls.get(key, key)
        neutral = key in neutral_urls
        ext = "" if key in NO_EXTENSION_HOSTS else ".html"
        nav_form = _NAV_FORMS[position % len(_NAV_FORMS)]
        names = _section_names(topic, site_sizes.get(key))
        # topic sections get directories s1, s2, ... on a neutral site (the extra members
        # and drafts sections keep theirs: robots.txt rules name them)
        dirs = {name: f"s{index}" if neutral else name for index, name in enumerate(names, 1)}
        sizes: dict[str, int] = {}
        extra = EXTRA_SECTIONS.get(key)
        # always drawn, so without site_sizes the web comes from the same random stream
        drawn = rng.randint(60, 110)
        pages = site_sizes.get(key, drawn)
        total_articles = pages - 1 - len(names) - (1 if extra else 0)
        for index, name in enumerate(names):
            fixed = FIXED_SECTION_SIZES.get((key, index))
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

        home = Page(f"http://{host}/", host, "/", topic, "home", f"{TOPIC_LABELS[topic]} - {host}")
        sections: dict[str, Page] = {}
        indexes: list[Page] = []
        articles: list[Page] = []
        slugs: set[str] = set()
        for name in names:
            label = name.replace("-", " ").title()
            in_section = []
            for _ in range(sizes[name]):
                title = random_title(rng, topic)
                slug = slug_of(title)
                while slug in slugs:
                    slug = f"{slug}-{rng.randint(2, 99)}"
                slugs.add(slug)
                # a neutral site numbers its articles (the slug is drawn all the same)
                path = f"/{dirs[name]}/{len(slugs) if neutral else slug}{ext}"
                in_section.append(
                    Page(f"http://{host}{path}", host, path, topic, "article", title, section=name)
                )
            articles += in_section
            # Paginated listings make the web deeper than home -> section -> article.
            for number, start in enumerate(range(0, len(in_section), _PER_INDEX_PAGE), 1):
                path = f"/{dirs[name]}/" if number == 1 else f"/{dirs[name]}/page-{number}{ext}"
                title = f"{label} - {host}" if number == 1 else f"{label} (page {number}) - {host}"
                index = Page(
                    f"http://{host}{path}",
                    host,
                    path,
                    topic,
                    "section",
                    title,
                    section=name,
                    listed=in_section[start : start + _PER_INDEX_PAGE],
                )
                indexes.append(index)
                sections.setdefault(name, index)
        if key == MIRRORED_HOST:
            for page in indexes + articles:
                page.mirrored = page.section == names[0]
        sites.append(Site(host, topic, home, sections, indexes, articles, nav_form))
    return sites


def _zipf_weights(count: int, exponent: float = 1.1) -> list[float]:
    return list(itertools.accumulate(1.0 / (rank + 1) ** exponent for rank in range(count)))


def _anchor(rng: Random, target: Page) -> str:
    if rng.random() < 0.1:
        return rng.choice(_GENERIC_ANCHORS)
    words = target.title.split(" - ")[0].lower().split()
    return " ".join(words[: rng.randint(2, max(2, len(words)))])


def link_sites(rng: Random, sites: list[Site]) -> None:
    """Navigation, listings and Zipf-skewed intra- and inter-site links."""
    everything = [article for site in sites for article in site.articles]
    popular = everything[:]
    rng.shuffle(popular)
    global_weights = _zipf_weights(len(popular))
    for site in sites:
        ranked = site.articles[:]
        rng.shuffle(ranked)
        site_weights = _zipf_weights(len(ranked))
        nav = [Link(site.home.url, "Home", site.nav_form)]
        nav += [
            Link(s.url, name.replace("-", " ").title(), site.nav_form)
            for name, s in site.sections.items()
        ]
        for page in site.pages:
            page_rng = Random(f"{rng.random()}")
            fill_text(page, page_rng)
            page.nav = [Link(link.target, link.text, link.form) for link in nav]
        site.home.areas = [Link(s.url, s.title, "root") for s in site.sections.values()]
        for target in ranked[:6]:
            insert_link(
                site.home,
                Link(target.url, _anchor(rng, target), "root", style=rng.choice(_STYLES)),
                rng,
            )
        for index in site.indexes:
            index.listing = [
                Link(a.url, a.title, rng.choice(("relative", "root"))) for a in index.listed
            ]
        for index, following in itertools.pairwise(site.indexes):
            if following.section == index.section:
                index.listing.append(Link(following.url, "next page", "relative"))
                following.listing.insert(0, Link(index.url, "previous page", "relative"))
        for page in site.articles:
            overview = site.sections[str(page.section)].url
            links = [Link(overview, "section overview", rng.choice(("relative", "root")))]
            for target in rng.choices(ranked, cum_weights=site_weights, k=rng.randint(2, 5)):
                if target is not page:
                    fragment = "sec1" if rng.random() < 0.15 else ""
                    links.append(
                        Link(
                            target.url,
                            _anchor(rng, target),
                            rng.choice(("relative", "relative", "root", "absolute")),
                            fragment,
                        )
                    )
            for _ in range(rng.choice((0, 1, 1, 2, 3))):
                for _attempt in range(10):
                    target = rng.choices(popular, cum_weights=global_weights)[0]
                    if target.host != page.host:
                        form = "protocol" if rng.random() < 0.1 else "absolute"
                        links.append(Link(target.url, _anchor(rng, target), form))
                        break
            for index, link in enumerate(links):
                link.style = rng.choice(_STYLES)
                insert_link(page, link, rng, third=index % 3)


def add_mentions(rng: Random, sites: list[Site], share: float) -> None:
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
                paragraph.extend(mention(rng, rng.choice(others)))


def pick_article(site: Site, rng: Random, exclude: tuple[Page, ...] = ()) -> Page:
    """A random article of ``site`` that is not mirrored, not in a robots-excluded
    section and not in ``exclude``: where a feature's link goes."""
    candidates = [
        a
        for a in site.articles
        if not a.mirrored and a not in exclude and a.section not in ("members", "drafts")
    ]
    return rng.choice(candidates)
