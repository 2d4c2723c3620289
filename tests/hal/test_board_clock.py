"""A board's scans placed on the host's clock by the board's own (``hal.link.board_clock``).

CI, 2026-12-01: the link soak under load gave a snapshot with a token in two places. A token moved
from one board's sensor to another's; the host, held up, read the first board's heartbeat of a scan
made before the move only after the second board's change, and took it as the first board being
quiet after the change (it was stamped with the moment it was read). About one soak in seven under
load, with two CPU burners beside two soaks."""

import yaml

from hal.engine import TableEngine
from hal.inputs import Confirmed, Readings, Ready
from hal.link.board_clock import BoardClock
from hal.settings import HalSettings
from hal.stabiliser import StabiliserSettings
from hal.wiring.loader import parse_wiring_map
from rules.core.physical import Snapshot
from tests.hal.test_session import Wire


def test_heartbeats_read_late_together_are_placed_when_the_board_sent_them():
    clock = BoardClock(window=2.0)
    for ms in range(0, 1000, 5):  # on time: read 0.3 ms after the board's millisecond
        clock.heard(ms / 1000, ms / 1000 + 0.0003)
    late = [ms / 1000 for ms in range(1000, 1300, 5)]  # 60 heartbeats the held-up host reads at 1.35 s
    placed = []
    for uptime in late:
        clock.heard(uptime, 1.35)
        placed.append(clock.host_time(uptime, 1.35))
    assert all(abs(at - (uptime + 0.0003)) < 1e-9 for at, uptime in zip(placed, late, strict=True))


def test_a_moment_is_never_placed_after_it_was_heard():
    clock = BoardClock()
    assert clock.host_time(5.0, now=2.0) == 2.0  # nothing heard yet: all that is known is "by now"
    clock.heard(1.0, now=3.0)
    assert clock.host_time(1.0, now=3.0) == 3.0
    assert clock.host_time(1.5, now=3.1) == 3.1  # (the board's clock ahead of what was heard)


def test_a_slow_board_clock_is_followed_within_a_millisecond():
    clock = BoardClock(window=2.0)
    drift = 50e-6  # the board's clock runs 50 ppm slow
    for i in range(60_000):  # ten minutes of heartbeats every 10 ms
        host = i * 0.01
        uptime = host * (1 - drift)
        clock.heard(uptime, host + 0.0002)
    assert abs(clock.host_time(uptime, host + 0.0002) - host) < 0.001


def test_the_board_counter_wrapping_starts_the_clock_afresh():
    clock = BoardClock(window=2.0)
    for ms in range(0, 100, 10):
        clock.heard(4294967.200 + ms / 1000, 1000.0 + ms / 1000)  # 2**32 ms is 4294967.296 s
    clock.heard(0.004, 1000.1)  # wrapped
    assert abs(clock.host_time(0.004, 1000.1) - 1000.1) < 1e-9
    assert abs(clock.host_time(0.002, 1000.1) - 1000.098) < 1e-9


def test_a_session_confirms_each_late_heartbeat_with_its_scans_moment():
    """The host session stamps a confirmation with when the board made the scan (its heartbeat's uptime
    on the host's clock), not when the bytes were read; more heartbeats come late than any fixed number
    of samples would hold (every 2 ms, 200 ms late)."""
    w = Wire()
    w.device.heartbeat_ms = 2
    w.step(200)
    assert w.listener.is_ready
    held = b""
    sent_at = w.ms / 1000
    for _ in range(100):  # the host reads nothing for 200 ms
        w.ms += 2
        w.device.end_scan(w.ms)
        w.device.poll(w.ms)
        held += w.device.take_output()
    w.listener.confirmations.clear()
    read_at = w.ms / 1000 + 0.05
    w.host.feed(held, read_at)
    times = [t for _scan, t in w.listener.confirmations]
    assert len(times) >= 90
    assert times[0] <= sent_at + 0.003 and abs(times[-1] - w.ms / 1000) < 0.0015
    assert times == sorted(times) and all(t < read_at for t in times)


TWO_BOARDS = parse_wiring_map(yaml.safe_dump({
    "format": 1,
    "name": "two boards",
    "devices": [{"id": "m1", "bus": "mcu", "port": "/dev/ttyACM0", "channels": 1},
                {"id": "m2", "bus": "mcu", "port": "/dev/ttyACM1", "channels": 1}],
    "locations": [
        {"id": "board.pool.t1", "kind": "slot", "fidelity": "presence",
         "channel": {"device": "m1", "sensor": "switch", "index": 0}},
        {"id": "board.pool.t2", "kind": "slot", "fidelity": "presence",
         "channel": {"device": "m2", "sensor": "switch", "index": 0}},
    ],
}), "two-boards.yaml")


def test_a_boards_old_heartbeat_read_after_a_change_elsewhere_lets_no_snapshot_out():
    """A token moves from m2's slot to m1's. m1's change is read at once; m2 is read late, and the first
    thing read is a heartbeat of a scan made before the move: with the token still on m2, the table
    would show it twice. The engine takes the scan's own moment (``Confirmed.t``) and waits."""
    settings = HalSettings(stabiliser=StabiliserSettings(quiet_window=0.15, agree_scans=1, max_unsettled=3.0))
    engine = TableEngine(TWO_BOARDS, settings)
    for board, level in (("m1", 0), ("m2", 1)):
        engine.handle(Ready(board, True), 0.0)
        engine.handle(Readings(board, {f"board.pool.t{board[1]}": (level, 1)}), 0.0)
        engine.handle(Confirmed(board, 5, 0.2), 0.2)
    assert [o.readings for o in engine.poll(0.2) if isinstance(o, Snapshot)] == [
        {"board.pool.t1": 0, "board.pool.t2": 1}]
    engine.handle(Readings("m1", {"board.pool.t1": (1, 50)}), 1.0)  # the token arrives on m1
    engine.handle(Confirmed("m1", 70, 1.2), 1.2)
    engine.handle(Confirmed("m2", 60, 0.99), 1.2)  # m2's scan before the move, read 0.21 s later
    assert engine.poll(1.2) == []
    engine.handle(Readings("m2", {"board.pool.t2": (0, 61)}), 1.21)  # then its news of the move
    engine.handle(Confirmed("m2", 80, 1.4), 1.4)
    engine.handle(Confirmed("m1", 90, 1.4), 1.4)
    assert [o.readings for o in engine.poll(1.4) if isinstance(o, Snapshot)] == [
        {"board.pool.t1": 1, "board.pool.t2": 0}]
