from pathlib import Path

import pytest
import yaml

from hal.wiring import generate
from hal.wiring.aac_ids import aac_location_specs
from hal.wiring.errors import WiringMapError
from hal.wiring.loader import SHIPPED, load_wiring_map, parse_wiring_map
from rules.core.physical import Fidelity, LocationKind

SHIPPED_MAPS = ["aac-5p", "aac-5p-presence", "aac-5p-mixed"]


@pytest.fixture(scope="module")
def full_text() -> str:
    """A small but real wiring map: the first locations of the shipped full build."""
    data = generate.generate("aac-5p")
    data["locations"] = data["locations"][:30]
    return yaml.safe_dump(data, sort_keys=False)


@pytest.mark.parametrize("name", SHIPPED_MAPS)
def test_shipped_maps_are_generated_from_the_id_scheme(name):
    assert (SHIPPED / f"{name}.yaml").read_text() == generate.render(name)


@pytest.mark.parametrize("name", SHIPPED_MAPS)
def test_shipped_maps_cover_every_location_once(name):
    wiring = load_wiring_map(name)
    ids = [spec.id for spec in aac_location_specs()]
    assert [loc.id for loc in wiring.file.locations] == ids
    assert len(set(ids)) == len(ids)
    kinds = {spec.id: spec.kind for spec in aac_location_specs()}
    assert all(spec.kind == kinds[spec.id] for spec in wiring.specs())


def test_id_scheme_counts():
    specs = aac_location_specs()
    by_kind = {kind: sum(1 for s in specs if s.kind is kind) for kind in LocationKind}
    assert by_kind[LocationKind.MOMENTARY] == 25  # 5 sliders x 5 characters
    assert by_kind[LocationKind.BUTTON] == 5
    ids = {s.id for s in specs}
    for expected in (
        "freyith.dev.p3.bot2",
        "aureon.board.ptrack4",
        "board.mon.fortress.frame5",
        "board.map.bp.ship-library",
        "board.bridge.bp.gate-beacon",
        "board.ach.token2.token",
        "board.pillar.philosophy.3",
        "board.map.forge.fork",
    ):
        assert expected in ids


def test_presence_build_is_cheaper_but_keeps_the_channel_marker_identity():
    cheap = load_wiring_map("aac-5p-presence")
    fid = {loc.id: loc.fidelity for loc in cheap.file.locations}
    assert fid["aureon.dev.p1.top1"] is Fidelity.PRESENCE
    assert fid["aureon.board.exhausted"] is Fidelity.UNSENSED
    assert fid["aureon.board.channel"] is Fidelity.IDENTITY
    mixed = load_wiring_map("aac-5p-mixed")
    fid = {loc.id: loc.fidelity for loc in mixed.file.locations}
    assert fid["aureon.dev.p1.tile"] is Fidelity.IDENTITY
    assert fid["aureon.dev.p1.top1"] is Fidelity.PRESENCE
    assert fid["board.reserve"] is Fidelity.COUNT


def _mutate(text: str, change) -> str:
    data = yaml.load(text, Loader=yaml.CSafeLoader)
    change(data)
    return yaml.safe_dump(data, sort_keys=False)


def _error(text: str) -> WiringMapError:
    with pytest.raises(WiringMapError) as info:
        parse_wiring_map(text, "broken.yaml")
    assert str(info.value).startswith("broken.yaml: ")
    return info.value


def test_a_misspelt_fidelity_names_the_file_index_id_and_key(full_text):
    locations = yaml.safe_load(full_text)["locations"]
    index = next(i for i, loc in enumerate(locations) if loc["id"] == "aureon.dev.p3.top1")
    err = _error(_mutate(full_text, lambda d: d["locations"][index].update(fidelity="idenity")))
    path, message = err.issues[0]
    assert path == f"locations[{index} id=aureon.dev.p3.top1].fidelity"
    assert "idenity" in message or "Invalid enum" in message


@pytest.mark.parametrize(
    ("change", "path_part", "words"),
    [
        (lambda d: d["locations"][1].update(id=d["locations"][0]["id"]), ".id", "duplicate location id"),
        (lambda d: d["locations"][0]["channel"].update(index=9999), ".channel.index", "outside"),
        (lambda d: d["locations"][0]["channel"].update(device="nowhere"), ".channel.device", "unknown device"),
        (lambda d: d["locations"][0].update(fidelity="unsensed"), ".channel", "unsensed location has no channel"),
        (lambda d: d["locations"][0]["channel"].update(sensor="hall"), ".channel.sensor", "cannot sense identity"),
        (lambda d: d["locations"][0]["led"].update(index=1), ".led.index", "already lights"),
        (lambda d: d["devices"][0].pop("port"), "devices[0 id=dev-aureon].port", "needs a port"),
        (lambda d: d["locations"][1]["channel"].update(index=0), ".channel", "already used by"),
        (lambda d: d.update(format=7), "format", "unsupported format"),
    ],
)
def test_semantic_errors_are_specific(full_text, change, path_part, words):
    err = _error(_mutate(full_text, change))
    assert any(path_part in path and words in message for path, message in err.issues), err.issues


def test_unknown_keys_and_broken_yaml_are_refused(full_text):
    err = _error(_mutate(full_text, lambda d: d["locations"][2].update(colour="red")))
    assert "colour" in str(err)
    err = _error("devices: [\n")
    assert "not valid YAML" in str(err) and "line" in err.issues[0][0]
    err = _error("- just a list")
    assert "mapping" in str(err)


def test_missing_file_is_a_wiring_map_error(tmp_path: Path):
    with pytest.raises(WiringMapError, match="cannot read file"):
        load_wiring_map(tmp_path / "nope.yaml")


def test_id_list_matches_the_rules_physical_view():
    """hal keeps its own id list (it may not import rules.aac); it must equal the game's."""
    from rules.aac.catalogue import load_packaged
    from rules.aac.physical import location_specs

    ours = [(s.id, s.kind, s.capacity, set(s.accepts), s.owner) for s in aac_location_specs()]
    theirs = [(s.id, s.kind, s.capacity, set(s.accepts), s.owner) for s in location_specs(load_packaged())]
    assert ours == theirs
