"""One crawl, one mode, and the crawl lock of a dead session (crawler/frontier/crawl_lock.py):
on the real database, with the stores and memberships themselves (no crawl process)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
import uuid

import psycopg
import pytest

from crawler.agents.membership import AgentMembership
from crawler.frontier import crawl_lock
from crawler.frontier.buffer import LEASED, QUEUED
from crawler.frontier.crawl_lock import FrontierLocked, Holder, application_name
from crawler.frontier.postgres_store import PostgresStore
from crawler.frontier.scores import UrlStats, make_strategy
from crawler.frontier.store import NewRow, WriteBatch

STRATEGY = make_strategy("bestfirst", {})


def _row(fp: int, host: str) -> NewRow:
    return NewRow(
        fp,
        f"http://{host}/{fp}",
        host,
        QUEUED,
        0,
        0.0,
        fp,
        True,
        UrlStats(0, 1, 1.0, 0, 0, 0),
        0.0,
        None,
        None,
        b"x",
    )


def dead_pid() -> int:
    """The pid of a process of this machine that has exited."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def hold_lock(url: str, crawl_id: str, name: str) -> psycopg.Connection:
    """Another session holding the crawl's lock, named like a frontier session."""
    conn = psycopg.connect(url, autocommit=True, application_name=name)
    conn.execute("SELECT pg_advisory_lock(%s, hashtext(%s))", (crawl_lock.LOCK_CLASS, crawl_id))
    return conn


def test_which_holders_are_dead_clients_of_this_machine():
    alive = {10}.__contains__
    assert crawl_lock.dead_local_client(Holder(1, "crawler 11@m1", True), "m1", alive)
    assert not crawl_lock.dead_local_client(Holder(1, "crawler 10@m1", True), "m1", alive)
    assert not crawl_lock.dead_local_client(Holder(1, "crawler 11@m2", True), "m1", alive)
    assert not crawl_lock.dead_local_client(Holder(1, "psql", True), "m1", alive)


def test_a_one_process_run_refuses_a_crawl_live_agents_share(migrated):
    crawl_id = f"mode-{uuid.uuid4().hex[:8]}"

    async def run():
        agent = PostgresStore(migrated, crawl_id, agent_id="a")
        await agent.open(STRATEGY)
        await agent.write(WriteBatch(new=[_row(1, "h1.test"), _row(2, "h2.test")]))
        member = AgentMembership(migrated, crawl_id, agent.key, "a", ttl=30.0, margin=1.0)
        await member.join()
        assert len(await agent.claim(1, 1, [], hosts=["h1.test"])) == 1
        single = PostgresStore(migrated, crawl_id, lock_wait=0.0)
        with pytest.raises(FrontierLocked, match="AGENTS_ENABLED=1") as refused:
            await single.open(STRATEGY)
        assert "1 running agent(s) (a)" in str(refused.value)
        assert single.conn is None  # the lock is released with the session
        # the live agent's lease is untouched
        with psycopg.connect(migrated) as conn:
            rows = {
                h: (s, a)
                for h, s, a in conn.execute(
                    "SELECT host, state, agent FROM frontier WHERE crawl = %s", (agent.key,)
                ).fetchall()
            }
        assert rows == {"h1.test": (LEASED, "a"), "h2.test": (QUEUED, None)}
        # once the agent has left, a one-process run takes the crawl over
        await member.leave("finished")
        await agent.close(True, 0.0, 0)
        await single.open(STRATEGY)
        await single.close(True, 0.0, 0)

    asyncio.run(run())


def test_an_agent_refuses_a_crawl_a_one_process_run_holds(migrated):
    crawl_id = f"mode-{uuid.uuid4().hex[:8]}"

    async def run():
        single = PostgresStore(migrated, crawl_id)
        await single.open(STRATEGY)
        agent = PostgresStore(migrated, crawl_id, agent_id="a", lock_wait=0.0)
        with pytest.raises(FrontierLocked, match="one-process run"):
            await agent.open(STRATEGY)
        # nor can an agent (re)join it: the membership checks the lock too
        member = AgentMembership(migrated, crawl_id, single.key, "b", ttl=30.0, margin=1.0)
        with pytest.raises(FrontierLocked, match="AGENTS_ENABLED=1"):
            await member.join()
        await member.disconnect()
        with psycopg.connect(migrated) as conn:
            assert conn.execute(
                "SELECT count(*) FROM agents WHERE crawl_id = %s", (crawl_id,)
            ).fetchone() == (0,)
            assert conn.execute(
                "SELECT shared FROM frontier_crawls WHERE crawl_id = %s", (crawl_id,)
            ).fetchone() == (False,)
        await single.close(True, 0.0, 0)
        await agent.open(STRATEGY)  # once it is over, agents may run the crawl
        await agent.close(True, 0.0, 0)

    asyncio.run(run())


def test_the_lock_of_a_dead_local_session_is_taken_over(migrated):
    crawl_id = f"dead-{uuid.uuid4().hex[:8]}"
    # the session of a killed run that PostgreSQL has not ended yet
    dead = hold_lock(migrated, crawl_id, application_name(dead_pid()))

    async def run():
        store = PostgresStore(migrated, crawl_id, lock_wait=30.0)
        started = time.monotonic()
        await store.open(STRATEGY)
        took = time.monotonic() - started
        await store.close(True, 0.0, 0)
        return took

    took = asyncio.run(run())
    assert took < 10.0  # ended at once, not waited for
    with pytest.raises(psycopg.OperationalError):
        dead.execute("SELECT 1")  # its backend was terminated
    dead.close()


def test_a_live_or_unknown_holder_is_waited_for_then_refused(migrated):
    crawl_id = f"held-{uuid.uuid4().hex[:8]}"

    async def run(wait: float) -> float:
        store = PostgresStore(migrated, crawl_id, lock_wait=wait)
        started = time.monotonic()
        try:
            await store.open(STRATEGY)
        except FrontierLocked:
            return -(time.monotonic() - started)
        await store.close(True, 0.0, 0)
        return time.monotonic() - started

    # a process of this machine that runs (this one): refused at once, not waited for
    live = hold_lock(migrated, crawl_id, application_name())
    assert -2.0 < asyncio.run(run(30.0)) <= 0
    live.close()
    # a session of another machine: waited for, FRONTIER_LOCK_WAIT at most
    other = hold_lock(migrated, crawl_id, "crawler 1@another-machine")
    took = asyncio.run(run(1.0))
    assert took <= -1.0
    # ... and taken when it is released within the wait

    async def release_later() -> float:
        async def release() -> None:
            await asyncio.sleep(1.0)
            await asyncio.to_thread(other.close)

        task = asyncio.ensure_future(release())
        took = await run(30.0)
        await task
        return took

    took = asyncio.run(release_later())
    assert 1.0 <= took < 10.0


# --- real `scrapy crawl` processes ---------------------------------------------------------


def assert_refused(result, says: str) -> None:
    """Exit status 2, one ``error:`` line saying ``says``, no traceback."""
    assert result.returncode == 2, result.stderr[-3000:]
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and says in errors[0], errors
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_scrapy_crawl_refuses_each_mode_on_the_other_s_crawl(migrated, run_crawl):
    # a one-process run on a crawl a live agent shares
    crawl_id = f"mode-{uuid.uuid4().hex[:8]}"

    async def register() -> tuple[PostgresStore, AgentMembership]:
        agent = PostgresStore(migrated, crawl_id, agent_id="a")
        await agent.open(make_strategy("bestfirst", {}))
        await agent.write(WriteBatch(new=[_row(1, "h1.test")]))
        member = AgentMembership(migrated, crawl_id, agent.key, "a", ttl=120.0, margin=1.0)
        await member.join()
        assert len(await agent.claim(1, 1, [], hosts=["h1.test"])) == 1
        await member.disconnect()
        await agent.close(True, 0.0, 0)
        return agent, member

    agent, _ = asyncio.run(register())
    with psycopg.connect(migrated, autocommit=True) as conn:
        conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'general')", (crawl_id,))
    result = run_crawl(proxy=None, args={"crawl_id": crawl_id}, timeout=120)
    assert_refused(result, "AGENTS_ENABLED=1")
    with psycopg.connect(migrated) as conn:
        assert conn.execute(
            "SELECT state, agent FROM frontier WHERE crawl = %s", (agent.key,)
        ).fetchall() == [(LEASED, "a")]
        # the agents' crawl record is left alone
        assert conn.execute(
            "SELECT finished_at, finish_reason FROM crawls WHERE id = %s", (crawl_id,)
        ).fetchone() == (None, None)

    # an agent on a crawl a one-process run holds (this process's session)
    held_id = f"held-{uuid.uuid4().hex[:8]}"
    holder = hold_lock(migrated, held_id, application_name())
    try:
        result = run_crawl(
            proxy=None, args={"crawl_id": held_id}, settings={"AGENTS_ENABLED": True}, timeout=120
        )
    finally:
        holder.close()
    assert_refused(result, "one-process run")
    with psycopg.connect(migrated) as conn:
        assert conn.execute(
            "SELECT count(*) FROM agents WHERE crawl_id = %s", (held_id,)
        ).fetchone() == (0,)


@pytest.mark.slow
def test_restart_while_a_dead_session_holds_the_crawl_lock(migrated, run_crawl, sandbox):
    from crawler.sandbox.latency_web import build_latency_web

    web = build_latency_web(hosts=2, pages_per_host=3, delay=0.0)
    server = sandbox(web)
    crawl_id = f"dead-{uuid.uuid4().hex[:8]}"
    # what kill -9 leaves for a moment: the killed run's session, still holding the lock
    dead = hold_lock(migrated, crawl_id, application_name(dead_pid()))
    try:
        result = run_crawl(
            proxy=server.proxy_url,
            args={"crawl_id": crawl_id, "seed_urls": ",".join(web.seeds)},
            settings={"FRONTIER_LOCK_WAIT": 60},
            timeout=120,
        )
    finally:
        dead.close()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    assert "which is gone (killed?); ending that session" in result.stderr
    with psycopg.connect(migrated) as conn:
        stored = {
            u for (u,) in conn.execute("SELECT url FROM pages WHERE crawl_id = %s", (crawl_id,))
        }
    assert stored == set(web.reachable(web.seeds))
