"""The simulated table at the HAL boundary: DirectBackend, and the real HAL fed by virtual sources."""

from hal.factory import BackendConfig, open_backend
from hal.momentary import MomentarySettings
from hal.settings import HalSettings
from hal.stabiliser import StabiliserSettings
from hal.wiring.loader import load_wiring_map
from sim.link.direct import DirectBackend, VirtualFeeder
from sim.table import AacTable, SensorFaults, demo_setup


def _table():
    t = AacTable()
    demo_setup(t)
    return t


def test_direct_backend_reports_each_change_and_event_synchronously():
    table = _table()
    backend = DirectBackend(table, load_wiring_map("aac-5p-mixed"))
    snaps, events = [], []
    backend.start(snaps.append, events.append)
    assert len(snaps) == 1 and snaps[0].readings["aureon.dev.p1.tile"] == ("tile:aureon.1",)
    table.pull_slider("aureon", 1)
    table.release_slider("aureon", 1)
    assert [(e.location, e.kind) for e in events] == [
        ("aureon.dev.p1.slider", "pull"),
        ("aureon.dev.p1.slider", "release"),
    ]
    assert snaps[-1].readings["aureon.dev.front"] == 1
    assert snaps[-1].readings["aureon.dev.p1.top1"] == 0  # presence in the mixed build
    table.flip_channel("aureon")
    assert snaps[-1].readings["aureon.board.channel"] == ("channel:aureon:charged",)
    count = len(snaps)
    table.press_button("rusne")
    table.release_button("rusne")
    assert len(snaps) == count and events[-1].kind == "press"


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_virtual_sources_go_through_the_real_stabiliser_on_a_fake_clock():
    table = _table()
    clock = Clock()
    settings = HalSettings(
        stabiliser=StabiliserSettings(quiet_window=0.05, agree_scans=3), momentary=MomentarySettings(debounce=0.01)
    )
    backend = open_backend(BackendConfig(wiring="aac-5p", virtual=True, settings=settings, clock=clock))
    snaps, events = [], []
    backend.start(snaps.append, events.append, thread=False)
    feeder = VirtualFeeder(table, backend, SensorFaults(bounce_scans=3, chatter_edges=2), seed=2)

    def run(seconds):
        for _ in range(int(seconds / 0.005)):
            clock.t = round(clock.t + 0.005, 6)
            feeder.scan()
            backend.pump()

    run(0.2)
    assert len(snaps) == 1
    table.move("aureon.dev.p1.top1", "board.pool")
    table.pull_slider("aureon", 2)
    run(0.05)
    table.release_slider("aureon", 2)
    run(0.3)
    assert len(snaps) == 2  # bounce did not produce extra snapshots
    assert snaps[-1].readings["aureon.dev.p1.top1"] == ()
    assert [(e.location, e.kind) for e in events] == [
        ("aureon.dev.p2.slider", "pull"),
        ("aureon.dev.p2.slider", "release"),
    ]
    backend.stop()


def test_readings_kept_change_by_change_equal_a_full_read_of_the_table():
    """The backend rereads only the locations a change names: over a game's opening, lifts, slides,
    slider pulls and stops, each snapshot still equals a full read of every sensed location."""
    from sim.link.direct import sensed_readings
    from sim.soak.games import SoakTotals, TableGame, wiring_for

    game = TableGame(3, 70243, wiring_for("mixed"), None, SoakTotals(), 0.0)
    backend = game.backend
    full: list[bool] = []
    sent = backend._on_snapshot
    assert sent is not None

    def checked(snapshot):
        full.append(snapshot.readings == sensed_readings(backend.table, backend.locs))
        sent(snapshot)

    backend._on_snapshot = checked
    for _ in range(150):
        game.step()
    backend.stop()
    table = game.truth.table
    table.lift(next(loc.id for loc in backend.locs if table.tokens(loc.id)))  # unwatched: all read again at start
    backend.start(checked, lambda event: None)
    assert len(full) > 150 and all(full)
