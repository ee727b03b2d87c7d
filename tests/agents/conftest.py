"""Fixtures of the agents' tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.agents.agents import kill_leftover_agents


@pytest.fixture(autouse=True)
def no_agent_outlives_its_test() -> Iterator[None]:
    yield
    kill_leftover_agents()
