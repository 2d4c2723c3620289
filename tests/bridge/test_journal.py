"""The journal: append and replay, undo rows, durability settings, and corruption detected by row."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.journal import (
    GameSetup,
    Journal,
    JournalCorrupt,
    JournalError,
    Kind,
    _canonical,
    _checksum,
    action_body,
    iter_replay,
    replay,
)
from rules import CHANCE
from tests.bridge.testgame import PebbleGame, random_player_script

ROOT = Path(__file__).resolve().parents[2]
SETUP = GameSetup("testgame", 2, 11, {"pile": 10})


def record_game(path: Path, seed: int = 11, pile: int = 10) -> tuple[Journal, Any]:
    """Journal a whole random game the way the service does: setup, then each decision."""
    game = PebbleGame()
    setup = GameSetup("testgame", 2, seed, {"pile": pile})
    journal = Journal(path)
    journal.append_setup(setup, "test")
    state = setup.new_state(game)
    script, truth = random_player_script(seed, pile=pile)
    moves = iter(script)

    def decide() -> None:
        decider = state.current_player
        action = state.sample_chance() if decider == CHANCE else next(moves)
        journal.append([("action", action_body(game, state, decider, action, "test"))])
        state.apply(action)

    while not state.is_terminal():
        decide()
    return journal, truth


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def corrupt_with_sql(path: Path, statement: str, *args: object) -> str:
    """Change the file behind the journal's back; returns the file's digest afterwards."""
    conn = sqlite3.connect(path)
    conn.execute(statement, args)
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return digest(path)


def corrupt_open(path: Path) -> JournalCorrupt:
    before = digest(path)
    with pytest.raises(JournalCorrupt) as info:
        j = Journal(path)
        replay(j)
    assert digest(path) == before, "a corrupt journal must be left exactly as it was"
    return info.value


def test_round_trip_rebuilds_the_exact_game(tmp_path):
    journal, truth = record_game(tmp_path / "j.sqlite")
    journal.close()
    with Journal(tmp_path / "j.sqlite", readonly=True) as again:
        rebuilt = replay(again)
        assert rebuilt is not None
        assert rebuilt.state.to_json() == truth.to_json()
        assert rebuilt.state.is_terminal()
        kinds = [s.entry.kind for s in rebuilt.steps]
        assert kinds[0] == "setup" and set(kinds[1:]) == {"action"}
        assert rebuilt.last_seq == again.last_seq == len(kinds)
        notations = [s.notation for s in rebuilt.steps[1:]]
        assert all(n.split()[0] in ("roll", "take", "end", "reward") for n in notations)


def test_durability_settings_and_commit_per_append(tmp_path):
    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    assert journal._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    journal.append_setup(SETUP)
    # Another connection sees the row at once: it was committed before append() returned.
    other = sqlite3.connect(path)
    assert other.execute("SELECT count(*) FROM entries").fetchone()[0] == 1
    other.close()


def test_several_games_and_undo_rows(tmp_path):
    game = PebbleGame()
    journal = Journal(tmp_path / "j.sqlite")
    journal.append_setup(GameSetup("testgame", 3, 1, {}), "config")
    journal.append_setup(SETUP, "command")
    state = SETUP.new_state(game)
    rows: list[tuple[Kind, dict]] = []
    for _ in range(3):
        decider = state.current_player
        action = state.sample_chance() if decider == CHANCE else state.legal_actions()[0]
        rows.append(("action", action_body(game, state, decider, action, "t")))
        state.apply(action)
    journal.append(rows)
    journal.append([("undo", {"count": 1})])
    assert journal.games() == [1, 2] and journal.current_game == 2
    rebuilt = replay(journal)
    assert rebuilt is not None and rebuilt.number == 2
    assert len(rebuilt.state.history) == 2
    first = replay(journal, 1)
    assert first is not None and first.setup.players == 3
    states = [s for _, s in iter_replay(journal)]
    assert [len(s.history) for s in states] == [0, 1, 2, 3, 2]


def test_append_refuses_bad_rows(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    with pytest.raises(ValueError, match="setup"):
        journal.append([("action", {"decider": 0, "action": {"kind": "end"}})])
    journal.append_setup(SETUP)
    with pytest.raises(Exception, match="decider"):
        journal.append([("action", {"action": {"kind": "end"}})])
    assert journal.last_seq == 1


def test_altered_row_is_named(tmp_path):
    path = tmp_path / "j.sqlite"
    record_game(path)[0].close()
    corrupt_with_sql(path, "UPDATE entries SET body = replace(body, 'take', 'taek') WHERE seq = "
                           "(SELECT min(seq) FROM entries WHERE body LIKE '%take%')")
    conn = sqlite3.connect(path)
    row = conn.execute("SELECT min(seq) FROM entries WHERE body LIKE '%taek%'").fetchone()[0]
    conn.close()
    error = corrupt_open(path)
    assert error.row == row and "checksum mismatch" in str(error)
    assert f"row {row}:" in str(error) and "left untouched" in str(error)


def test_missing_row_and_altered_checksum(tmp_path):
    path = tmp_path / "j.sqlite"
    record_game(path)[0].close()
    corrupt_with_sql(path, "DELETE FROM entries WHERE seq = 5")
    error = corrupt_open(path)
    assert error.row == 5 and "row missing (next row found is 6)" in str(error)

    path2 = tmp_path / "j2.sqlite"
    record_game(path2)[0].close()
    corrupt_with_sql(path2, "UPDATE entries SET checksum = ? WHERE seq = 3", "0" * 64)
    assert corrupt_open(path2).row == 3


def test_forged_but_consistent_rows_are_replayed_through_the_rules(tmp_path):
    """Rows with valid checksums that the rules refuse (a bug or tampering) are still caught, by row."""
    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    journal.append_setup(SETUP)
    state: Any = SETUP.new_state(PebbleGame())
    roll = state.sample_chance()
    journal.append([("action", {"decider": CHANCE, "action": {"kind": "roll", "value": roll.args[0]}})])
    journal.append([("action", {"decider": 1 - state.seat, "action": {"kind": "take", "count": 1}})])
    journal.close()
    error = corrupt_open(path)
    assert error.row == 3 and "decision recorded for seat" in str(error)

    path2 = tmp_path / "j2.sqlite"
    journal = Journal(path2)
    journal.append_setup(SETUP)
    journal.append([("action", {"decider": CHANCE, "action": {"kind": "roll", "value": 1}}),
                    ("action", {"decider": state.seat, "action": {"kind": "take", "count": 3}})])
    journal.close()
    error = corrupt_open(path2)
    assert error.row == 3 and "'take 3' is not legal here" in str(error)


def test_garbage_truncated_and_foreign_files(tmp_path):
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(os.urandom(4096))
    assert "not an SQLite database" in str(corrupt_open(garbage))

    path = tmp_path / "j.sqlite"
    record_game(path, pile=40)[0].close()
    data = path.read_bytes()
    truncated = tmp_path / "truncated.sqlite"
    truncated.write_bytes(data[: len(data) // 2 + 100])
    assert "SQLite" in str(corrupt_open(truncated))

    foreign = tmp_path / "foreign.sqlite"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    assert "not an Aetherlink journal" in str(corrupt_open(foreign))


def test_flipped_bytes_inside_a_row_are_detected(tmp_path):
    """Damage on the disk (not through SQLite) in a row's text is caught by its checksum."""
    path = tmp_path / "j.sqlite"
    record_game(path, pile=20)[0].close()
    data = bytearray(path.read_bytes())
    target = data.rfind(b'"notation":"take ')
    assert target > 0
    index = target + len(b'"notation":"take ')
    data[index] = ord("9") if data[index] != ord("9") else ord("8")
    path.write_bytes(bytes(data))
    error = corrupt_open(path)
    assert error.row is not None and ("checksum mismatch" in str(error) or "SQLite" in str(error))


_WRITER = """
import sys
sys.path.insert(0, {root!r})
from tests.bridge import testgame
from firmware_bridge.journal import Journal, GameSetup
j = Journal({path!r})
if j.last_seq == 0:
    j.append_setup(GameSetup("testgame", 2, 1, {{}}))
print("ready", flush=True)
i = 0
while True:
    i += 1
    j.append([("answer", {{"prompt": "p%d" % i, "key": "k" * (i % 50)}}), ("answer", {{"prompt": "q", "key": "z"}})])
"""


def test_kill_during_appends_leaves_a_whole_journal(tmp_path):
    """kill -9 at random moments of a stream of appends: every reopen verifies and rows come in whole pairs."""
    path = tmp_path / "j.sqlite"
    rng = random.Random(5)
    last = 0
    for _ in range(8):
        child = subprocess.Popen([sys.executable, "-c", _WRITER.format(root=str(ROOT), path=str(path))],
                                 stdout=subprocess.PIPE)
        assert child.stdout is not None and child.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.0, 0.15))
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        with Journal(path) as journal:
            assert journal.last_seq >= last
            assert (journal.last_seq - 1) % 2 == 0, "a two-row append must be all or nothing"
            last = journal.last_seq
    assert last > 1


def test_torn_wal_tail_drops_only_unfinished_frames(tmp_path):
    """A WAL cut in the middle (power loss while writing it): SQLite ignores the torn frames and the
    chain of what remains still verifies, so nothing half-written is ever replayed."""
    src = tmp_path / "live.sqlite"
    journal, _ = record_game(src, pile=30)
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(src.read_bytes())
    wal = Path(str(src) + "-wal").read_bytes()
    assert len(wal) > 10_000
    Path(str(copy) + "-wal").write_bytes(wal[: len(wal) - 3000])
    with Journal(copy) as torn:
        assert 0 < torn.last_seq <= journal.last_seq
        replay(torn)
    journal.close()


def test_readonly_reader_beside_the_writer(tmp_path):
    path = tmp_path / "j.sqlite"
    writer = Journal(path)
    writer.append_setup(SETUP)
    with Journal(path, readonly=True) as reader:
        assert reader.last_seq == 1
        with pytest.raises(JournalError, match="read-only"):
            reader.append([("undo", {"count": 1})])
    with pytest.raises(JournalError, match="no such journal"):
        Journal(tmp_path / "absent.sqlite", readonly=True)
    writer.close()


def test_checksum_is_over_content_and_previous_row():
    body = _canonical({"b": 1, "a": [1, 2]})
    assert body == '{"a":[1,2],"b":1}'
    one = _checksum("x", 1, 1, "setup", body)
    assert one != _checksum("y", 1, 1, "setup", body) != _checksum("x", 2, 1, "setup", body)
    assert len(one) == 64 and json.loads(body) == {"a": [1, 2], "b": 1}
