"""The stabiliser on an injected clock: quiet window, agreeing scans, table-wide quiet, noisy sensors."""

from hypothesis import given, settings
from hypothesis import strategies as st

from hal.stabiliser import Stabiliser, StabiliserSettings

S = StabiliserSettings(quiet_window=0.1, agree_scans=3, max_unsettled=1.0)


class Clocked:
    """Drives a two-source stabiliser: each source scans every 10 ms and confirms every scan."""

    def __init__(self):
        self.stab = Stabiliser({"a": "m1", "b": "m1", "c": "m2"}, S)
        self.t = 0.0
        self.scan = {"m1": 0, "m2": 0}
        self.snapshots: list[dict] = []
        for src in ("m1", "m2"):
            self.stab.set_ready(src, True, 0.0)
        self.set("m1", a=0, b=0)
        self.set("m2", c=())

    def set(self, source, **readings):
        self.stab.update(source, {k: (v, self.scan[source] + 1) for k, v in readings.items()}, self.t)

    def run(self, seconds):
        end = self.t + seconds
        while self.t < end - 1e-9:
            self.t = round(self.t + 0.01, 6)
            for src in self.scan:
                self.scan[src] += 1
                self.stab.confirm(src, self.scan[src], self.t)
            table = self.stab.poll(self.t)
            if table is not None:
                self.snapshots.append(table)


def test_first_snapshot_only_after_the_quiet_window():
    c = Clocked()
    c.run(0.09)
    assert c.snapshots == []
    c.run(0.05)
    assert c.snapshots == [{"a": 0, "b": 0, "c": ()}]


def test_a_change_is_reported_once_after_it_held():
    c = Clocked()
    c.run(0.3)
    c.set("m1", a=1)
    c.run(0.3)
    assert c.snapshots[1:] == [{"a": 1, "b": 0, "c": ()}]


def test_bounce_and_a_passing_hand_give_no_snapshot():
    c = Clocked()
    c.run(0.3)
    for level in (1, 0, 1, 0):  # contact bounce, settling back where it was
        c.set("m1", a=level)
        c.run(0.01)
    c.set("m2", c=("x:y",))  # a hand passing over an NFC reader for a moment
    c.run(0.02)
    c.set("m2", c=())
    c.run(0.5)
    assert len(c.snapshots) == 1


def test_bounce_then_settle_gives_exactly_the_final_reading():
    c = Clocked()
    c.run(0.3)
    for level in (1, 0, 1, 0, 1):
        c.set("m1", a=level)
        c.run(0.02)
    c.run(0.5)
    assert c.snapshots[1:] == [{"a": 1, "b": 0, "c": ()}]


def test_table_waits_until_every_location_is_quiet():
    c = Clocked()
    c.run(0.3)
    c.set("m1", a=1)
    c.run(0.06)
    c.set("m2", c=("aureon:rose",))  # the second half of the move, on another device
    c.run(0.06)
    assert len(c.snapshots) == 1  # a is quiet, but c is still moving
    c.run(0.2)
    assert c.snapshots[1:] == [{"a": 1, "b": 0, "c": ("aureon:rose",)}]


def test_scans_must_agree_even_when_time_has_passed():
    stab = Stabiliser({"a": "m"}, S)
    stab.set_ready("m", True, 0.0)
    stab.update("m", {"a": (1, 5)}, 0.0)
    stab.confirm("m", 6, 0.5)  # only two scans (5, 6) confirmed
    assert stab.poll(0.5) is None
    stab.confirm("m", 7, 0.51)
    assert stab.poll(0.51) == {"a": 1}


def test_nothing_is_reported_while_a_source_is_not_ready():
    c = Clocked()
    c.run(0.3)
    c.stab.set_ready("m2", False, c.t)
    c.set("m1", a=1)
    c.run(0.5)
    assert len(c.snapshots) == 1
    c.stab.set_ready("m2", True, c.t)
    c.run(0.05)
    assert len(c.snapshots) == 1  # m2 is back, but not yet heard quiet for a window
    c.run(0.1)
    assert c.snapshots[1:] == [{"a": 1, "b": 0, "c": ()}]


def test_a_board_back_from_a_resync_is_heard_quiet_for_a_window_before_a_snapshot():
    """A token moved from board m1 to board m2 while m1 was unplugged; m1's first image back is read
    while the sensor still bounces (its old reading, equal to the last snapshot). The snapshot waits
    for the bounce to end instead of showing the token in both places."""
    c = Clocked()
    c.set("m1", a=1)
    c.run(0.3)
    assert c.snapshots[-1] == {"a": 1, "b": 0, "c": ()}
    c.stab.set_ready("m1", False, c.t)
    c.set("m2", c=("x:y",))
    c.run(0.3)
    assert len(c.snapshots) == 1  # nothing while m1 is away
    c.stab.set_ready("m1", True, c.t)  # its image still says a=1
    c.run(0.05)
    assert len(c.snapshots) == 1
    c.set("m1", a=0)  # the bounce ends
    c.run(0.5)
    assert c.snapshots[1:] == [{"a": 0, "b": 0, "c": ("x:y",)}]


def two_boards(a: int, m1_scan: int) -> Stabiliser:
    """Location ``a`` on board m1 (reading ``a``, confirmed up to scan ``m1_scan``), ``c`` on m2; reported."""
    stab = Stabiliser({"a": "m1", "c": "m2"}, S)
    for src in ("m1", "m2"):
        stab.set_ready(src, True, 0.0)
    stab.update("m1", {"a": (a, 1)}, 0.0)
    stab.update("m2", {"c": (0, 1)}, 0.0)
    stab.confirm("m1", m1_scan, 0.2)
    stab.confirm("m2", 10, 0.2)
    assert stab.poll(0.2) == {"a": a, "c": 0}
    return stab


def test_a_stale_source_holds_the_snapshot_until_it_confirms_again():
    stab = two_boards(a=0, m1_scan=10)
    stab.update("m1", {"a": (1, 11)}, 0.3)
    stab.confirm("m1", 20, 0.5)
    stab.confirm("m2", 11, 0.35)  # m2 last heard before the change had been quiet a window
    assert stab.poll(0.5) is None
    stab.confirm("m2", 12, 0.45)
    assert stab.poll(0.5) == {"a": 1, "c": 0}


def test_a_flickering_sensor_is_held_and_reported_noisy_without_freezing_the_table():
    c = Clocked()
    c.run(0.3)
    c.set("m1", b=1)
    for i in range(150):  # b flickers for 1.5 s
        c.set("m1", a=i % 2)
        c.run(0.01)
    assert "a" in c.stab.noisy
    assert c.snapshots[-1] == {"a": 0, "b": 1, "c": ()}
    c.run(0.3)  # the flicker stops at its last value
    assert not c.stab.noisy
    assert c.snapshots[-1]["a"] == 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b"]), st.integers(0, 2), st.integers(1, 30)), max_size=25))
def test_every_snapshot_shows_the_current_state_and_only_changes_that_held(changes):
    """Property: a snapshot equals the table now, and every reading it changes held for the window."""
    c = Clocked()
    c.run(0.2)
    state = {"a": 0, "b": 0}
    changed_at = {"a": -1.0, "b": -1.0}
    for location, value, ticks in changes:
        if state[location] != value:
            state = {**state, location: value}
            changed_at[location] = c.t
        c.set("m1", **{location: value})
        before = len(c.snapshots)
        previous = c.snapshots[-1]
        c.run(ticks * 0.01)
        for snap in c.snapshots[before:]:
            assert {k: snap[k] for k in ("a", "b")} == state
            for k in ("a", "b"):
                if snap[k] != previous[k]:
                    assert c.t - changed_at[k] >= S.quiet_window - 1e-9
            previous = snap
    c.run(0.3)
    assert {k: c.snapshots[-1][k] for k in ("a", "b")} == state


def test_a_board_that_rebooted_counts_its_scans_anew():
    """A change read just before the board went away keeps no scan number of the old boot: the rebooted
    board's image (same reading, scans counted from 0) settles it as usual, instead of leaving it
    unconfirmed until it is held as noisy (and the snapshot goes out with its old reading)."""
    stab = two_boards(a=1, m1_scan=1000)
    stab.update("m1", {"a": (0, 1001)}, 0.3)  # the token is lifted; the board goes before confirming more
    stab.set_ready("m1", False, 0.3)
    stab.update("m1", {"a": (0, 2)}, 0.5)  # back, rebooted: its image, read at its scan 2
    stab.set_ready("m1", True, 0.5)
    t = 0.5
    for scan in range(3, 30):
        t = round(t + 0.01, 6)
        stab.confirm("m1", scan, t)
        stab.confirm("m2", scan + 100, t)
        table = stab.poll(t)
        if table is not None:
            assert table == {"a": 0, "c": 0}
            assert t < 0.5 + 2 * S.quiet_window
            break
    else:
        raise AssertionError("the change was never reported")
    assert not stab.noisy


def test_a_reading_that_held_and_came_back_before_any_snapshot_is_listed_unseen():
    """A miniature moved to a dead end and back while another board held the snapshot up (it did not
    confirm its scans): the table shows nothing, but the HAL knows a state went unreported."""
    c = Clocked()
    c.run(0.3)
    c.stab.confirm("m2", c.scan["m2"], c.t)
    held = c.scan.pop("m2")  # m2 stops confirming: no snapshot can be due
    c.set("m1", a=1)
    c.run(0.2)  # a=1 held for twice the quiet window, unreported
    c.set("m1", a=0)
    c.scan["m2"] = held
    c.run(0.3)
    assert len(c.snapshots) == 1  # nothing differs from the last snapshot: none is due
    assert c.stab.unseen == {"a"}


def test_a_bounce_is_not_a_state_that_went_unseen():
    c = Clocked()
    c.run(0.3)
    for level in (1, 0, 1, 0):
        c.set("m1", a=level)
        c.run(0.01)
    c.run(0.3)
    assert c.stab.unseen == set()


def test_readings_that_arrive_together_are_judged_by_the_boards_scans():
    """A host held up reads the board's changes late, in one go: by the host's clock the away reading
    held for no time. The board's scan numbers say how long it held, when the board gives its period."""
    for period, unseen in ((0.01, {"a"}), (None, set())):
        stab = Stabiliser({"a": "m1"}, S)
        stab.set_ready("m1", True, 0.0, scan_period=period)
        stab.update("m1", {"a": (0, 1)}, 0.0)
        for scan in range(2, 40):
            stab.confirm("m1", scan, scan * 0.01)
            stab.poll(scan * 0.01)
        assert stab.stable == {"a": 0}
        stab.update("m1", {"a": (1, 40)}, 1.0)  # held from scan 40 ...
        stab.update("m1", {"a": (0, 60)}, 1.0)  # ... to scan 60: 0.2 s on the board, read at once
        assert stab.unseen == unseen


def test_the_sources_a_snapshot_due_by_the_clock_waits_for_are_named():
    """A board confirms with its heartbeats (every 100 ms on a real table, after a 150 ms quiet window): the
    stabiliser names the boards whose confirmation alone holds a snapshot back, to be asked at once."""
    stab = two_boards(a=0, m1_scan=10)
    stab.update("m1", {"a": (1, 11)}, 0.3)
    assert stab.unconfirmed(0.35) == []  # still within the quiet window: it may move again
    stab.confirm("m1", 20, 0.42)  # m1 heard after the window, m2 not since before the change
    assert stab.poll(0.45) is None
    assert stab.unconfirmed(0.45) == ["m2"]
    stab.confirm("m2", 12, 0.46)
    assert stab.unconfirmed(0.46) == []
    assert stab.poll(0.46) == {"a": 1, "c": 0}
    assert stab.unconfirmed(0.5) == []  # nothing differs: nothing to ask


def test_a_board_that_has_not_confirmed_enough_scans_of_a_change_is_asked_too():
    stab = two_boards(a=0, m1_scan=10)
    stab.update("m1", {"a": (1, 11)}, 0.3)
    stab.confirm("m1", 12, 0.41)  # heard after the window, but only 2 scans of the change (3 must agree)
    stab.confirm("m2", 30, 0.41)
    assert stab.poll(0.45) is None
    assert stab.unconfirmed(0.45) == ["m1"]


def test_nobody_is_asked_while_a_source_is_away_or_a_reading_still_moves():
    stab = two_boards(a=0, m1_scan=10)
    stab.update("m1", {"a": (1, 11)}, 0.3)
    stab.set_ready("m2", False, 0.35)
    assert stab.unconfirmed(0.5) == []
    stab.set_ready("m2", True, 0.5)
    stab.update("m1", {"a": (2, 30)}, 0.55)
    assert stab.unconfirmed(0.6) == []
