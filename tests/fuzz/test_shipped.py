"""The seeds of the mutations: the shipped data loads, also after the YAML/TOML dump the fuzzers use."""

from __future__ import annotations

import tomllib

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import rules
from firmware_bridge.config import config_from_dict
from firmware_bridge.fuzzing import catalogue, config, mutate, wiring
from hal.wiring.loader import parse_wiring_map
from rules.aac.catalogue import packaged_text, parse_catalogue
from rules.toe.catalogue import check_text
from tests.fuzz.conftest import fuzz_settings


@pytest.mark.parametrize("edition", ["en", "fr"])
def test_shipped_aac_catalogue_is_valid_as_shipped_and_as_dumped(edition):
    text, source = packaged_text(edition)
    shipped = parse_catalogue(text, source)
    dumped = parse_catalogue(catalogue.dump(yaml.safe_load(text)), source)
    assert shipped.unverified() == dumped.unverified() and shipped.characters == dumped.characters
    assert rules.load("aac").check_catalogue(edition=edition) == shipped.unverified()


@pytest.mark.parametrize("part", catalogue.TOE_PARTS)
def test_shipped_toe_catalogue_parts_are_valid_as_dumped(part):
    text = catalogue.dump(yaml.safe_load(catalogue._toe_text(part)))
    assert check_text(text, f"{part}.yaml") == check_text(None)


@pytest.mark.parametrize("name", wiring.MAPS)
def test_shipped_wiring_maps_and_their_samplers_load(name):
    full = parse_wiring_map(wiring.shipped_text(name), f"{name}.yaml")
    small = parse_wiring_map(catalogue.dump(wiring.sampler(name)), "sample.yaml")
    assert set(small.locations) <= set(full.locations) and len(small.locations) >= 8


def test_toml_writer_round_trips_a_valid_configuration():
    doc = {"board": {"id": "t1", "name": "Table \"1\" é"}, "game": {"name": "aac", "players": 3,
           "options": {"divine_winds": True, "characters": ["aureon", "rusne", "ignotas"]}},
           "mqtt": {"reconnect_min_s": 0.5, "port": 1884}, "commands": {"allow": ["status", "move"]}}
    assert tomllib.loads(config.to_toml(doc)) == doc
    config_from_dict(tomllib.loads(config.to_toml(doc)))


@fuzz_settings(100)
@given(st.data())
def test_mutations_leave_the_original_alone_and_dump_as_yaml(data):
    original = {"a": [1, {"id": "x", "b": "y"}], "c": {"d": True}}
    snapshot = repr(original)
    changed = data.draw(mutate.mutated(original))
    assert repr(original) == snapshot
    assert yaml.safe_load(catalogue.dump(changed)) == changed or "nan" in repr(changed)
