"""The crash-safe record of every game: an append-only SQLite journal.

Every accepted decision, prompt answer, undo and game setup is one row, written
in its own transaction (WAL mode, ``synchronous=FULL``) *before* anything is
published, so whatever the players were told is on disk. Each row carries a
SHA-256 checksum over its content and the previous row's checksum: a changed,
missing or torn row breaks the chain and is reported as ``JournalCorrupt``
naming the row. The journal is never truncated or repaired automatically; the
service refuses to start on it and an operator decides (see ``docs/deploy.md``).

Single writer: the service's core thread. Readers (``aetherlink status``,
``aetherlink replay``) open it read-only, which WAL allows while it is written.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import msgspec

import rules
from rules import CHANCE, Action, Game, IllegalAction, NotationError, State

FORMAT = "1"
GENESIS = "aetherlink-journal-" + FORMAT
SQLITE_MAGIC = b"SQLite format 3\x00"

Kind = Literal["setup", "action", "answer", "undo"]

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entries (
    seq INTEGER PRIMARY KEY,
    game INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    checksum TEXT NOT NULL
);
"""


class JournalError(RuntimeError):
    """The journal cannot be opened or written (permissions, disk full, I/O error)."""


class JournalCorrupt(JournalError):
    """The journal's content is damaged: a row changed, missing, torn or impossible to replay."""

    def __init__(self, path: str, row: int | None, reason: str):
        self.path = path
        self.row = row
        self.reason = reason
        where = f"{path}: row {row}" if row is not None else path
        super().__init__(f"{where}: {reason}; the journal was left untouched")


# -- row bodies (validated on replay, so a hand-edited row is refused by name) ---------------------


class _Body(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, omit_defaults=True):
    source: str = ""


class SetupBody(_Body):
    game: str
    players: int
    seed: int
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    setup: dict[str, Any] | None = None


class ActionBody(_Body):
    decider: int
    action: dict[str, Any]
    notation: str = ""


class AnswerBody(_Body):
    prompt: str
    key: str
    seat: int | None = None


class UndoBody(_Body):
    count: int


_BODY_TYPES: dict[str, type[_Body]] = {"setup": SetupBody, "action": ActionBody, "answer": AnswerBody,
                                       "undo": UndoBody}


@dataclass(frozen=True)
class Entry:
    seq: int
    game: int
    kind: str
    body: Mapping[str, Any]
    checksum: str


def _canonical(body: Mapping[str, Any]) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _checksum(prev: str, seq: int, game: int, kind: str, body: str) -> str:
    h = hashlib.sha256()
    h.update("\x1f".join((prev, str(seq), str(game), kind, body)).encode("utf-8"))
    return h.hexdigest()


class Journal:
    """One SQLite journal file; verified on open."""

    def __init__(self, path: str | Path, *, readonly: bool = False):
        self.path = Path(path)
        self.readonly = readonly
        self._last_seq = 0
        self._last_checksum = GENESIS
        self._game = 0
        self._pending_conn: sqlite3.Connection | None = None
        self._conn = self._open()
        try:
            self._verify()
            if not readonly:
                self._durable()
        except BaseException:
            self._conn.close()
            raise

    # -- opening and verifying --

    def _open(self) -> sqlite3.Connection:
        name = str(self.path)
        if self.path.exists() and self.path.stat().st_size > 0:
            with self.path.open("rb") as f:
                if f.read(16) != SQLITE_MAGIC:
                    raise JournalCorrupt(name, None, "not an SQLite database (damaged header)")
        elif self.readonly:
            raise JournalError(f"{name}: no such journal")
        try:
            if self.readonly:
                conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                       isolation_level=None, check_same_thread=False)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(name, isolation_level=None, check_same_thread=False, timeout=10)
            check = conn.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as exc:
            raise JournalCorrupt(name, None, f"SQLite cannot read it: {exc}") from None
        except OSError as exc:
            raise JournalError(f"{name}: {exc}") from None
        if check != [("ok",)]:
            detail = "; ".join(str(r[0]) for r in check[:3])
            conn.close()
            raise JournalCorrupt(name, None, f"SQLite integrity check failed: {detail}")
        return conn

    def _durable(self) -> None:
        """WAL with a sync at every commit: an append that returned survives a crash or power loss.

        Switched on only after verification, so a file that is not a journal is left as it was."""
        mode = self._conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise JournalError(f"{self.path}: cannot switch to WAL mode (got {mode})")
        self._conn.execute("PRAGMA synchronous=FULL")

    def _verify(self) -> None:
        name = str(self.path)
        try:
            tables = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables:
                if self.readonly:
                    raise JournalCorrupt(name, None, "empty file, not a journal")
                self._create()
                return
            if not {"meta", "entries"} <= tables:
                raise JournalCorrupt(name, None, "not an Aetherlink journal (no entries table)")
            meta = dict(self._conn.execute("SELECT key, value FROM meta").fetchall())
            if meta.get("format") != FORMAT:
                raise JournalCorrupt(name, None, f"unknown journal format {meta.get('format')!r}")
            for seq, game, kind, body, checksum in self._conn.execute(
                    "SELECT seq, game, kind, body, checksum FROM entries ORDER BY seq"):
                self._check_row(seq, game, kind, body, checksum)
        except sqlite3.DatabaseError as exc:
            raise JournalCorrupt(name, self._last_seq + 1 if self._last_seq else None,
                                 f"SQLite cannot read it: {exc}") from None

    def _check_row(self, seq: Any, game: Any, kind: Any, body: Any, checksum: Any) -> None:
        name = str(self.path)
        if not isinstance(seq, int) or seq != self._last_seq + 1:
            raise JournalCorrupt(name, self._last_seq + 1, f"row missing (next row found is {seq})")
        if not (isinstance(game, int) and isinstance(kind, str) and isinstance(body, str)):
            raise JournalCorrupt(name, seq, "row has wrong column types")
        if checksum != _checksum(self._last_checksum, seq, game, kind, body):
            raise JournalCorrupt(name, seq, "checksum mismatch (the row was altered or torn)")
        if kind not in _BODY_TYPES:
            raise JournalCorrupt(name, seq, f"unknown entry kind {kind!r}")
        expected_game = self._game + 1 if kind == "setup" else self._game
        if game != expected_game or (kind != "setup" and self._game == 0):
            raise JournalCorrupt(name, seq, f"game number {game} out of order (expected {expected_game})")
        self._last_seq, self._last_checksum, self._game = seq, checksum, game

    def _create(self) -> None:
        with self._transaction():
            for statement in _SCHEMA.strip().split(";"):
                if statement.strip():
                    self._conn.execute(statement)
            self._conn.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn)

    # -- reading --

    @property
    def last_seq(self) -> int:
        return self._last_seq

    @property
    def current_game(self) -> int:
        """The number of the latest game (0: no game was ever set up)."""
        return self._game

    def entries(self, game: int | None = None) -> list[Entry]:
        """Rows in order; only those of game number ``game`` if given."""
        query = "SELECT seq, game, kind, body, checksum FROM entries"
        args: tuple[Any, ...] = ()
        if game is not None:
            query += " WHERE game = ?"
            args = (game,)
        out = []
        for seq, g, kind, body, checksum in self._conn.execute(query + " ORDER BY seq", args):
            try:
                data = json.loads(body)
            except ValueError:
                raise JournalCorrupt(str(self.path), seq, "body is not valid JSON") from None
            if not isinstance(data, dict):
                raise JournalCorrupt(str(self.path), seq, "body is not a JSON object")
            out.append(Entry(seq, g, kind, data, checksum))
        return out

    def games(self) -> list[int]:
        return [r[0] for r in self._conn.execute("SELECT DISTINCT game FROM entries ORDER BY game")]

    # -- writing --

    def append(self, rows: Iterable[tuple[Kind, Mapping[str, Any]]]) -> list[Entry]:
        """Append rows in one durable transaction; returns them with their sequence numbers."""
        if self.readonly:
            raise JournalError(f"{self.path}: opened read-only")
        written: list[Entry] = []
        seq, prev, game = self._last_seq, self._last_checksum, self._game
        staged = []
        for kind, body in rows:
            if kind not in _BODY_TYPES:
                raise ValueError(f"unknown entry kind {kind!r}")
            msgspec.convert(dict(body), type=_BODY_TYPES[kind], strict=True)
            seq += 1
            game = game + 1 if kind == "setup" else game
            if game == 0:
                raise ValueError("the first journal entry of a game must be its setup")
            text = _canonical(body)
            prev = _checksum(prev, seq, game, kind, text)
            staged.append((seq, game, kind, text, prev))
            written.append(Entry(seq, game, kind, json.loads(text), prev))
        if not staged:
            return []
        try:
            with self._transaction():
                self._conn.executemany("INSERT INTO entries VALUES (?, ?, ?, ?, ?)", staged)
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: cannot append: {exc}") from None
        self._last_seq, self._last_checksum, self._game = seq, prev, game
        return written

    def append_setup(self, setup: GameSetup, source: str = "") -> Entry:
        return self.append([("setup", setup.to_body(source))])[0]

    # -- work in progress (not part of the record) --

    def save_pending(self, game: int, seq: int, work: Mapping[str, Any] | None) -> None:
        """Keep the interpreter's work in progress (moves still pending, the answers given to them) at
        journal row ``seq``, so that a restart goes on from it; None forgets it.

        Not a journal row: nothing in it was accepted. Written without waiting for the disk (it survives
        the process being killed, not a power cut, and a restart without it explains the table afresh)."""
        conn = self._scratch()
        if work is None:
            conn.execute("DELETE FROM pending WHERE game = ?", (game,))
        else:
            conn.execute("INSERT OR REPLACE INTO pending VALUES (?, ?, ?)", (game, seq, _canonical(work)))

    def load_pending(self, game: int, seq: int) -> dict[str, Any] | None:
        """The work in progress kept for ``game`` at row ``seq``; None if there is none, it was kept at
        another row (rows written since made it stale) or it cannot be read."""
        try:
            row = self._conn.execute("SELECT seq, body FROM pending WHERE game = ?", (game,)).fetchone()
        except sqlite3.DatabaseError:
            return None  # (no such table: a journal no service has written to since)
        if row is None or row[0] != seq:
            return None
        try:
            work = json.loads(row[1])
        except ValueError:
            return None
        return work if isinstance(work, dict) else None

    def _scratch(self) -> sqlite3.Connection:
        if self._pending_conn is None:
            conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=10)
            conn.execute("PRAGMA synchronous=OFF")
            conn.execute("CREATE TABLE IF NOT EXISTS pending "
                         "(game INTEGER PRIMARY KEY, seq INTEGER NOT NULL, body TEXT NOT NULL)")
            self._pending_conn = conn
        return self._pending_conn

    def close(self) -> None:
        if self._pending_conn is not None:
            self._pending_conn.close()
        self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    def __init__(self, conn: sqlite3.Connection):
        self._conn = conn

    def __enter__(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self._conn.execute("COMMIT")
        else:
            self._conn.execute("ROLLBACK")


# -- game setup and replay ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSetup:
    """Everything ``new_game`` needs; with the journaled decisions it reproduces a game exactly."""

    game: str
    players: int
    seed: int
    options: Mapping[str, Any]
    setup: Mapping[str, Any] | None = None

    def to_body(self, source: str = "") -> dict[str, Any]:
        body: dict[str, Any] = {"game": self.game, "players": self.players, "seed": self.seed,
                                "options": dict(self.options)}
        if self.setup is not None:
            body["setup"] = dict(self.setup)
        if source:
            body["source"] = source
        return body

    def new_state(self, game: Game | None = None) -> State:
        g = game or rules.load(self.game)
        return g.new_game(self.players, seed=self.seed, options=dict(self.options),
                          setup=dict(self.setup) if self.setup is not None else None)


def action_body(game: Game, state: State, decider: int, action: Action, source: str) -> dict[str, Any]:
    """The journal body of one decision (``state`` is the state before it, for the notation)."""
    body: dict[str, Any] = {"decider": decider, "action": game.action_to_json(action),
                            "notation": game.format(action, state)}
    if source:
        body["source"] = source
    return body


@dataclass(frozen=True)
class Step:
    """One journal row as replayed: the entry and, for decisions, the action and its notation."""

    entry: Entry
    action: Action | None = None
    notation: str = ""
    decider: int | None = None


@dataclass
class Replay:
    """A game rebuilt from the journal: its setup, the state now and every step that led there."""

    number: int
    setup: GameSetup
    game: Game
    state: State
    steps: list[Step]
    last_seq: int


def replay(journal: Journal, game_number: int | None = None) -> Replay | None:
    """Rebuild game ``game_number`` (default: the latest); ``None`` if the journal has no game."""
    return _replay(journal, game_number, collect=None)


def iter_replay(journal: Journal, game_number: int | None = None) -> Iterator[tuple[Step, State]]:
    """Each step of a game with the state right after it (for ``aetherlink replay --step``)."""
    collected: list[tuple[Step, State]] = []
    _replay(journal, game_number, collect=collected)
    yield from collected


def _replay(journal: Journal, game_number: int | None,
            collect: list[tuple[Step, State]] | None) -> Replay | None:
    number = game_number if game_number is not None else journal.current_game
    if number == 0:
        return None
    entries = journal.entries(number)
    name = str(journal.path)
    if not entries:
        raise JournalError(f"{name}: no game number {number} (games: {journal.games()})")
    first = entries[0]
    setup_body = _body(name, first, SetupBody)
    try:
        game = rules.load(setup_body.game)
    except KeyError as exc:
        raise JournalCorrupt(name, first.seq, f"game {setup_body.game!r} is not installed ({exc})") from None
    b = setup_body
    setup = GameSetup(b.game, b.players, b.seed, b.options, b.setup)
    try:
        state = setup.new_state(game)
    except (ValueError, TypeError, KeyError) as exc:
        raise JournalCorrupt(name, first.seq, f"cannot set the game up: {exc}") from None
    initial = state.clone()
    steps: list[Step] = [Step(first)]
    applied: list[tuple[int, Action]] = []
    if collect is not None:
        collect.append((steps[0], state.clone()))
    for entry in entries[1:]:
        step = Step(entry)
        if entry.kind == "action":
            body = _body(name, entry, ActionBody)
            try:
                action = game.action_from_json(body.action)
            except NotationError as exc:
                raise JournalCorrupt(name, entry.seq, f"unreadable action: {exc}") from None
            _check_decider(name, entry, state, action, body.decider)
            notation = game.format(action, state)
            try:
                state.apply(action)
            except IllegalAction as exc:
                raise JournalCorrupt(name, entry.seq, f"action {notation!r} is not legal here: {exc}") \
                    from None
            applied.append((body.decider, action))
            step = Step(entry, action, notation, body.decider)
        elif entry.kind == "undo":
            count = _body(name, entry, UndoBody).count
            if not 1 <= count <= len(applied):
                raise JournalCorrupt(name, entry.seq,
                                     f"undo of {count} decision(s) but {len(applied)} were made")
            del applied[-count:]
            state = initial.clone()
            for _, action in applied:
                state.apply(action)
        elif entry.kind == "answer":
            _body(name, entry, AnswerBody)
        else:
            raise JournalCorrupt(name, entry.seq, f"unexpected {entry.kind!r} row inside a game")
        steps.append(step)
        if collect is not None:
            collect.append((step, state.clone()))
    return Replay(number, setup, game, state, steps, entries[-1].seq)


def _check_decider(name: str, entry: Entry, state: State, action: Action, decider: int) -> None:
    expected = CHANCE if state.current_player == CHANCE else state.decider_of(action)
    if decider != expected:
        raise JournalCorrupt(name, entry.seq,
                             f"decision recorded for seat {decider} but seat {expected} decides")


def _body(name: str, entry: Entry, schema: type[Any]) -> Any:
    try:
        return msgspec.convert(dict(entry.body), type=schema, strict=True)
    except msgspec.ValidationError as exc:
        raise JournalCorrupt(name, entry.seq, f"malformed {entry.kind} row: {exc}") from None
