"""Sandbox web: an offline, deterministic web of fake hosts served through a local proxy.

Used by tests (exact ground truth of what a crawl should fetch) and by the offline demo
(``python -m crawler.sandbox``).
"""

from crawler.sandbox.corpora import DEBIAN_DOC_SITES, add_debian_docs
from crawler.sandbox.server import RequestRecord, SandboxServer
from crawler.sandbox.synthetic import DEFAULT_SITES, TOPIC_LABELS, TOPIC_WORDS, build_synthetic_web
from crawler.sandbox.web import Resource, SandboxWeb, canonical, extract_links, html_page

__all__ = [
    "DEBIAN_DOC_SITES",
    "DEFAULT_SITES",
    "TOPIC_LABELS",
    "TOPIC_WORDS",
    "RequestRecord",
    "Resource",
    "SandboxServer",
    "SandboxWeb",
    "add_debian_docs",
    "build_synthetic_web",
    "canonical",
    "extract_links",
    "html_page",
]
