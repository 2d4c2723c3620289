from hal.momentary import MomentaryFilter, MomentarySettings
from rules.core.physical import LocationKind, MomentaryEvent

S = MomentarySettings(debounce=0.02, long_press=1.0)


def _run(flt, edges, until):
    out = []
    for level, t in edges:
        flt.edge(level, t)
        out += [kind for _, kind in flt.poll(t)]
    t = edges[-1][1] if edges else 0.0
    while t < until:
        t += 0.005
        out += [kind for _, kind in flt.poll(t)]
    return out


def test_slider_pull_with_bounce_gives_one_pull_and_one_release():
    flt = MomentaryFilter("x.slider", LocationKind.MOMENTARY, S)
    bounce = [(1, 0.0), (0, 0.002), (1, 0.004), (0, 0.005), (1, 0.007)]
    release = [(0, 0.3), (1, 0.301), (0, 0.303)]
    assert _run(flt, bounce + release, 0.5) == ["pull", "release"]


def test_glitch_shorter_than_debounce_is_nothing():
    flt = MomentaryFilter("x.slider", LocationKind.MOMENTARY, S)
    assert _run(flt, [(1, 0.0), (0, 0.015)], 0.5) == []


def test_button_press_and_long_press():
    flt = MomentaryFilter("x.button", LocationKind.BUTTON, S)
    assert _run(flt, [(1, 0.0), (0, 0.2)], 0.5) == ["press"]
    flt = MomentaryFilter("x.button", LocationKind.BUTTON, S)
    assert _run(flt, [(1, 0.0), (0, 1.5)], 2.0) == ["press", "long_press"]


def test_watermark_holds_an_edge_until_the_link_has_caught_up():
    flt = MomentaryFilter("x.slider", LocationKind.MOMENTARY, S)
    flt.edge(1, 0.0)
    assert flt.poll(0.01) == []  # watermark at 10 ms: not yet known to have held 20 ms
    flt.edge(0, 0.012)  # the late edge arrives: it was a glitch
    assert flt.poll(1.0) == []


def test_events_from_several_channels_come_out_in_the_order_they_happened():
    import yaml

    from hal.engine import TableEngine
    from hal.inputs import Edge
    from hal.settings import HalSettings
    from hal.wiring.loader import parse_wiring_map

    pins = {"a.seat.button": "GPIO4", "b.seat.button": "GPIO17"}
    wiring = parse_wiring_map(
        yaml.safe_dump(
            {
                "format": 1,
                "name": "t",
                "devices": [{"id": "pi", "bus": "gpio"}],
                "locations": [
                    {
                        "id": loc,
                        "kind": "button",
                        "fidelity": "presence",
                        "channel": {"device": "pi", "sensor": "button", "pin": pin},
                    }
                    for loc, pin in sorted(pins.items())
                ],
            }
        ),
        "t.yaml",
    )
    engine = TableEngine(wiring, HalSettings(momentary=S))
    engine.handle(Edge("pi", "b.seat.button", 1, 0.000), 0.0)
    engine.handle(Edge("pi", "a.seat.button", 1, 0.005), 0.0)
    events = [e for e in engine.poll(0.1) if isinstance(e, MomentaryEvent)]
    assert [(e.location, e.kind) for e in events] == [("b.seat.button", "press"), ("a.seat.button", "press")]
