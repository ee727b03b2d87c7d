"""Memory-bounded sets of recently seen keys."""

from __future__ import annotations

import hashlib

from crawler import defaults


def _digest(key: str) -> bytes:
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest()


class RecentKeys:
    """Remembers at least the last ``capacity`` keys added (as 8-byte digests), at most
    twice that many: when the current generation is full it becomes the previous one and
    the generation before is forgotten.

    Used so that a URL refused by a middleware is recorded once instead of once per link
    to it. Forgetting is harmless: the database keeps one row per URL anyway, so a key seen
    again after it was forgotten only costs a redundant upsert.
    """

    def __init__(self, capacity: int = defaults.UNCRAWLED_RECORD_ONCE_MAX) -> None:
        self.capacity = max(1, capacity)
        self._current: set[bytes] = set()
        self._previous: set[bytes] = set()
        self.generations = 1

    def add(self, key: str) -> bool:
        """Remember ``key``; True if it was not remembered yet."""
        digest = _digest(key)
        if digest in self._current:
            return False
        known = digest in self._previous
        if len(self._current) >= self.capacity:
            self._previous, self._current = self._current, set()
            self.generations += 1
        self._current.add(digest)
        return not known

    def __contains__(self, key: str) -> bool:
        digest = _digest(key)
        return digest in self._current or digest in self._previous

    def __len__(self) -> int:
        return len(self._current | self._previous)
