"""The service's opt-in timing probe and the benchmark's reader of it (``bench e2e --service-process``).

A stand-in core publishes; the probe's lines go through the benchmark's FIFO
reader, which must rebuild the snapshots' readings and the message numbering.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from firmware_bridge.bench.e2e_process import ProbeLog
from firmware_bridge.config import config_from_dict
from firmware_bridge.service import seams, timing_probe
from firmware_bridge.service.inputs import CommandInput, EventInput, Input, SnapshotInput, Tick
from rules.core.physical import LedFrame, MomentaryEvent, Snapshot


class FakeCore:
    """Publishes a state and a move for every snapshot, a state for a ``status`` command, nothing else."""

    def __init__(self) -> None:
        self.publishers: list[Any] = []
        self.handled: list[Input] = []

    def handle(self, item: Input) -> None:
        self.handled.append(item)
        if isinstance(item, SnapshotInput):
            for p in self.publishers:
                p.publish_state({})
            for p in self.publishers:
                p.publish_event("move", {})
        elif isinstance(item, CommandInput):
            for p in self.publishers:
                p.publish_state({})


class FakeTable:
    def __init__(self) -> None:
        self.inputs: Any = None

    def start(self, inputs: Any) -> None:
        self.inputs = inputs

    def show(self, frame: LedFrame) -> None: ...

    def stop(self) -> None: ...

    def healthy(self) -> bool:
        return True

    def settling(self, handled_seq: int, since: float) -> bool:
        return handled_seq > 0


def config() -> Any:
    return config_from_dict({"board": {"id": "t"}, "hal": {"backend": "sim"}}, source="test")


@pytest.fixture(autouse=True)
def fake_table() -> Iterator[None]:
    """``hal.backend = "sim"`` builds a ``FakeTable`` during the test (the registry is restored after)."""
    saved = dict(seams._table_backends)
    seams.register_table_backend("sim", lambda cfg, ctx: FakeTable())
    yield
    seams._table_backends.clear()
    seams._table_backends.update(saved)


def test_the_probe_is_off_without_the_environment_variable():
    assert timing_probe.from_environ(config(), environ={}) is None
    factory: Any = seams.table_backend(config())
    assert isinstance(factory(config(), None), FakeTable)


def test_one_line_per_snapshot_event_and_command_with_stamps_numbers_and_changed_readings(tmp_path):
    path = tmp_path / "probe.jsonl"
    probe = timing_probe.from_environ(config(), environ={timing_probe.ENV: str(path)})
    assert probe is not None
    factory: Any = seams.table_backend(config())
    table: Any = factory(config(), None)
    assert table.settling(3, 0.0) is True  # what the wrapper does not stamp goes to the adapter
    core = FakeCore()
    probe.attach(core)
    table.start(core.handle)  # (the inbox, in the service)
    inner: Any = table.inner
    inner.inputs(SnapshotInput(Snapshot(1, {"a": ("x:1",), "b": 0})))
    inner.inputs(EventInput(MomentaryEvent(1, "slider", "pull")))
    inner.inputs(SnapshotInput(Snapshot(2, {"a": (), "b": 0})))
    core.handle(Tick())  # published nothing: no line
    core.handle(CommandInput("status", json.dumps({"transaction": "tx-1"}).encode(), lambda r: None))
    probe.out.close()
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["kind"] for x in lines] == ["snapshot", "event", "snapshot", "command"]
    first, event, second, command = lines
    assert first["seq"] == 1 and first["changed"] == {"a": ["x:1"], "b": 0}
    assert first["released"] <= first["start"] <= first["first"] <= first["end"]
    assert (first["index"], first["published"], first["topic"]) == (0, 2, "state")
    assert (event["index"], event["published"], event["first"], event["topic"]) == (2, 0, None, None)
    assert second["changed"] == {"a": []} and (second["index"], second["published"]) == (2, 2)
    assert (command["name"], command["tx"], command["index"], command["published"]) == ("status", "tx-1", 4, 1)


class Lines:
    def __init__(self, out: io.TextIOBase | Any):
        self.out = out

    def write(self, **line: Any) -> None:
        base: Mapping[str, Any] = {"start": 1.0, "end": 2.0, "first": None, "topic": None, "published": 0}
        self.out.write(json.dumps({**base, **line}) + "\n")
        self.out.flush()


def test_the_benchmark_reads_records_readings_and_command_counts_from_the_fifo():
    log = ProbeLog()
    try:
        with open(log.path, "w", encoding="utf-8") as f:
            lines = Lines(f)
            lines.write(kind="snapshot", seq=7, released=0.5, index=3, published=1, first=1.5, topic="state",
                        changed={"a": ["x:1"], "b": 2})
            assert log.wait_readings({"a": ("x:1",), "b": 2}, 5.0)
            mark = log.mark
            f.write("not json\n")
            lines.write(kind="event", seq=1, released=0.7, index=4)
            lines.write(kind="snapshot", seq=8, released=0.9, index=4, changed={"b": 3}, gone=["a"])
            lines.write(kind="command", name="status", tx="t-9", index=4, published=1)
            assert log.wait_command("t-9", 5.0) == 5
        assert log.wait_readings({"b": 3}, 5.0)
        assert log.since(mark) == [("event", 1), ("snapshot", 8)]
        assert log.wait_released(mark, "event", 1, 1.0)
        rec = log.wait_handled(("snapshot", 7), 1.0)
        assert rec is not None and rec.handled
        assert (rec.released, rec.core_start, rec.first_publish, rec.first_index, rec.first_topic) == (
            0.5, 1.0, 1.5, 3, "state")
        assert log.wait_handled(("snapshot", 99), 0.05) is None
        assert log.bad_lines == 1 and log.total == 5
    finally:
        log.close()
