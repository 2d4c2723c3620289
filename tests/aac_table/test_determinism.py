"""A soak game is one fixed game, whatever the process: its figures name a seed that can be played again.

Python's string hashes are seeded at random per process, so any order taken from a set or dict of
strings (sensors scanned, moves searched, tokens handled) would change the game from one run to the next.
A game played in two processes with different hash seeds must make the same decisions, the same
questions and the same verdicts. (Presence seed 456 once looked hash-dependent; measured again under
PYTHONHASHSEED 0 and 1, the soak and a trace of each decision were the same: 2026-12-04, docs/performance.md.)
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# plays the first decisions of a soak game and prints a digest of everything that could differ
_PLAY = """
import hashlib, sys
from sim.soak.games import TableGame, wiring_for
players, seed, fidelity, decisions = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
game = TableGame(players, seed, wiring_for(fidelity), mistake_rate=0.02)
digest = hashlib.sha256()
for _ in range(decisions):
    if game.truth.state.is_terminal():
        break
    game.play_one()
    digest.update(repr((game.truth.state.fingerprint(), game.recogniser.state.fingerprint(),
                        game.rng.getstate(), game.totals.prompts, game.totals.mistakes)).encode())
t = game.totals
print(digest.hexdigest(), len(game.truth.state.history), t.prompts, t.mistakes, t.false_rejections, t.desyncs)
"""


def _played(hash_seed: str, players: int, seed: int, fidelity: str, decisions: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", _PLAY, str(players), str(seed), fidelity, str(decisions)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_soak_game_plays_the_same_under_any_hash_seed() -> None:
    runs = [_played(hash_seed, 3, 310004, "mixed", 300) for hash_seed in ("0", "1")]
    outputs = []
    for run in runs:
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err
        outputs.append(out.split())
    first, second = outputs
    assert int(first[1]) > 0 and int(first[2]) > 0, first  # (it played, and asked questions)
    assert first == second
