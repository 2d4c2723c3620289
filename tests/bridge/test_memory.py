"""The service gives a search's garbage back to the system (firmware_bridge/memory.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

from firmware_bridge import memory
from hal.collector import collection_deferred
from tests.bridge.conftest import PILE, service_config
from tests.bridge.pebble_table import FakeTable, Pebbles, PebbleTable

CHILD = textwrap.dedent("""
    import gc
    from firmware_bridge.memory import release_free_memory
    def rss():
        return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmRSS"))
    keep = [dict(n=i) for i in range(0, 400_000, 97)]   # survivors scattered through the heap
    junk = [{"a": i, "b": [i] * 8} for i in range(400_000)]
    before = rss()
    del junk; gc.collect()
    freed_only = rss()
    release_free_memory()
    print(before, freed_only, rss())
""")


def test_free_pages_go_back_to_the_system_as_under_the_systemd_unit():
    env = {**os.environ, "PYTHONMALLOC": "malloc"}
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
    before, freed_only, trimmed = map(int, out.stdout.split())
    assert before - trimmed > 50_000  # kB: most of the ~100 MB of garbage is released
    assert trimmed < freed_only


def test_the_releaser_trims_only_when_idle_long_enough(monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(memory, "release_free_memory", lambda: calls.append("trim") or True)
    monkeypatch.setattr(memory.gc, "collect", lambda: calls.append("collect") or 0)
    now = [0.0]
    releaser = memory.Releaser(lambda: now[0], interval=1.0, collect_every=10.0)
    releaser.idle()
    assert calls == []
    now[0] = 1.5
    releaser.idle()
    releaser.idle()
    assert calls == ["trim"]
    now[0] = 11.0
    releaser.idle()
    assert calls == ["trim", "collect", "trim"]


def test_deploy_unit_runs_python_objects_in_the_trimmable_heap():
    from firmware_bridge.bench.service_process import unit_environment

    assert unit_environment()["PYTHONMALLOC"] == "malloc"


def test_the_collector_waits_while_an_input_is_handled_and_runs_again_after():
    import gc

    assert gc.isenabled()
    with collection_deferred():
        assert not gc.isenabled()
    assert gc.isenabled()
    try:
        with collection_deferred():
            raise ValueError("a bug in the interpreter")
    except ValueError:
        pass
    assert gc.isenabled(), "an exception must not leave the collector off"


def test_the_service_lets_the_interpreter_tidy_once_its_inbox_is_empty(tmp_path, make_service):
    """Freeing a turn's searched positions waits for an idle moment: it delays no verdict."""
    table = FakeTable()
    service = make_service(service_config(tmp_path), interpreter_factory=PebbleTable, table=table)
    pebbles = Pebbles(table, PILE, 2)
    pebbles.show()
    interpreter = service.core.session.interpreter
    assert isinstance(interpreter, PebbleTable)
    before = interpreter.tidied
    pebbles.take(service.core.session.state.seat, 1)
    deadline = time.monotonic() + 10
    while interpreter.tidied == before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert interpreter.tidied > before


FREEZE_CHILD = textwrap.dedent("""
    import gc
    from firmware_bridge.memory import freeze_long_lived

    class Node:
        def __init__(self):
            self.me = self  # a reference cycle: only the cyclic collector frees it

    kept = [Node() for _ in range(1000)]   # lives as long as the process, as the catalogue does
    Node(); Node()                          # garbage already: must not be frozen
    frozen = freeze_long_lived()
    walked = len(gc.get_objects())          # what the collector still walks
    Node(); Node(); Node()                  # garbage made later is still collected
    print(frozen, walked, gc.collect())
""")


def test_objects_alive_once_the_service_is_up_are_left_out_of_the_collectors_walks():
    """``aetherlink run`` calls it after start: full collections then walk only what was made since."""
    out = subprocess.run([sys.executable, "-c", FREEZE_CHILD], capture_output=True, text=True, check=True)
    frozen, walked, collected = map(int, out.stdout.split())
    assert frozen > 1000 and walked < 100
    assert collected >= 3


def test_the_sims_table_game_recognises_with_the_collector_deferred_as_the_service_does():
    """Soaks and tests recognise each snapshot and event as the service handles an input (hal.collector):
    with the collector on, a long presence-only turn took 2.6 times as long (presence seed 319, turn 214)."""
    import gc

    from sim.soak.games import TableGame, wiring_for

    game = TableGame(2, 1, wiring_for("identity"), mistake_rate=0.0)
    seen: list[bool] = []
    observe, event = game.recogniser.observe, game.recogniser.event
    game.recogniser.observe = lambda snapshot: seen.append(gc.isenabled()) or observe(snapshot)  # type: ignore
    game.recogniser.event = lambda ev: seen.append(gc.isenabled()) or event(ev)  # type: ignore
    for _ in range(40):
        game.play_one()
    assert seen and not any(seen)
    assert not gc.isenabled()  # off between inputs too, until the game is closed (hal.collector.PacedCollection)
    game.close()
    assert gc.isenabled()
