"""URL-parameter rules: query parameters learned to be irrelevant from the content-seen
test's verdicts, applied before scheduling (docs/politeness.md, "URL-parameter rules")."""
