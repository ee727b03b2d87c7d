"""Assembling the synthetic web from its parts: :func:`build_synthetic_web`."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from random import Random

from crawler.sandbox.synthetic.faults import add_faults
from crawler.sandbox.synthetic.hosts import (
    BASE_HREF_HOST,
    DEAD_HOST,
    DEFAULT_SITES,
    DRAFTS_HOST,
    MEMBERS_HOST,
    MIRROR_HOST,
    MIRRORED_HOST,
    NEAR_MIRROR_HOST,
    PORTAL_HOST,
    ROBOTS_5XX_HOST,
    TRAP_ENTRY,
    TRAP_HOST,
)
from crawler.sandbox.synthetic.model import Link
from crawler.sandbox.synthetic.render import render_page, simple_page
from crawler.sandbox.synthetic.sites import (
    MIN_SITE_PAGES,
    add_mentions,
    build_sites,
    link_sites,
    pick_article,
)
from crawler.sandbox.synthetic.text import insert_link
from crawler.sandbox.synthetic.trap import calendar_handler
from crawler.sandbox.synthetic.words import TOPIC_SECTIONS
from crawler.sandbox.web import SandboxWeb, canonical

_HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+")


_ROBOTS = {
    MEMBERS_HOST: "User-agent: *\nDisallow: /members/\n\nUser-agent: badbot\nDisallow: /\n",
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
    about the default size (``_section_names`` in ``sites``), so it is wider, not deeper.
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
            raise ValueError(
                f"site size of {host!r} must be an integer >= {MIN_SITE_PAGES}, not {pages!r}"
            )
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
    taken = [
        *served_as.values(),
        PORTAL_HOST,
        MIRROR_HOST,
        NEAR_MIRROR_HOST,
        TRAP_HOST,
        DEAD_HOST,
        ROBOTS_5XX_HOST,
    ]
    for name in (neutral_urls or {}).values():
        if taken.count(name) > 1:
            raise ValueError(f"neutral_urls: host name {name!r} is already used")

    web = SandboxWeb()
    site_list = build_sites(Random(seed), site_topics, site_sizes, neutral_urls)
    link_sites(Random(f"{seed}:links"), site_list)
    if mentions:
        add_mentions(Random(f"{seed}:mentions"), site_list, mentions)
    # by DEFAULT_SITES key (a neutral_urls site is served under another name)
    sites = dict(zip(site_topics, site_list, strict=True))
    for site in site_list:
        web.host_topics[site.host] = site.topic

    delta = sites[BASE_HREF_HOST]
    feature_rng = Random(f"{seed}:base")
    base_page = pick_article(delta, feature_rng)
    other = [s for name, s in delta.sections.items() if name != base_page.section]
    base_page.base = feature_rng.choice(other).url
    # The one robots-allowed draft must be linked from outside the disallowed directory.
    gamma = sites[DRAFTS_HOST]
    allowed_draft = next(a for a in gamma.articles if a.section == "drafts")
    insert_link(
        pick_article(gamma, feature_rng),
        Link(allowed_draft.url, "a draft we published"),
        feature_rng,
    )

    alpha = sites[MIRRORED_HOST]
    if mirrors:
        rng = Random(f"{seed}:mirrors")
        first = next(iter(alpha.sections.values()))
        insert_link(
            alpha.home, Link(first.url.replace(alpha.host, MIRROR_HOST), "mirror site"), rng
        )
        insert_link(
            pick_article(delta, rng),
            Link(first.url.replace(alpha.host, NEAR_MIRROR_HOST), "recipe archive"),
            rng,
        )
    if trap:
        insert_link(
            pick_article(delta, Random(f"{seed}:trap")),
            Link(TRAP_ENTRY, "events calendar"),
            Random(f"{seed}:trap-position"),
        )
        web.add_dynamic(TRAP_HOST, "/cal/", calendar_handler(seed))
        web.host_topics[TRAP_HOST] = "events"
        web.traps["calendar"] = canonical(TRAP_ENTRY)
    if faults:
        add_faults(web, sites, Random(f"{seed}:faults"))

    mirrored = {page.url for page in alpha.pages if page.mirrored}
    for site in site_list:
        for page in site.pages:
            web.add_page(page.url, render_page(page, mirrored))
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
            web.add_page(
                near,
                render_page(
                    page,
                    mirrored,
                    mutate=rng,
                    date=shifted.isoformat(),
                    banner="Archived copy kept by the Recipe Archive. Content may be outdated.",
                ),
            )
            for url, table in ((copy, web.duplicate_of), (near, web.near_duplicate_of)):
                table[canonical(url)] = canonical(page.url)
                web.topics[canonical(url)] = page.topic
        web.host_topics[MIRROR_HOST] = web.host_topics[NEAR_MIRROR_HOST] = alpha.topic

    if robots:
        for key, text in _ROBOTS.items():
            host = sites[key].host
            web.set_robots(host, text.replace(key, host))
        web.set_robots(
            gamma.host, f"User-agent: *\nAllow: {allowed_draft.path}\nDisallow: /drafts/\n"
        )
        if faults:
            web.set_robots(ROBOTS_5XX_HOST, "Service unavailable", status=503)

    ordered = [sites[host] for host in portal_order] if portal_order else site_list
    portal_links = [(site.home.url, f"{site.topic.title()} at {site.host}") for site in ordered]
    web.add_page(
        f"http://{PORTAL_HOST}/",
        simple_page("Sandbox portal", ["A directory of sites about many subjects."], portal_links),
    )
    web.host_topics[PORTAL_HOST] = "portal"
    web.portal = canonical(f"http://{PORTAL_HOST}/")
    web.seeds = [site.home.url for site in site_list]
    return web
