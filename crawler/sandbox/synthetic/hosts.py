"""Host names of the synthetic web, and the role each default host plays in its
special features (a host keeps its role when its topic changes)."""

from __future__ import annotations

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
MIRRORED_HOST = "www.alpha.test"
MEMBERS_HOST = "www.beta.test"
DRAFTS_HOST = "blog.gamma.test"
BASE_HREF_HOST = "www.delta.test"
NO_EXTENSION_HOSTS = frozenset({"www.javadev.test"})
FIXED_SECTION_SIZES = {(MIRRORED_HOST, 0): 19}
EXTRA_SECTIONS = {MEMBERS_HOST: ("members", 6), DRAFTS_HOST: ("drafts", 6)}
