"""Fixtures of the agents tests: the frontier tests' migrated database."""

from tests.frontier.conftest import migrated

__all__ = ["migrated"]
