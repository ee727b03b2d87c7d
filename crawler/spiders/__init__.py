"""The project's spiders: `general` (best-first general crawl)."""
