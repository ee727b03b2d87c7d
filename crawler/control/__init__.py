"""Live control of a running crawl (docs/operations.md#live-control)."""
