"""Acceptance: ``aetherlink play --game toe --players N --seed S --random --json`` plays a whole game
(real time and --initiation) through the generic engine API and prints the final scores."""

from __future__ import annotations

import json

import pytest

from firmware_bridge.cli import main


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", [[], ["--initiation"], ["--initiation-ages", "1,3"]])
def test_play_random_json(players, variant, capsys):
    assert main(["play", "--game", "toe", "--players", str(players), "--seed", "5", "--random", "--json",
                 *variant]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["game"] == "toe" and len(result["scores"]) == players
    assert result["winners"] and "note" not in result
    assert result["options"]["initiation"] == (variant == ["--initiation"])
    if variant[:1] == ["--initiation-ages"]:
        assert result["options"]["initiation_ages"] == [1, 3]
