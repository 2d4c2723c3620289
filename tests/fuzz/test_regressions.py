"""The minimal inputs of the bugs the fuzzers found and that were fixed, kept as plain tests."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

import rules
from firmware_bridge.config import ConfigError, config_from_dict
from firmware_bridge.fuzzing import catalogue, mqtt, serial
from firmware_bridge.service import requests as rq
from hal.wiring.errors import WiringMapError
from hal.wiring.loader import parse_wiring_map
from rules import NotationError
from rules.aac.catalogue import packaged_text, parse_catalogue
from rules.core.catalogue import CatalogueError, parse_yaml

# -- hal/link/session.py ------------------------------------------------------------------------------


def test_an_led_part_whose_ack_was_lost_is_sent_again_when_the_frame_changes_back():
    serial.check_session([("leds", [(0, 0, 0, 1)]), ("drop", 2), ("leds", [])])


def test_events_delivered_before_a_reconnect_are_not_delivered_again():
    serial.check_session([("edge", 0), ("step", 1), ("reconnect", 0)])


def test_a_forged_block_version_does_not_wedge_the_repair():
    forged = b"\x02\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x04" + b"\x00" * 8  # block 0, version 1, zeros
    serial.check_session([("forge", forged)])


# -- firmware_bridge/service/requests.py, validation.py ------------------------------------------------


@pytest.mark.parametrize("payload", [b"[" * 5000, b'{"transaction": "t", "x":' + b"[" * 5000])
def test_deeply_nested_json_is_malformed_not_a_crash(payload):
    assert rq.transaction_of(payload) is None
    with pytest.raises(rq.RequestError) as caught:
        rq.parse("new_game", payload)
    assert caught.value.code == "malformed"
    with mqtt.TARGETS[0].open() as check:
        check(("new_game", payload, False))  # one "malformed" response, nothing changed


@pytest.mark.parametrize(("payload", "field"), [(b'{"": null}', '""'), (b'{"`": 1}', "`"), (b'{"a`b": 1}', "a`b")])
def test_odd_unknown_keys_are_named_in_the_error(payload, field):
    with pytest.raises(rq.RequestError) as caught:
        rq.parse("new_game", payload)
    assert caught.value.field == field and str(caught.value).startswith(f"{field}: unknown key")


# -- firmware_bridge/config.py -----------------------------------------------------------------------


@pytest.mark.parametrize(("data", "key", "words"), [
    ({"journal": {"path": "~nobody-here-xyz/journal.sqlite"}}, "journal.path", "no such user"),
    ({"mqtt": {"ca": "a" * 300}}, "mqtt.ca", "too long"),
    ({"mqtt": {"url": "mqtt://[::1"}}, "mqtt.url", "not a valid URL"),
])
def test_config_values_that_crashed_the_loader(data, key, words):
    with pytest.raises(ConfigError) as caught:
        config_from_dict(data)
    assert caught.value.key == key and words in caught.value.reason


# -- rules/core/catalogue.py, hal/wiring/loader.py ----------------------------------------------------


@pytest.mark.parametrize("text", ["a: 2001-02-30\n", "0: !!int\n", "0: !!int ;\n", "a: !!bool x\n", "[" * 3000])
def test_yaml_that_pyyaml_cannot_construct_is_a_catalogue_error(text):
    with pytest.raises(CatalogueError, match="not valid YAML"):
        parse_yaml(text, "x.yaml")


@pytest.mark.parametrize("text", ["a: 2001-02-30\n", "0: !!int\n", "- " * 100 + "x\n"])
def test_yaml_that_pyyaml_cannot_construct_is_a_wiring_map_error(text):
    with pytest.raises(WiringMapError):
        parse_wiring_map(text, "x.yaml")


def test_very_deep_nesting_is_refused_before_libyaml_overflows_the_stack():
    # Run in a child: before the fix this input killed the process with a segfault.
    code = ("from hal.wiring.loader import parse_wiring_map, WiringMapError\n"
            "try:\n    parse_wiring_map('[' * 60000, 'x.yaml')\n"
            "except WiringMapError as exc:\n    print(exc.issues[0][1])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "nested more than" in done.stdout, (done.returncode, done.stderr[-500:])


def test_a_check_that_trips_over_data_already_found_wrong_reports_the_finding():
    data = yaml.safe_load(packaged_text()[0])
    data["scoring"]["monument"] = []  # the AAC check then indexes monument[0]
    with pytest.raises(CatalogueError) as caught:
        parse_catalogue(catalogue.dump(data), "x.yaml")
    assert any(issue.path == "scoring.monument" for issue in caught.value.issues)


# -- rules/toe/notation.py -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["P² discard", "p١ discard x", "red place t² tech2 s1", "P1 place t1 tech2 s³"])
def test_toe_notation_with_unicode_digits_is_a_notation_error_or_an_action(text):
    game = rules.load("toe")
    try:
        action = game.parse(text)
    except NotationError:
        return
    assert game.parse(game.format(action)) == action


@pytest.mark.parametrize("data", [{"kind": "discard", "seat": -2}, {"kind": "bonus", "seat": -1, "section": "x"},
                                  {"kind": "place", "seat": 0, "timer": -1, "space": "tech2", "slot": 0}])
def test_toe_actions_that_notation_cannot_write_raise_notation_error(data):
    game = rules.load("toe")
    with pytest.raises(NotationError, match="cannot be written"):
        game.format(game.action_from_json(data))


# -- rules/aac/game.py, notation.py, catalogue.py -------------------------------------------------------


@pytest.mark.parametrize("data", [
    {"kind": "move", "target": 0},  # 'move 0' would read back as the word '0'
    {"kind": "exhaust", "pos": True, "row": "bottom", "energy": "compass"},  # True == 1 passed validate
    {"kind": "claim", "slots": None, "pay": ["wild"]},  # format raised TypeError
    {"kind": "claim", "slots": [2], "pay": ["a+b"]},  # '+' joins list items in notation
    {"kind": "step", "space": "two words"},
])
def test_aac_json_actions_of_the_wrong_types_are_notation_errors(data):
    """An MQTT ``move`` with such an action is refused; it is never validated, journaled or formatted."""
    with pytest.raises(NotationError):
        rules.load("aac").action_from_json(data)


def test_aac_json_actions_of_the_right_types_still_read():
    game = rules.load("aac")
    action = game.action_from_json({"kind": "claim", "slots": [2, 4], "pay": ["compass", "rose"]})
    assert game.parse(game.format(action)) == action


@pytest.mark.parametrize("text", ["claim 4 1+", "claim 4 +rose", "claim 4 rose++wild", "claim 4 +", "claim 4 rose+-"])
def test_aac_notation_lists_with_an_empty_or_dash_item_are_notation_errors(text):
    """'claim 4 1+' read as the pay ('1', ''), which ``format`` then refused: the fuzzer's round trip broke."""
    with pytest.raises(NotationError, match="pay must be words joined by"):
        rules.load("aac").parse(text)


def test_aac_notation_lists_of_words_still_read():
    game = rules.load("aac")
    assert game.parse("claim 4 rose+wild").args == ((4,), ("rose", "wild"))
    assert game.parse("claim 4 -").args == ((4,), ())


@pytest.mark.parametrize("base", ["a\0b", "../aac.yaml", "aac.yaml/x", "", "aac"])
def test_an_overlay_base_that_is_no_catalogue_file_name_is_a_catalogue_error(base):
    with pytest.raises(CatalogueError, match="base"):
        parse_catalogue(yaml.safe_dump({"base": base, "edition": "fr"}), "overlay.yaml")


def test_an_overlay_base_that_is_not_text_is_a_catalogue_error():
    def reader(name: str) -> str:
        return b"\xff\xfe\x00".decode("utf-8")  # what reading a binary file raises

    with pytest.raises(CatalogueError, match="cannot read"):
        parse_catalogue("base: aac.yaml\n", "overlay.yaml", reader)


def test_overlay_records_whose_id_is_not_a_name_do_not_crash_the_merge():
    text = "base: aac.yaml\ncharacters: [{id: [aureon]}]\n"
    with pytest.raises(CatalogueError):
        parse_catalogue(text, "overlay.yaml")
