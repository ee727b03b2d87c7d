"""What the generator builds before rendering: sites, their pages and the links
placed in the pages' text."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Link:
    """A link placed in a page: its target, anchor text, the form its href takes and how
    its anchor is styled."""

    target: str  # absolute canonical URL
    text: str
    form: str = "absolute"  # absolute | root | relative | protocol
    fragment: str = ""
    style: str = ""


@dataclass
class Page:
    """One page of a content site, before rendering."""

    url: str
    host: str
    path: str
    topic: str
    kind: str  # home | section | article
    title: str
    section: str | None = None
    date: str = "2025-01-01"
    author: str = ""
    paragraphs: list[list[str | Link]] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)
    nav: list[Link] = field(default_factory=list)
    listing: list[Link] = field(default_factory=list)
    areas: list[Link] = field(default_factory=list)
    listed: list[Page] = field(default_factory=list)  # articles on a section index page
    base: str | None = None
    mirrored: bool = False
    toc: bool = False


@dataclass
class Site:
    """A content site: its home page, section index pages and articles."""

    host: str
    topic: str
    home: Page
    sections: dict[str, Page]
    indexes: list[Page]  # section index pages, including the paginated ones
    articles: list[Page]
    nav_form: str

    @property
    def pages(self) -> list[Page]:
        return [self.home, *self.indexes, *self.articles]
