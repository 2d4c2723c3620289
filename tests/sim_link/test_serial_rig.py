"""The real HAL (pyserial on ptys, gpiozero mock pins) reading the simulated table."""

import threading
import time
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hal.factory import BackendConfig, open_backend
from hal.settings import fast_settings
from hal.wiring.loader import load_wiring_map
from rules.core.physical import Colour, LedFrame, LedMode, LedState
from sim.link.faults import LinkFaults
from sim.link.rig import SerialRig
from sim.link.soak import SoakConfig, run_soak
from sim.link.virtual_mcu import McuTiming
from sim.table import AacTable, demo_setup


def wait_for(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


@pytest.fixture
def rig(tmp_path):
    yield from _rig(tmp_path, LinkFaults(corrupt_rate=0.005))


@pytest.fixture
def clean_rig(tmp_path):
    """No noise on the links: no resynchronisation marks a snapshot for its own reasons."""
    yield from _rig(tmp_path, LinkFaults())


def _rig(tmp_path, faults):
    wiring = load_wiring_map("aac-5p")
    table = AacTable()
    demo_setup(table)
    pins = MockFactory(pin_class=MockPWMPin)
    rig = SerialRig(table, wiring, tmp_path, faults, seed=3, pin_factory=pins)
    rig.start()
    backend = open_backend(BackendConfig(wiring=wiring, ports=rig.ports, pin_factory=pins, settings=fast_settings()))
    snaps, events = [], []
    backend.start(snaps.append, events.append)
    yield table, rig, backend, snaps, events
    backend.stop()
    rig.stop()


def test_soak_smoke_with_noise_and_unplugs():
    result = run_soak(SoakConfig(manipulations=60, noise=0.01, unplugs=2, seed=7))
    figures = result.figures()
    assert figures["manipulations"] == 60
    assert figures["wrong_snapshots"] == 0, result.examples
    assert figures["phantom_events"] == 0, result.examples
    assert figures["missed_snapshots"] == 0 and figures["missed_events"] == 0, result.examples
    assert figures["reconnects"] >= 2 and figures["snapshots"] > 0  # (see the test below)


def test_boards_unplugged_right_after_a_change_give_no_wrong_snapshot():
    """Half of the unplugs come a few milliseconds after a change (read by a scan or two, or not at all,
    before the board goes). Before the stabiliser re-based a rebooted board's scans and waited a quiet
    window after it came back, about one unplug in ten gave a snapshot with a token in two places.
    Every unplug is at least one reconnect. Under heavy load more were counted (48 once, and 41 with
    no link dropped for silence (``link_timeouts``), beside a service soak: two of about thirty runs
    failed, the cause of the extra reopen is not traced): what this test holds to is the snapshots,
    none wrong and none missed."""
    result = run_soak(SoakConfig(manipulations=200, unplugs=40, seed=2))
    figures = result.figures()
    assert figures["reconnects"] >= 40, figures
    assert figures["wrong_snapshots"] == 0 and figures["missed_snapshots"] == 0, result.examples


def test_leds_reach_the_virtual_microcontroller(rig):
    _table, rig, backend, _snaps, _events = rig
    assert wait_for(lambda: backend.status().ready)
    backend.show(LedFrame(1, {"aureon.dev.p3.tile": LedState(Colour.RED, LedMode.BLINK)}))
    index = backend.wiring.locations["aureon.dev.p3.tile"].led.index
    assert wait_for(lambda: rig.mcus["dev-aureon"].leds[index] == (255, 0, 0, 1))
    assert all(led == (0, 0, 0, 0) for i, led in enumerate(rig.mcus["dev-aureon"].leds) if i != index)


def test_unplugged_device_is_reconnected_and_resynchronised(rig):
    table, rig, backend, snaps, _events = rig
    assert wait_for(lambda: snaps)
    rig.unplug("board-a")
    assert wait_for(lambda: not backend.status().devices[5].connected)
    table.move("aureon.board.exhausted", "board.pool")  # changes while it is away
    time.sleep(0.1)
    count = len(snaps)
    rig.replug("board-a")
    assert wait_for(lambda: len(snaps) > count)
    assert snaps[-1].readings["board.pool"] == 6  # 5 from setup + 1 moved
    status = backend.status()
    assert status.reconnects == 1 and "board-a" in status.connected


def test_a_stuck_sensor_is_reported_as_it_reads(rig):
    table, rig, _backend, snaps, _events = rig
    assert wait_for(lambda: snaps)
    rig.sensors.stick("ignotas.dev.p1.tile", ())
    assert wait_for(lambda: snaps[-1].readings["ignotas.dev.p1.tile"] == ())
    assert table.tokens("ignotas.dev.p1.tile") == ("tile:ignotas.1",)  # the HAL reports what it senses


def test_a_short_press_while_the_scan_thread_is_held_up_is_still_a_press(rig):
    """On a loaded machine the simulated boards' scan thread can miss the whole of a short press:
    the press and its release were then read in one late scan, a press of no length, which the HAL's
    debounce (20 ms) rightly drops, and a seat button went unreported (the demo's acceptance test,
    once, under a soak beside it). Edges are stamped when they happen, as firmware scanning every
    millisecond and the Pi's GPIO would see them. Here the scan thread is held for the whole press."""
    table, rig, backend, _snaps, events = rig
    assert wait_for(lambda: backend.status().ready)
    with rig.lock:  # no scan while the slider and the seat button go down and up
        table.set_level("aureon.dev.p2.slider", 1)
        table.press_button("aureon")
        time.sleep(0.04)
        table.set_level("aureon.dev.p2.slider", 0)
        table.release_button("aureon")
        time.sleep(0.1)
    assert wait_for(lambda: len(events) >= 3)
    time.sleep(0.2)
    got = sorted((e.location, e.kind) for e in events)
    assert got == [("aureon.dev.p2.slider", "pull"), ("aureon.dev.p2.slider", "release"),
                   ("aureon.seat.button", "press")], got


def test_a_miniature_moved_away_and_back_while_the_hal_was_held_up_marks_the_next_snapshot(clean_rig):
    """Seeds 846 and 876 of the service soak: a character went to a dead end and back while the
    service's HAL, on a loaded machine, sent no snapshot. The table then looks as if nothing moved, but
    the character faces the other way. Here the HAL's thread is held (its snapshot consumer blocks) for
    the whole trip, so it reads both changes late and together; the board's scan numbers show that the
    miniature was away for 0.2 s, and the next snapshot says a time went unwatched."""
    table, _rig, backend, snaps, _events = clean_rig
    assert wait_for(lambda: backend.status().ready)
    time.sleep(0.2)
    mini = "mini:aureon"
    home = next(loc for loc in table.where(mini) if loc.startswith("board.map."))
    away = "board.map.fortress.west" if home != "board.map.fortress.west" else "board.map.forge.start"
    release = threading.Event()
    blocking = threading.Event()
    consume = backend._on_snapshot

    def held(snapshot):
        if blocking.is_set():
            blocking.clear()
            release.wait(5.0)
        consume(snapshot)

    backend._on_snapshot = held
    blocking.set()
    table.move("board.pool.t1", "board.deck")  # its snapshot holds the HAL's thread up
    assert wait_for(lambda: not blocking.is_set())
    table.move_miniature("aureon", away.removeprefix("board.map."))
    time.sleep(0.2)
    table.move_miniature("aureon", home.removeprefix("board.map."))
    time.sleep(0.1)
    release.set()
    time.sleep(0.2)
    table.move("board.deck", "board.pool.t1", "tile:up.1")
    assert wait_for(lambda: snaps and snaps[-1].readings["board.pool.t1"] == ("tile:up.1",))
    assert not any(s.readings[away] for s in snaps)  # the trip itself was never reported
    assert [s.unwatched for s in snaps[1:]] == [False, True]  # (after the first: a board's boot)


def test_a_held_up_scan_thread_still_counts_the_boards_scans_by_time(clean_rig):
    """Firmware scans every period whatever the host does; the simulated boards' thread, held up by a
    loaded machine, makes up the scans it missed (each seeing the table at its moment), so scan numbers count
    time as on a board: the HAL judges how long a reading held by them."""
    _table, rig, backend, _snaps, _events = clean_rig
    assert wait_for(lambda: backend.status().ready)
    mcu = next(iter(rig.mcus.values()))
    with rig.lock:
        before = mcu.core.scan
        time.sleep(0.3)
    assert wait_for(lambda: mcu.core.scan > before)
    with rig.lock:
        scans = mcu.core.scan - before
    assert 0.3 / rig.timing.scan_period * 0.9 <= scans <= 0.6 / rig.timing.scan_period, scans


def _silent_boards(tmp_path, read_timeout: float | None = None):
    """A rig whose boards send nothing unasked (their periodic heartbeat is a minute away), the HAL reading
    them (its link timeout longer than that; ``read_timeout``: its links' timer period, if not the tests')."""
    wiring = load_wiring_map("aac-5p")
    table = AacTable()
    demo_setup(table)
    pins = MockFactory(pin_class=MockPWMPin)
    rig = SerialRig(table, wiring, tmp_path, LinkFaults(), seed=3, pin_factory=pins,
                    timing=McuTiming(scan_period=0.002, heartbeat_ms=60_000, refresh_every=0))
    rig.start()
    settings = fast_settings()
    settings = replace(settings, link=replace(settings.link, link_timeout=120.0))
    if read_timeout is not None:
        settings = replace(settings, port=replace(settings.port, read_timeout=read_timeout))
    backend = open_backend(BackendConfig(wiring=wiring, ports=rig.ports, pin_factory=pins, settings=settings))
    snaps: list = []
    backend.start(snaps.append, lambda event: None)
    return table, rig, backend, snaps


def test_a_snapshot_does_not_wait_for_the_boards_periodic_heartbeats(tmp_path):
    """Every board must confirm a scan made after the quiet window before a snapshot is released. Boards
    whose periodic heartbeat is a minute away (a real table's is 100 ms) are asked for one
    (REQUEST_HEARTBEAT), so the first snapshot and the one after a change come without waiting for it."""
    table, rig, backend, snaps = _silent_boards(tmp_path)
    try:
        assert wait_for(lambda: snaps)
        table.move("aureon.board.exhausted", "board.pool")
        assert wait_for(lambda: snaps[-1].readings["board.pool"] == 6)
        assert all(mcu.core is not None and mcu.core.heartbeats <= 1 for mcu in rig.mcus.values())  # (at boot)
        # Asked, not waited for: every confirmation came from a heartbeat asked for (or from a board's sync).
        # Not two requests per board: on a loaded machine a board can confirm unasked once (by the heartbeat
        # that ends its sync, when that comes late enough; or answering a request made for the first snapshot
        # only after the change). CI once counted 13 for 7 boards; which of the two it was is not traced.
        assert sum(d.heartbeat_requests for d in backend.status().devices) >= len(rig.mcus)
    finally:
        backend.stop()
        rig.stop()


def test_leds_that_change_go_out_at_once_whatever_the_links_timer_period(tmp_path):
    """The link's thread runs its timers every ``read_timeout`` (20 ms at a real table, to spare the Pi's
    CPU while nothing happens) and otherwise sleeps in its read until the board sends something. LEDs that
    changed wake it, so they do not wait for the board's next frame or the next timer run: here the board
    sends nothing (its heartbeat is a minute away) and the read would sleep for 30 s."""
    _table, rig, backend, snaps = _silent_boards(tmp_path, read_timeout=30.0)
    try:
        assert wait_for(lambda: snaps and backend.status().ready)
        time.sleep(0.1)  # (the board's answers to the first snapshot's requests are read: the link is idle)
        backend.show(LedFrame(1, {"aureon.dev.p3.tile": LedState(Colour.RED, LedMode.BLINK)}))
        index = backend.wiring.locations["aureon.dev.p3.tile"].led.index
        assert wait_for(lambda: rig.mcus["dev-aureon"].leds[index] == (255, 0, 0, 1), timeout=5.0)
    finally:
        backend.stop()
        rig.stop()


def test_a_change_during_a_hold_up_is_scanned_when_it_happened(clean_rig):
    """The scans a held-up board thread makes up see the table at their own moments, so the board marks
    a change with the scan that followed it, not with the late one that ended the hold-up: the host
    judges how long readings held by scan numbers."""
    table, rig, backend, _snaps, _events = clean_rig
    assert wait_for(lambda: backend.status().ready)
    loc = rig.wiring.locations["board.pool.t1"]
    assert loc.channel is not None and loc.channel.index is not None
    mcu = rig.mcus[loc.channel.device]
    block = loc.channel.index // rig.timing.block_size
    with rig.lock:
        before = mcu.core.scan
        time.sleep(0.1)
        table.move("board.pool.t1", "board.deck")
        time.sleep(0.2)
    assert wait_for(lambda: mcu.core.scan > before + 100)
    with rig.lock:
        changed = mcu.core.changed_scan[block] - before
    period = rig.timing.scan_period
    assert 0.09 / period <= changed <= 0.15 / period, changed  # not at the end of the hold-up (0.3 s)


def test_a_board_gone_silent_is_called_lost_and_found_again_when_it_speaks(clean_rig):
    """A board that hangs with its USB port still there sends nothing: the link calls it lost after its
    timeout (``link_timeouts``), reopens the port, and is in step again once the board boots."""
    _table, rig, backend, snaps, _events = clean_rig
    assert wait_for(lambda: snaps and backend.status().ready)
    source = next(s for s in backend.sources if s.id == "dev-aureon")
    with rig.lock:
        rig.mcus["dev-aureon"].power_off()  # (the port stays plugged: no I/O error, only silence)
    assert wait_for(lambda: source.status.link_timeouts >= 1, timeout=5.0)
    assert wait_for(lambda: not backend.status().ready, timeout=5.0)
    with rig.lock:
        rig.mcus["dev-aureon"].boot()
    assert wait_for(lambda: backend.status().ready, timeout=10.0)


def test_a_link_held_up_past_its_timeout_is_not_lost_while_its_board_sends(clean_rig):
    """The link's silence is timed by its own thread, which a loaded host can hold up for longer than the
    timeout (the demo beside a soak on both cores: every link's thread for 1.1 s at once, the boards sending all the
    while, and all seven links were reopened). Here the thread is held in a callback past the timeout, and a
    wake meanwhile (LEDs, a heartbeat asked for) cuts its next read short with the board's frames waiting:
    the link reads again before it calls the board lost, and the board is not lost."""
    _table, _rig, backend, snaps, _events = clean_rig
    assert wait_for(lambda: snaps and backend.status().ready)
    source = next(s for s in backend.sources if s.id == "dev-aureon")
    link = source.link
    hold_up = link.session.settings.link_timeout * 1.5
    held = threading.Event()
    confirmed = source.confirmed

    def held_up(scan: int, t: float) -> None:
        confirmed(scan, t)
        if not held.is_set():
            held.set()
            time.sleep(hold_up)  # (the link's thread, in the middle of its frames, under its lock)
            link._wake()  # the wake that came meanwhile

    source.confirmed = held_up  # type: ignore[method-assign]
    assert wait_for(held.is_set)
    time.sleep(hold_up + 0.5)
    assert source.status.link_timeouts == 0 and source.status.reconnects == 0
    assert backend.status().ready
