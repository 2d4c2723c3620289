from hal.readings import to_reading
from hal.wiring.loader import load_wiring_map
from sim.table import AacTable, SensorFaults, VirtualSensors, demo_setup


def _table():
    t = AacTable()
    demo_setup(t)
    return t


def test_raw_values_follow_each_builds_fidelity():
    table = _table()
    for name, expect in [
        ("aac-5p", {"aureon.dev.p5.tile": ("tile:aureon.5",), "board.deck": 25}),
        ("aac-5p-presence", {"aureon.dev.p5.tile": 1, "aureon.board.channel": 2}),
        ("aac-5p-mixed", {"aureon.dev.p5.tile": ("tile:aureon.5",), "aureon.dev.p5.action": 1}),
    ]:
        wiring = load_wiring_map(name)
        sensors = VirtualSensors(table, wiring)
        raw = {}
        for device in wiring.devices:
            raw.update(sensors.poll(device))
        for location, value in expect.items():
            assert raw[location] == value, (name, location)
        loc = wiring.locations["aureon.board.channel"]
        assert to_reading(loc, raw["aureon.board.channel"]) == ("channel:aureon:exhausted",)
        assert "aureon.board.exhausted" not in raw or name != "aac-5p-presence"  # unsensed in the cheap build


def test_polls_are_incremental_and_faults_show_up():
    table = _table()
    wiring = load_wiring_map("aac-5p")
    sensors = VirtualSensors(table, wiring, SensorFaults(bounce_scans=3), seed=4)
    sensors.poll("dev-aureon")
    assert sensors.poll("dev-aureon") == {}
    table.move("aureon.dev.p1.top1", "aureon.dev.front")
    seen = [sensors.poll("dev-aureon") for _ in range(6)]
    final = {k: v for scan in seen for k, v in scan.items()}
    assert final["aureon.dev.front"] == 1 and final["aureon.dev.p1.top1"] == ()
    assert sensors.settled()
    sensors.stick("aureon.dev.p2.tile", ())
    assert sensors.poll("dev-aureon") == {"aureon.dev.p2.tile": ()}
    sensors.unstick("aureon.dev.p2.tile")
    assert sensors.poll("dev-aureon") == {"aureon.dev.p2.tile": ("tile:aureon.2",)}
    sensors.hand_over(["aureon.dev.p3.tile"], scans=1)
    assert sensors.poll("dev-aureon") == {"aureon.dev.p3.tile": ()}
    assert sensors.poll("dev-aureon") == {"aureon.dev.p3.tile": ("tile:aureon.3",)}


def test_chatter_on_sliders():
    table = _table()
    wiring = load_wiring_map("aac-5p")
    sensors = VirtualSensors(table, wiring, SensorFaults(chatter_edges=3), seed=1)
    table.pull_slider("aureon", 1)
    edges = sensors.edges("dev-aureon")
    assert edges[-1][:2] == ("aureon.dev.p1.slider", 1)
    assert all(loc == "aureon.dev.p1.slider" for loc, _, _ in edges)


def test_a_scan_made_up_for_a_past_moment_sees_the_table_as_it_was_then():
    """A simulated board's thread held up makes up the scans it missed (``VirtualMcu``): each reads the
    table at its own moment. A change after that moment is read by a later scan; a bounce begins with
    the change and lasts its few scans, however late they are made. (A bounce made to last through a
    100 ms hold-up showed the link soak a token in a hand that never held it: a wrong snapshot.)"""
    table = _table()
    wiring = load_wiring_map("aac-5p")
    now = [10.0]
    sensors = VirtualSensors(table, wiring, SensorFaults(bounce_scans=2), seed=4, clock=lambda: now[0])
    sensors.poll("dev-aureon")
    now[0] = 10.05  # the move, during the hold-up
    table.move("aureon.dev.p1.top1", "aureon.dev.front")
    assert sensors.poll("dev-aureon", at=10.02) == {}  # made up for a moment before it
    assert sensors.poll("dev-aureon", at=10.04) == {}
    after = [sensors.poll("dev-aureon", at=10.05 + 0.002 * n) for n in range(1, 4)]
    assert sensors.settled()  # the bounce is over by the third scan after the move
    read = {k: v for scan in after for k, v in scan.items()}
    assert read == {"aureon.dev.front": 1, "aureon.dev.p1.top1": ()}
    assert sensors.poll("dev-aureon") == {}
