"""An asyncio loop in its own thread (crawler/storage/loop_thread.py)."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from crawler.storage.loop_thread import LoopThread


async def thread_name(delay: float = 0.0) -> str:
    await asyncio.sleep(delay)
    return threading.current_thread().name


async def fail() -> None:
    await asyncio.sleep(0)
    raise ValueError("broken write")


def test_coroutines_run_in_the_thread_and_return_to_the_caller() -> None:
    worker = LoopThread("test-writer").start()
    try:
        assert worker.running
        assert worker.submit(thread_name()).result(timeout=5) == "test-writer"

        async def caller() -> tuple[str, str]:
            # awaited from another event loop, which keeps running meanwhile
            ticks = 0

            async def tick() -> None:
                nonlocal ticks
                while True:
                    ticks += 1
                    await asyncio.sleep(0.001)

            ticker = asyncio.get_running_loop().create_task(tick())
            name = await worker.run(thread_name(0.05))
            ticker.cancel()
            assert ticks > 5
            return name, threading.current_thread().name

        assert asyncio.run(caller()) == ("test-writer", threading.current_thread().name)
    finally:
        worker.stop()
    assert not worker.running


def test_an_exception_in_the_thread_reaches_the_caller() -> None:
    worker = LoopThread("test-writer").start()
    try:
        with pytest.raises(ValueError, match="broken write"):
            worker.submit(fail()).result(timeout=5)

        async def caller() -> None:
            await worker.run(fail())

        with pytest.raises(ValueError, match="broken write"):
            asyncio.run(caller())
        # the loop survives its tasks' failures
        assert worker.submit(thread_name()).result(timeout=5) == "test-writer"
    finally:
        worker.stop()


def test_stop_lets_running_tasks_finish_then_joins() -> None:
    worker = LoopThread("test-writer").start()
    done: list[str] = []

    async def slow_write() -> None:
        await asyncio.sleep(0.2)
        done.append("written")

    future = worker.submit(slow_write())
    worker.stop()
    assert done == ["written"]
    assert future.result(timeout=0) is None
    assert not worker.running
    assert [t for t in threading.enumerate() if t.name == "test-writer"] == []
    worker.stop()  # idempotent
    with pytest.raises(RuntimeError):
        worker.submit(thread_name())


def test_stop_cancels_what_outlives_its_timeout(caplog: pytest.LogCaptureFixture) -> None:
    worker = LoopThread("test-writer").start()
    future = worker.submit(asyncio.sleep(60))
    with caplog.at_level(logging.ERROR, logger="crawler.storage.loop_thread"):
        worker.stop(timeout=0.1)
    assert future.cancelled()
    assert "1 tasks still running" in caplog.text
    assert not worker.running


def test_call_soon_runs_in_the_thread() -> None:
    worker = LoopThread("test-writer").start()
    seen: list[str] = []
    called = threading.Event()

    def callback(tag: str) -> None:
        seen.append(f"{tag} in {threading.current_thread().name}")
        called.set()

    try:
        worker.call_soon(callback, "called")
        assert called.wait(5)
        assert seen == ["called in test-writer"]
    finally:
        worker.stop()
