"""The rules commands of the CLI, run as a user runs them (a real subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.aac.catalogue import packaged_text


def aetherlink(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_bridge", *args], capture_output=True, text=True,
                          input=stdin, timeout=300)


@pytest.mark.parametrize("players", [2, 5])
def test_play_random_prints_the_summary_as_last_line(players):
    proc = aetherlink("play", "--game", "aac", "--players", str(players), "--seed", "3", "--random", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert {"game", "players", "seed", "decisions", "turns", "scores", "winner"} <= set(result)
    assert result["game"] == "aac" and result["players"] == players and result["seed"] == 3
    assert len(result["scores"]) == players
    for s in result["scores"]:
        assert s["total"] == sum(s["categories"].values())
        assert {"fully_gained_energy", "monuments", "pillars", "achievements", "tile_pool"} <= set(s["categories"])
    best = max(s["total"] for s in result["scores"])
    assert result["winners"] and all(any(s["name"] == w and s["total"] == best for s in result["scores"])
                                     for w in result["winners"])
    again = aetherlink("play", "--game", "aac", "--players", str(players), "--seed", "3", "--random", "--json")
    assert again.stdout == proc.stdout  # deterministic


def test_play_reads_moves_in_notation():
    proc = aetherlink("play", "--game", "aac", "--players", "3", "--seed", "1", stdin="pass\nslide bogus\n")
    assert proc.returncode == 0
    assert "refused: An ACTIONS turn must take at least one action" in proc.stderr


def test_unknown_game_and_foreign_option_are_refused():
    proc = aetherlink("play", "--game", "chess", "--random")
    assert proc.returncode == 2 and "unknown game 'chess'" in proc.stderr


def test_bench_rules_prints_ratio_against_python_chess():
    proc = aetherlink("bench", "rules", "--game", "aac", "--seconds", "0.5", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    for key in ("decisions_per_s", "games_per_s", "python_chess_plies_per_s", "ratio"):
        assert result[key] > 0
    assert abs(result["ratio"] - result["decisions_per_s"] / result["python_chess_plies_per_s"]) < 0.01


def test_catalogue_check_lists_unverified_values():
    proc = aetherlink("catalogue", "check", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    paths = [u["path"] for u in result["unverified"]]
    assert "rules.tile_pool_costs" in paths
    assert any(p.startswith("monuments") for p in paths)
    assert all(u["reason"] for u in result["unverified"])


def test_catalogue_check_names_errors_in_an_edited_file(tmp_path: Path):
    text, _ = packaged_text("en")
    bad = tmp_path / "my.yaml"
    bad.write_text(text.replace("sections:\n      - {spaces: [rose, compass, rose]",
                                "sections:\n      - {spaces: [rose, compas, rose]"))
    proc = aetherlink("catalogue", "check", "--file", str(bad))
    assert proc.returncode == 1
    assert "monuments[3 id=forge].sections[0].spaces[1]" in proc.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: aac\n  bad: [")
    proc = aetherlink("catalogue", "check", "--file", str(broken), "--json")
    assert proc.returncode == 1 and "not valid YAML" in proc.stdout
    proc = aetherlink("catalogue", "check", "--file", str(tmp_path / "missing.yaml"))
    assert proc.returncode == 2 and "cannot read" in proc.stderr
