"""Every fuzz target as a hypothesis property test, sized for the suite (a few seconds each).

The long runs are ``aetherlink fuzz --seconds N`` (docs/fuzzing.md). A failure here prints the
minimal input; only the bugs listed in ``firmware_bridge/fuzzing/known.py`` are let through.
"""

from __future__ import annotations

from hypothesis import given

from firmware_bridge.fuzzing import catalogue, config, mqtt, notation, serial, wiring
from tests.fuzz.conftest import fuzz_settings


@fuzz_settings(400)
@given(serial.inputs())
def test_serial_link_survives_any_bytes(serial_check, example):
    serial_check(example)


@fuzz_settings(200)
@given(mqtt.inputs())
def test_mqtt_commands_refuse_bad_payloads_and_change_nothing(mqtt_check, example):
    mqtt_check(example)


@fuzz_settings(150)
@given(config.inputs())
def test_config_loader_reports_config_errors_only(config_check, example):
    config_check(example)


@fuzz_settings(40)
@given(catalogue.aac_inputs())
def test_aac_catalogue_reports_catalogue_errors_with_paths(catalogue_aac_check, example):
    catalogue_aac_check(example)


@fuzz_settings(30)
@given(catalogue.toe_inputs())
def test_toe_catalogue_reports_catalogue_errors_with_paths(catalogue_toe_check, example):
    catalogue_toe_check(example)


@fuzz_settings(60)
@given(wiring.inputs())
def test_wiring_loader_reports_wiring_errors_with_paths(wiring_check, example):
    wiring_check(example)


@fuzz_settings(300)
@given(notation.inputs_for("aac"))
def test_aac_notation_json_and_validate(notation_aac_check, example):
    notation_aac_check(example)


@fuzz_settings(500)
@given(notation.inputs_for("toe"))
def test_toe_notation_json_and_validate(notation_toe_check, example):
    notation_toe_check(example)
