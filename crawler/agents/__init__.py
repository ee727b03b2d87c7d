"""Agents of a distributed crawl: membership, host ownership, crawl end (docs/distributed.md)."""
