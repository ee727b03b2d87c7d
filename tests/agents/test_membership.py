"""Host leases on the real database, without crawl processes: two agents of one crawl."""

from __future__ import annotations

import asyncio
import time
import uuid

import psycopg
import pytest

from crawler.agents.assignment import HostLoad, owner
from crawler.agents.membership import AgentMembership, claim_seeding
from crawler.frontier.buffer import DONE, LEASED, QUEUED
from crawler.frontier.postgres_store import PostgresStore
from crawler.frontier.scores import UrlStats, make_strategy
from crawler.frontier.store import NewRow, WriteBatch

HOSTS = [f"h{i}.test" for i in range(12)]


def _row(fp: int, host: str, stats: UrlStats) -> NewRow:
    return NewRow(fp, f"http://{host}/{fp}", host, QUEUED, 0, 0.0, fp, True, stats, 0.0,
                  None, None, b"x")


async def _store(url: str, crawl_id: str, agent: str) -> PostgresStore:
    store = PostgresStore(url, crawl_id, agent_id=agent)
    await store.open(make_strategy("bestfirst", {}))
    return store


async def _store_with_hosts(url: str, crawl_id: str) -> PostgresStore:
    """Agent a's store of a new crawl with one queued URL on each of HOSTS."""
    store = await _store(url, crawl_id, "a")
    await store.write(WriteBatch(new=[_row(i + 1, h, UrlStats(0, 1, 1.0, 0, 0, 0))
                                      for i, h in enumerate(HOSTS)]))
    return store


def _owners(url: str, key: int) -> dict[str, str | None]:
    with psycopg.connect(url) as conn:
        return dict(conn.execute("SELECT host, agent_id FROM host_owners WHERE crawl = %s",
                                 (key,)).fetchall())


def test_hosts_split_by_rendezvous_and_pass_over_only_after_the_lease(migrated):
    crawl_id = f"m-{uuid.uuid4().hex[:8]}"

    async def run():
        store = await _store_with_hosts(migrated, crawl_id)
        a = AgentMembership(migrated, crawl_id, store.key, "a", ttl=2.0, margin=0.5)
        b = AgentMembership(migrated, crawl_id, store.key, "b", ttl=2.0, margin=0.5)
        await a.join()
        assert await claim_seeding(store.conn, store.key)
        assert not await claim_seeding(store.conn, store.key)
        beat = await a.heartbeat()
        assert set(beat.gained) == set(HOSTS)  # alone: every host
        await b.join()
        beat_a = await a.heartbeat()  # a sees b: hands b's hosts back
        for_b = {h for h in HOSTS if owner(h, {"a": 1.0, "b": 1.0}) == "b"}
        assert for_b and beat_a.released == for_b and a.owned == set(HOSTS) - for_b
        beat_b = await b.heartbeat()
        assert set(beat_b.gained) == for_b
        owners = _owners(migrated, store.key)
        assert {h for h, ag in owners.items() if ag == "b"} == for_b
        assert {h for h, ag in owners.items() if ag == "a"} == set(HOSTS) - for_b
        # b leases rows of its hosts
        rows = await store.claim(100, 10, [], sorted(for_b))
        assert {r.host for r in rows} == for_b
        with psycopg.connect(migrated, autocommit=True) as conn:
            conn.execute("UPDATE frontier SET agent = 'b' WHERE crawl = %s AND state = %s",
                         (store.key, LEASED))
        # b stops beating: its hosts stay its own until its lease has expired
        assert not (await a.heartbeat()).gained
        assert b.may_fetch(sorted(for_b)[0])
        # Lease time passing is the behaviour under test: real sleeps (TTL 2 s, margin 0.5 s).
        time.sleep(1.0)  # within b's lease
        assert not (await a.heartbeat()).gained
        time.sleep(0.6)  # past b's own deadline (TTL - margin), within its lease
        assert not b.may_fetch(sorted(for_b)[0])  # b's own deadline passes first,
        assert not (await a.heartbeat()).gained  # its lease in the database later
        time.sleep(0.6)  # past b's lease
        beat_a = await a.heartbeat()
        assert beat_a.dead_agents == ["b"] and beat_a.requeued == len(rows)
        assert set(beat_a.gained) == for_b and a.owned == set(HOSTS)
        # b comes back: its lease is gone; it gives up everything and joins again
        beat_b = await b.heartbeat()
        assert beat_b.rejoined and beat_b.lost == for_b and not beat_b.gained
        assert not b.owned
        await a.disconnect()
        await b.disconnect()
        await store.close(True, 0.0, 0)

    asyncio.run(run())


@pytest.mark.parametrize("order", ["ab", "ba"])
def test_new_rows_of_two_agents_merge_in_any_order(migrated, order):
    crawl_id = f"merge-{uuid.uuid4().hex[:8]}"
    events = {"a": UrlStats(3, 1, 0.25, 1.5, 0.4, 0.0), "b": UrlStats(2, 1, 0.5, 0.7, 0.9, 0.1)}

    async def run():
        stores = {n: await _store(migrated, crawl_id, n) for n in "ab"}
        for n in order:
            await stores[n].write(WriteBatch(new=[_row(42, "x.test", events[n].copy())]))
        for s in stores.values():
            await s.close(True, 0.0, 0)
        with psycopg.connect(migrated) as conn:
            return conn.execute(
                "SELECT depth, backlinks, cash, link_score, attributes, extra, score"
                " FROM frontier f JOIN frontier_crawls c ON c.key = f.crawl"
                " WHERE c.crawl_id = %s", (crawl_id,)).fetchone()

    merged = events["a"].copy()
    merged.absorb(events["b"])
    row = asyncio.run(run())
    assert row[:6] == pytest.approx((merged.depth, merged.backlinks, merged.cash,
                                     merged.link_score, merged.attributes, merged.extra))
    assert row[6] == pytest.approx(make_strategy("bestfirst", {}).score(merged))


def test_agent_sessions_end_transactions_left_idle_past_the_lease(database_url):
    # a cut-off agent's open transaction (and its row locks) must not outlive its lease
    from crawler.storage.database import with_idle_transaction_timeout

    url = with_idle_transaction_timeout(database_url, 0.5)
    with psycopg.connect(url) as conn:
        assert conn.execute("SHOW idle_in_transaction_session_timeout").fetchone() == ("500ms",)
        conn.execute("SELECT 1")  # a transaction is open now, then left idle
        time.sleep(1.5)  # left idle past the 0.5 s timeout: the behaviour under test
        with pytest.raises(psycopg.errors.IdleInTransactionSessionTimeout):
            conn.execute("SELECT 1")


def test_hosts_are_lent_to_an_agent_without_work_and_go_home_when_empty(migrated):
    crawl_id = f"lend-{uuid.uuid4().hex[:8]}"
    pair = {"a": 1.0, "b": 1.0}
    # six hosts that rendezvous hashing gives to a: b has no work of its own
    hosts = sorted(h for h in (f"w{i}.test" for i in range(60)) if owner(h, pair) == "a")[:6]
    stats = UrlStats(0, 1, 1.0, 0, 0, 0)

    async def run():
        store = await _store(migrated, crawl_id, "a")
        await store.write(WriteBatch(new=[
            _row(10 * i + k + 1, h, stats.copy()) for i, h in enumerate(hosts) for k in range(3)
        ]))
        a = AgentMembership(migrated, crawl_id, store.key, "a", ttl=30.0, margin=1.0)
        b = AgentMembership(migrated, crawl_id, store.key, "b", ttl=30.0, margin=1.0)
        await a.join()
        await b.join()
        # two requests in flight each, one per host: a can serve two of its six hosts
        load_a = HostLoad(2, {h: 1.0 for h in hosts})
        load_b = HostLoad(2, {})
        assert set((await a.heartbeat(load=load_a)).gained) == set(hosts)
        beat_b = await b.heartbeat(load=load_b)
        assert beat_b.need == 2 and not beat_b.gained
        beat_a = await a.heartbeat(load=load_a)
        lent = set(hosts[:2])  # equal queues: by name
        assert beat_a.need == 0 and beat_a.lent == {h: "b" for h in lent}
        assert beat_a.released == lent and a.owned == set(hosts) - lent
        assert not any(a.may_fetch(h) for h in lent)
        owners = _owners(migrated, store.key)
        assert {h: owners[h] for h in lent} == {h: None for h in lent}
        # the lender does not take them back while they are lent to a live agent
        assert not (await a.heartbeat(load=load_a)).gained
        beat_b = await b.heartbeat(load=load_b)
        assert set(beat_b.gained) == lent and b.loans == lent
        assert all(b.may_fetch(h) for h in lent)
        with psycopg.connect(migrated) as conn:
            rows = {h: (a, lent, e) for h, a, lent, e in conn.execute(
                "SELECT host, agent_id, lent_to, epoch FROM host_owners WHERE crawl = %s",
                (store.key,)).fetchall()}
            assert {h: rows[h] for h in lent} == {h: ("b", "b", 3) for h in lent}
            # b fetches one host empty: it goes home
            home = hosts[0]
            conn.execute("UPDATE frontier SET state = 2 WHERE crawl = %s AND host = %s",
                         (store.key, home))
            conn.commit()
        # b holds one host with work for two slots: it needs one more, and gives the
        # empty one back
        beat_b = await b.heartbeat(load=load_b)
        assert beat_b.returned == {home} and beat_b.released == {home}
        assert b.owned == lent - {home} and b.loans == lent - {home}
        await store.write(WriteBatch(new=[_row(999, home, stats.copy())]))
        beat_a = await a.heartbeat(load=load_a)
        assert home in beat_a.gained and home in a.owned
        with psycopg.connect(migrated) as conn:
            assert conn.execute(
                "SELECT agent_id, lent_to, epoch FROM host_owners WHERE crawl = %s"
                " AND host = %s", (store.key, home)).fetchone() == ("a", None, 4)
        await a.leave("finished")
        await b.leave("finished")
        await store.close(True, 0.0, 0)

    asyncio.run(run())


def test_two_lenders_never_fill_one_need_twice(migrated):
    crawl_id = f"need-{uuid.uuid4().hex[:8]}"

    async def run():
        store = await _store(migrated, crawl_id, "a")
        members = {n: AgentMembership(migrated, crawl_id, store.key, n, ttl=30.0, margin=1.0)
                   for n in "abc"}
        for m in members.values():
            await m.join()
        await members["b"].heartbeat(load=HostLoad(3, {}))  # b holds nothing: needs 3
        a, c = members["a"], members["c"]
        got_a = await a._reserve(await a._connection(), {"h1.test": "b", "h2.test": "b"})
        got_c = await c._reserve(await c._connection(), {"h3.test": "b", "h4.test": "b"})
        for m in members.values():
            await m.leave("finished")
        await store.close(True, 0.0, 0)
        return got_a, got_c

    got_a, got_c = asyncio.run(run())
    assert got_a == {"h1.test": "b", "h2.test": "b"} and got_c == {"h3.test": "b"}


def test_hosts_of_one_server_are_held_by_one_agent_at_a_time(migrated):
    # POLITENESS_KEY=ip: a.test and b.test on one address, c.test on another, g.test
    # does not resolve (its own key). By host name a.test and b.test belong to different
    # agents; by address both to agent-6b.
    crawl_id = f"srv-{uuid.uuid4().hex[:8]}"
    hosts = ["a.test", "b.test", "c.test", "g.test"]
    address = {"a.test": "127.0.0.2", "b.test": "127.0.0.2", "c.test": "127.0.0.3"}
    live = {"agent-6a": 1.0, "agent-6b": 1.0}
    assert owner("a.test", live) != owner("b.test", live)
    assert owner("127.0.0.2", live) == "agent-6b" and owner("127.0.0.3", live) == "agent-6a"
    assert owner("g.test", live) == "agent-6a" and owner("127.0.0.4", live) == "agent-6b"

    async def resolve(names: list[str]) -> dict[str, str]:
        return {h: address.get(h, h) for h in names}

    def servers(url: str, key: int) -> dict[str, tuple[str | None, str | None]]:
        with psycopg.connect(url) as conn:
            return {h: (a, s) for h, a, s in conn.execute(
                "SELECT host, agent_id, server FROM host_owners WHERE crawl = %s", (key,))}

    async def run():
        store = await _store(migrated, crawl_id, "agent-6a")
        await store.write(WriteBatch(new=[_row(i + 1, h, UrlStats(0, 1, 1.0, 0, 0, 0))
                                          for i, h in enumerate(hosts)]))
        a, b = (AgentMembership(migrated, crawl_id, store.key, n, ttl=5.0, margin=0.5,
                                resolve=resolve) for n in live)
        await a.join()
        assert set((await a.heartbeat()).gained) == set(hosts)  # alone: every host
        assert servers(migrated, store.key) == {
            "a.test": ("agent-6a", "127.0.0.2"), "b.test": ("agent-6a", "127.0.0.2"),
            "c.test": ("agent-6a", "127.0.0.3"), "g.test": ("agent-6a", "g.test")}
        await b.join()
        # a sees b: the hosts of 127.0.0.2 go to b, but a.test has a request in flight
        beat = await a.heartbeat(busy_hosts={"a.test"})
        assert beat.releasing == {"a.test", "b.test"} and beat.released == {"b.test"}
        assert not a.may_fetch("a.test") and not a.may_fetch("b.test")
        # b may not take b.test while a still holds a host of its server
        assert not (await b.heartbeat()).gained and not b.owned
        # a.test's answer was a 503 (a pause of 3 s for the server) after b.test had gone:
        # the server's pause holds for both hosts of it
        beat = await a.heartbeat(in_flight=lambda: (set(), {"a.test": 3.0}))
        assert beat.released == {"a.test"}
        gained = (await b.heartbeat()).gained
        assert set(gained) == {"a.test", "b.test"}
        assert all(2.0 < wait <= 3.0 for wait in gained.values()), gained
        assert a.owned == {"c.test", "g.test"} and b.owned == {"a.test", "b.test"}
        # a.test moves to 127.0.0.3 (its TTL ran out): b stops fetching it at once, and
        # hands it over at its next beat (a holds a host of 127.0.0.3)
        assert b.may_fetch("a.test", "127.0.0.2") and not b.may_fetch("a.test", "127.0.0.3")
        address["a.test"] = "127.0.0.3"
        beat = await b.heartbeat(addresses={"a.test": "127.0.0.3", "b.test": "127.0.0.2"})
        assert beat.released == {"a.test"} and b.owned == {"b.test"}
        assert set((await a.heartbeat()).gained) == {"a.test"}
        # b.test moves to an address nobody holds (b its rendezvous owner): b keeps it,
        # under the new address
        address["b.test"] = "127.0.0.4"
        beat = await b.heartbeat(addresses={"b.test": "127.0.0.4"})
        assert not beat.releasing and b.owned == {"b.test"}
        assert b.may_fetch("b.test", "127.0.0.4") and not b.may_fetch("b.test", "127.0.0.2")
        address["b.test"] = "127.0.0.2"
        assert not (await b.heartbeat(addresses={"b.test": "127.0.0.2"})).releasing
        # g.test resolves now, to 127.0.0.2 (b's): a re-keys it only where nobody else
        # holds the address, so it hands g.test over to b
        address["g.test"] = "127.0.0.2"
        beat = await a.heartbeat(addresses={"g.test": "127.0.0.2"})
        assert beat.released == {"g.test"}
        assert set((await b.heartbeat()).gained) == {"g.test"}
        assert servers(migrated, store.key) == {
            "a.test": ("agent-6a", "127.0.0.3"), "b.test": ("agent-6b", "127.0.0.2"),
            "c.test": ("agent-6a", "127.0.0.3"), "g.test": ("agent-6b", "127.0.0.2")}
        await a.disconnect()
        await b.disconnect()
        await store.close(True, 0.0, 0)

    asyncio.run(run())


def test_a_host_is_released_with_what_is_in_flight_when_it_is_released(migrated):
    # the beat's statements take time: a request the downloader starts meanwhile keeps
    # its host (busy), and its wait is the one of that moment, not of the beat's start
    crawl_id = f"m-{uuid.uuid4().hex[:8]}"

    async def run():
        store = await _store_with_hosts(migrated, crawl_id)
        a = AgentMembership(migrated, crawl_id, store.key, "a", ttl=5.0, margin=1.0)
        b = AgentMembership(migrated, crawl_id, store.key, "b", ttl=5.0, margin=1.0)
        await a.join()
        assert set((await a.heartbeat()).gained) == set(HOSTS)
        await b.join()
        for_b = sorted(h for h in HOSTS if owner(h, {"a": 1.0, "b": 1.0}) == "b")
        started, waiting = for_b[0], for_b[1]  # a request to each began during the beat
        asked = []

        def in_flight():
            asked.append(set(a.releasing))  # asked once the hosts to release are marked
            return {started}, {waiting: 3.0}

        beat_a = await a.heartbeat(busy_hosts=(), next_fetch={}, in_flight=in_flight)
        assert asked == [set(for_b)]
        assert beat_a.released == set(for_b) - {started} and started in a.owned
        assert not a.may_fetch(started)  # being released: no new request
        gained = (await b.heartbeat()).gained
        assert set(gained) == set(for_b) - {started}
        assert 2.0 < gained[waiting] <= 3.0 and gained[for_b[2]] == 0.0
        # the request answered: released at the next beat
        assert (await a.heartbeat(in_flight=lambda: (set(), {}))).released == {started}
        await a.disconnect()
        await b.disconnect()
        await store.close(True, 0.0, 0)

    asyncio.run(run())


class _WatchedMembership(AgentMembership):
    """Notes, at the beat's last statement (after its claim), what a scheduler asking
    then would be told of each host it holds."""

    seen: dict[str, tuple[bool, float]]

    async def _finish_reason(self, conn, idle):
        self.seen = {h: (self.may_fetch(h), self.first_fetch_wait(h)) for h in self.owned}
        return await super()._finish_reason(conn, idle)


def test_a_claimed_host_waits_from_the_moment_it_is_owned(migrated):
    # the last owner's wait (here 3 s of a 503's pause) holds for every request of the new
    # owner, also one asked for while its beat is still running (early requests, 0.06 and
    # 0.138 s inside a pause, were seen in tests/agents/test_agents_server_key.py)
    crawl_id = f"m-{uuid.uuid4().hex[:8]}"

    async def run():
        store = await _store_with_hosts(migrated, crawl_id)
        a = AgentMembership(migrated, crawl_id, store.key, "a", ttl=5.0, margin=1.0)
        b = _WatchedMembership(migrated, crawl_id, store.key, "b", ttl=5.0, margin=1.0)
        await a.join()
        await a.heartbeat()
        await b.join()
        for_b = sorted(h for h in HOSTS if owner(h, {"a": 1.0, "b": 1.0}) == "b")
        waiting, free = for_b[0], for_b[1]
        beat_a = await a.heartbeat(in_flight=lambda: (set(), {waiting: 3.0}))
        assert beat_a.released == set(for_b)
        beat_b = await b.heartbeat()
        assert set(beat_b.gained) == set(for_b)
        may, wait = b.seen[waiting]
        assert may and 2.0 < wait <= 3.0  # in force while the beat still ran
        assert b.seen[free] == (True, 0.0)
        assert 2.0 < b.first_fetch_wait(waiting) <= 3.0 and b.first_fetch_wait(free) == 0.0
        await a.disconnect()
        await b.disconnect()
        await store.close(True, 0.0, 0)

    asyncio.run(run())


def test_a_dead_agents_leased_row_whose_page_was_saved_is_fetched_again(migrated):
    # a saved page says nothing of its links: they reach the frontier with the row's
    # ack, which a leased row has not had; a saved failure has no links (done)
    crawl_id = f"m-{uuid.uuid4().hex[:8]}"

    async def run():
        store = await _store_with_hosts(migrated, crawl_id)
        a = AgentMembership(migrated, crawl_id, store.key, "a", ttl=1.0, margin=0.3)
        b = AgentMembership(migrated, crawl_id, store.key, "b", ttl=1.0, margin=0.3)
        await a.join()
        await b.join()
        rows = await store.claim(100, 10, [], sorted(HOSTS))
        assert len(rows) >= 3
        page, failure = rows[0].url, rows[1].url
        with psycopg.connect(migrated, autocommit=True) as conn:
            conn.execute("UPDATE frontier SET agent = 'b' WHERE crawl = %s AND state = %s",
                         (store.key, LEASED))
            conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'general')", (crawl_id,))
            conn.execute("INSERT INTO pages (crawl_id, url, final_url, host, status,"
                         " fetched_at, depth, content_md5, size)"
                         " VALUES (%s, %s, %s, 'h.test', 200, now(), 0, '', 0)",
                         (crawl_id, page, page))
            conn.execute("INSERT INTO uncrawled (crawl_id, url, category, detail)"
                         " VALUES (%s, %s, 'http_404', '')", (crawl_id, failure))
        await a.heartbeat()
        # Lease time passing is the behaviour under test: a real sleep past b's lease.
        time.sleep(1.2)
        beat = await a.heartbeat()
        assert beat.dead_agents == ["b"]
        assert (beat.finished, beat.requeued) == (1, len(rows) - 1)
        with psycopg.connect(migrated) as conn:
            states = dict(conn.execute("SELECT url, state FROM frontier WHERE crawl = %s",
                                       (store.key,)).fetchall())
        assert states[page] == QUEUED and states[failure] == DONE
        assert all(states[r.url] == QUEUED for r in rows[2:])
        await a.disconnect()
        await b.disconnect()
        await store.close(True, 0.0, 0)

    asyncio.run(run())
