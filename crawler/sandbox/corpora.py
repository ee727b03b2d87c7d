"""Real documentation sites from Debian packages, served as extra sandbox hosts."""

from __future__ import annotations

from pathlib import Path

from crawler.sandbox.web import SandboxWeb

#: host -> directory of an installed Debian documentation package.
DEBIAN_DOC_SITES: dict[str, str] = {
    "docs.python.test": "/usr/share/doc/python3.11/html",
    "docs.postgresql.test": "/usr/share/doc/postgresql-doc-15/html",
    "docs.django.test": "/usr/share/doc/python-django-doc/html",
}


def add_debian_docs(web: SandboxWeb, sites: dict[str, str] | None = None) -> list[str]:
    """Add the doc sites whose directory exists (``index.html`` present) to ``web``.

    Returns their seed URLs (``http://HOST/``) in ``sites`` order and records the host
    topic as ``"documentation"``.
    """
    seeds = []
    for host, directory in (sites or DEBIAN_DOC_SITES).items():
        root = Path(directory)
        if not (root / "index.html").is_file():
            continue
        web.add_directory_site(host, root)
        web.host_topics[host] = "documentation"
        seeds.append(f"http://{host}/")
    return seeds
