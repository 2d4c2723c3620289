"""The Time of Empires catalogue: component counts from the rulebook, unverified values, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.core.catalogue import CatalogueError
from rules.toe import catalogue_report, load_catalogue, unverified
from rules.toe.catalogue import LEADER_TILE_EFFECTS, shipped_catalogue

DATA = Path(__file__).resolve().parents[2] / "rules" / "toe" / "data"


def test_component_counts_match_the_rulebook():
    """Components: 12 terrain tiles, 12 Wonder cards (4 per age), 18 Leader cards (6 per age),
    72 Technology cards (24 per age), 16 starting cards, 4 double-sided Leader effect tiles."""
    cat = shipped_catalogue()
    assert len(cat.map.tiles) == 12
    for age in (1, 2, 3):
        assert sum(1 for w in cat.wonders if w.age == age) == 4
        assert sum(1 for ld in cat.leaders if ld.age == age) == 6
        assert sum(1 for t in cat.technologies if t.age == age) == 24
        for specialty in ("technological", "control", "cultural"):
            assert sum(1 for ld in cat.leaders if ld.age == age and ld.specialty == specialty) == 2
    starting = [t for t in cat.technologies if t.age == 0]
    assert len(starting) == 16
    for colour in cat.board.colours:
        assert sum(1 for t in starting if t.colour == colour) == 4
        tiles = cat.tiles_of(colour)
        assert len(tiles) == 3 and tiles[0].centre == "capital"
    assert len(cat.board.leader_tiles) == 4
    assert all(len(t.sides) == 2 for t in cat.board.leader_tiles)


def test_leader_tiles_carry_the_eight_listed_effects():
    """Leader tiles effects: the eight effects, one per tile side."""
    sides = [e for t in shipped_catalogue().board.leader_tiles for e in t.sides.values()]
    assert sorted(sides) == sorted(LEADER_TILE_EFFECTS)


def test_spelled_out_cards_have_their_rulebook_effects():
    """Technology cards: the effects of cards 111, 202, 203, 205, 209, 306 and 309."""
    tech = shipped_catalogue().tech
    assert {c: tech[c].effect.kind for c in ("111", "202", "203", "205", "209", "306", "309")} == {
        "111": "double_scholars", "202": "draw_to_four", "203": "shift_timer", "205": "bricks_per_pair",
        "209": "raid", "306": "construct_from_discovery", "309": "land"}
    assert [tech[c].age for c in ("111", "202", "306")] == [1, 2, 3]


def test_stated_numbers_are_verified_and_pictured_values_are_not():
    notes = {(u[0], u[1]) for u in unverified()}
    assert ("rules", "rules.initiation_rounds") in notes
    assert not any(part == "rules" and path != "rules.initiation_rounds" for part, path in notes)
    # every generic Technology card is only pictured; the spelled-out ones only for type and costs
    assert ("technologies", "technologies[19](104)") in notes
    assert ("technologies", "technologies[26](111).type") in notes
    assert not any(path.startswith("technologies[26](111).effect") for _, path in notes)
    assert all(why.strip() and "\n" not in why for _, _, why in unverified())


def test_report_lists_each_unverified_value_with_its_file():
    report = catalogue_report()
    assert report["game"] == "toe"
    assert report["counts"]["technologies"] == 88
    files = {u["file"] for u in report["unverified"]}
    assert "rules/toe/data/map.yaml" in files and "rules/toe/data/wonders.yaml" in files
    assert len(report["unverified"]) == len(unverified())


def _edited(tmp_path: Path, part: str, old: str, new: str) -> Path:
    text = (DATA / f"{part}.yaml").read_text()
    assert old in text
    out = tmp_path / f"{part}.yaml"
    out.write_text(text.replace(old, new, 1))
    return out


def test_an_edited_file_replaces_the_shipped_one(tmp_path):
    edited = _edited(tmp_path, "wonders", "{id: W11, age: 1, counts: {kind: buildings, of: observatory}",
                     "{id: W11, age: 1, counts: {kind: cities}")
    assert load_catalogue(str(edited)).wonder["W11"].counts.kind == "cities"
    report = catalogue_report(str(edited))
    assert str(edited) in report["sources"]


def test_schema_errors_name_the_file_and_path(tmp_path):
    edited = _edited(tmp_path, "technologies", '{id: "104", age: 1, type: culture, discover: 2,',
                     '{id: "104", age: 1, type: culture, discover: two,')
    with pytest.raises(CatalogueError) as err:
        catalogue_report(str(edited))
    assert err.value.source == str(edited)
    assert "technologies[19 id=104].discover" in str(err.value)


def test_semantic_errors_name_the_record(tmp_path):
    edited = _edited(tmp_path, "technologies", "effect: {kind: double_scholars}", "effect: {kind: fly}")
    with pytest.raises(CatalogueError) as err:
        load_catalogue(str(edited))
    assert any(i.path == "technologies[26 id=111].effect.kind" for i in err.value.issues)


def test_count_errors_are_reported(tmp_path):
    edited = _edited(tmp_path, "leaders", "  - {id: L11, age: 1, specialty: technological",
                     "  - {id: L11, age: 2, specialty: technological")
    with pytest.raises(CatalogueError) as err:
        load_catalogue(str(edited))
    text = str(err.value)
    assert "age 1 needs 2 technological leaders, has 1" in text
    assert "age 2 needs 2 technological leaders, has 3" in text


def test_bad_yaml_names_the_line(tmp_path):
    out = tmp_path / "rules.yaml"
    out.write_text("rules:\n  ages: [3\n")
    with pytest.raises(CatalogueError) as err:
        load_catalogue(str(out))
    assert "line" in err.value.issues[0].path


def test_a_file_that_is_no_catalogue_part_is_refused(tmp_path):
    out = tmp_path / "cards.yaml"
    out.write_text("cards: []\n")
    with pytest.raises(CatalogueError, match="not a Time of Empires catalogue part"):
        load_catalogue(str(out))


def test_a_folder_replaces_every_part_it_holds(tmp_path):
    _edited(tmp_path, "rules", "initiation_rounds: 15", "initiation_rounds: 12")
    assert load_catalogue(str(tmp_path)).rules.initiation_rounds == 12


def test_the_generic_catalogue_check_hook():
    """``aetherlink catalogue check --game toe [--file F]`` calls ``Game.check_catalogue(text, source)``."""
    import rules

    game = rules.load("toe")
    shipped = game.check_catalogue()
    assert ("rules.yaml:rules.initiation_rounds", unverified()[0][2]) in shipped
    assert len(shipped) == len(unverified())
    text = (DATA / "map.yaml").read_text().replace("centre: city", "centre: town", 1)
    with pytest.raises(CatalogueError) as err:
        game.check_catalogue(text, "/tmp/edited-map.yaml")  # found by its keys, not its name
    assert err.value.source == "/tmp/edited-map.yaml" and "tiles[1 id=red2].centre" in str(err.value)
    with pytest.raises(CatalogueError, match="not a Time of Empires catalogue part"):
        game.check_catalogue("cards: []\n", "cards.yaml")
