"""The best-first frontier: scores, URL-seen set, ready buffer and its durable store.

Scrapy-free; the Scrapy scheduler built on it is crawler.schedulers.best_first.
See docs/frontier.md.
"""
