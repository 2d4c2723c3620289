"""The HAL reports in the order things happened: a button pressed right after a token was placed
comes after the snapshot that shows the token (the end of a turn is judged on the whole turn)."""

import yaml

from hal.engine import TableEngine
from hal.inputs import Confirmed, Edge, Readings, Ready
from hal.momentary import MomentarySettings
from hal.settings import HalSettings
from hal.stabiliser import StabiliserSettings
from hal.wiring.loader import parse_wiring_map
from rules.core.physical import MomentaryEvent, Snapshot

WIRING = parse_wiring_map(yaml.safe_dump({
    "format": 1,
    "name": "order",
    "devices": [{"id": "pi", "bus": "gpio"}],
    "locations": [
        {"id": "aureon.seat.button", "kind": "button", "fidelity": "presence",
         "channel": {"device": "pi", "sensor": "button", "pin": "GPIO4"}},
        {"id": "board.pool.t1", "kind": "slot", "fidelity": "presence",
         "channel": {"device": "pi", "sensor": "switch", "pin": "GPIO27"}},
    ],
}), "order.yaml")
SETTINGS = HalSettings(stabiliser=StabiliserSettings(quiet_window=0.15, agree_scans=1, max_unsettled=3.0),
                       momentary=MomentarySettings(debounce=0.02, long_press=1.0))


class Table:
    """The engine on a hand-driven clock: one switch and one seat button on the Pi."""

    def __init__(self) -> None:
        self.engine = TableEngine(WIRING, SETTINGS)
        self.t = 0.0
        self.scan = 0
        self.out: list[tuple[float, str]] = []
        self.engine.handle(Ready("pi", True), 0.0)
        self.switch(0)
        self.run(0.5)
        self.out.clear()

    def switch(self, level: int) -> None:
        self.scan += 1
        self.engine.handle(Readings("pi", {"board.pool.t1": (level, self.scan)}), self.t)

    def press(self) -> None:
        self.engine.handle(Edge("pi", "aureon.seat.button", 1, self.t), self.t)
        self.engine.handle(Edge("pi", "aureon.seat.button", 0, self.t + 0.05), self.t)

    def run(self, seconds: float) -> None:
        end = self.t + seconds
        while self.t < end - 1e-9:
            self.t = round(self.t + 0.01, 6)
            self.scan += 1
            self.engine.handle(Confirmed("pi", self.scan), self.t)
            for item in self.engine.poll(self.t):
                if isinstance(item, Snapshot):
                    self.out.append((self.t, f"snapshot t1={item.readings['board.pool.t1']}"))
                else:
                    assert isinstance(item, MomentaryEvent)
                    self.out.append((self.t, item.kind))

    def kinds(self) -> list[str]:
        return [what for _, what in self.out]


def test_a_press_just_after_a_change_comes_after_its_snapshot():
    table = Table()
    table.switch(1)  # the last token of the turn goes down
    table.run(0.03)
    table.press()  # 30 ms later: end of turn, long before the 150 ms quiet window is over
    table.run(0.5)
    assert table.kinds() == ["snapshot t1=1", "press"]
    assert table.out[0][0] == table.out[1][0]  # released as soon as the snapshot is out, not later


def test_a_press_before_a_change_is_not_held():
    table = Table()
    table.press()
    table.run(0.03)  # debounced: reported
    table.switch(1)
    table.run(0.5)
    assert table.kinds() == ["press", "snapshot t1=1"]


def test_a_hand_passing_over_releases_the_press_without_a_snapshot():
    table = Table()
    table.switch(1)
    table.run(0.03)
    table.press()
    table.run(0.01)
    table.switch(0)  # the hand leaves the table as it was: nothing to report
    table.run(0.5)
    assert table.kinds() == ["press"]
    assert table.out[0][0] < 0.5 + 0.2  # released once the change went away (not after max_unsettled)


def test_a_sensor_that_never_settles_holds_the_press_at_most_max_unsettled():
    table = Table()
    level = 1
    table.switch(level)
    table.run(0.03)
    table.press()
    pressed_at = table.t
    for _ in range(500):  # a flickering contact, every 20 ms for 10 s
        level = 1 - level
        table.switch(level)
        table.run(0.02)
    presses = [t for t, what in table.out if what == "press"]
    assert len(presses) == 1
    assert presses[0] - pressed_at <= SETTINGS.stabiliser.max_unsettled + 0.02


def test_the_table_counts_as_read_since_a_moment_once_every_board_confirmed_a_scan_after_it():
    """An end of turn that comes over MQTT just after the last token went down may be quicker than the
    reading on its way from the board: the service waits until every board has been read after it."""
    table = Table()
    stabiliser = table.engine.stabiliser
    said = table.t + 0.001  # the command comes between two scans
    assert not stabiliser.read_since(said)
    table.run(0.01)  # the next scan is confirmed
    assert stabiliser.read_since(said)
    table.engine.handle(Ready("pi", False), table.t)  # a board unplugged: not read at all
    assert not stabiliser.read_since(said)


def test_the_first_snapshot_after_a_board_was_out_of_reach_says_so():
    """Changes made while a board was unplugged reach the core as their sum: a token lifted and put
    back left no trace. The snapshot after it says it came after a time unwatched (the recogniser then
    looks for moves that came back to where they began); the ones after it do not."""
    table = Table()
    table.engine.handle(Ready("pi", False), table.t)  # unplugged
    table.run(0.2)
    table.engine.handle(Ready("pi", True), table.t)  # back, with a change made meanwhile
    table.switch(1)
    seen: list[Snapshot] = []
    for _ in range(60):
        table.t = round(table.t + 0.01, 6)
        table.scan += 1
        table.engine.handle(Confirmed("pi", table.scan), table.t)
        seen.extend(i for i in table.engine.poll(table.t) if isinstance(i, Snapshot))
    table.switch(0)
    for _ in range(60):
        table.t = round(table.t + 0.01, 6)
        table.scan += 1
        table.engine.handle(Confirmed("pi", table.scan), table.t)
        seen.extend(i for i in table.engine.poll(table.t) if isinstance(i, Snapshot))
    assert [(s.readings["board.pool.t1"], s.unwatched) for s in seen] == [(1, True), (0, False)]


def test_a_snapshot_after_a_reading_came_back_unseen_says_it_was_unwatched():
    """The switch went on and off again while the snapshot was held up (by a token still moving at
    the other end of the table): the next snapshot says nobody watched, and the one after does not."""
    table = Table()
    table.engine.handle(Ready("pi", False), table.t)  # (held up: the same holds for any reason)
    table.engine.handle(Ready("pi", True), table.t)
    table.run(0.3)
    table.out.clear()
    seen: list[Snapshot] = []

    def run(seconds: float, confirm: bool = True) -> None:
        for _ in range(round(seconds / 0.01)):
            table.t = round(table.t + 0.01, 6)
            table.scan += 1
            if confirm:
                table.engine.handle(Confirmed("pi", table.scan), table.t)
            seen.extend(i for i in table.engine.poll(table.t) if isinstance(i, Snapshot))

    table.switch(1)
    run(0.3, confirm=False)  # held, but the board's scans are not confirmed: no snapshot
    table.switch(0)
    run(0.3)
    assert seen == []  # back as the last snapshot showed it: nothing is due
    table.switch(1)
    run(0.3)
    table.switch(0)
    run(0.3)
    assert [(s.readings["board.pool.t1"], s.unwatched) for s in seen] == [(1, True), (0, False)]
