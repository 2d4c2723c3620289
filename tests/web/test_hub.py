"""The web's publisher: caches, replay after a reconnect, slow pages dropped, publications from another thread."""

from __future__ import annotations

import asyncio
import threading

import pytest

from firmware_bridge.web import hub as hub_module
from firmware_bridge.web.hub import Hub, sse


def test_before_the_server_runs_publications_are_kept() -> None:
    hub = Hub()
    hub.publish_state({"seq": 1})
    hub.publish_leds({"seq": 1, "leds": {}})
    hub.publish_event("move", {"notation": "pass"})
    hub.publish_state({"seq": 2})
    assert hub.state == b'{"seq":2}'

    async def check() -> None:
        queue, first = hub.subscribe()
        assert first[0] == sse("state", b'{"seq":2}')
        assert first[1] == sse("leds", b'{"seq":1,"leds":{}}')
        assert first[2].startswith(f"id: {hub.instance}-3\nevent: move\n".encode())
        assert len(first) == 3 and queue.empty()

    asyncio.run(check())


def test_replay_after_a_reconnect() -> None:
    hub = Hub(replay=3)
    for n in range(5):
        hub.publish_event("move", {"n": n})

    async def check() -> None:
        _, everything = hub.subscribe()
        assert [m.split(b"data: ")[1].strip() for m in everything] == [b'{"n":2}', b'{"n":3}', b'{"n":4}']
        _, missed = hub.subscribe(f"{hub.instance}-4")
        assert [m.split(b"data: ")[1].strip() for m in missed] == [b'{"n":4}']
        _, other = hub.subscribe("deadbeef-4")
        assert len(other) == 3, "an id from another server instance gets the whole buffer"
        _, junk = hub.subscribe("not an id")
        assert len(junk) == 3

    asyncio.run(check())


def test_publications_from_the_core_thread_reach_subscribers_in_order() -> None:
    hub = Hub()

    async def run() -> list[bytes | None]:
        hub.attach(asyncio.get_running_loop())
        queue, _ = hub.subscribe()
        def publish() -> None:
            for n in range(50):
                hub.publish_event("move", {"n": n})

        core = threading.Thread(target=publish)
        core.start()
        got = [await asyncio.wait_for(queue.get(), 5) for _ in range(50)]
        core.join()
        hub.close()
        got.append(await queue.get())
        hub.attach(None)
        return got

    got = asyncio.run(run())
    assert got[-1] is None, "closing ends every stream"
    assert [m.split(b"data: ")[1].strip() for m in got[:-1] if m] == [f'{{"n":{n}}}'.encode() for n in range(50)]


def test_a_page_too_far_behind_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_module, "QUEUE_LIMIT", 3)
    hub = Hub()

    async def run() -> None:
        hub.attach(asyncio.get_running_loop())
        slow, _ = hub.subscribe()
        for n in range(4):
            hub.publish_event("move", {"n": n})
        await asyncio.sleep(0.05)
        assert hub.subscribers == 0
        assert slow.get_nowait() is None, "the stream ends; the browser reconnects with a fresh state"
        hub.attach(None)

    asyncio.run(run())
