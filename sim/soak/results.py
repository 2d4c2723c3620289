"""A soak's finished games, one JSON line each, so that a run cut short goes on where it stopped.

A 1000-game run takes hours; a machine restart lost the figures of every game it
had played. With a results file each game's figures are appended (and synced to
disk) as it ends; the same command run again reads them, plays only the games
not yet recorded, and prints the figures of all of them. The first line names
the run (game, fidelity, player counts, first seed, mistake rate) and the code
that played it (a digest of the sources): a file written by another run, or by
other code, is refused rather than mixed into figures it does not belong to.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("rules", "hal", "sim")  # what decides a game's figures (the command only prints them)


def code_digest(root: Path = ROOT) -> str:
    """A digest of every source and data file the games are played with."""
    digest = hashlib.sha256()
    for top in SOURCES:
        for path in sorted((root / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


class ResultsError(ValueError):
    """The results file cannot be used for this run (its reason says why and what to do)."""


class ResultsFile:
    """Games already played (by task number) and an append-only record of each game as it ends."""

    def __init__(self, path: Path, run: dict[str, Any]):
        """``run``: what identifies the run (the code digest is added); its games are numbered from 0."""
        self.path = path
        self.run = json.loads(json.dumps({**run, "code": code_digest()}))  # (as read back: tuples as lists)
        self.done: dict[int, dict[str, Any]] = {}
        if path.exists() and path.stat().st_size > 0:
            self._read()
        else:
            self._append({"run": self.run})

    def _read(self) -> None:
        lines = self.path.read_bytes().split(b"\n")
        complete, last = lines[:-1], lines[-1]  # a last line without its newline was cut off mid-write
        if not complete:
            raise ResultsError(f"{self.path}: no run line; not a results file of `soak games`")
        records = [self._parse(number, line) for number, line in enumerate(complete, 1)]
        header = records[0].get("run")
        if header != self.run:
            raise ResultsError(f"{self.path} was written by another run or other code: {header} "
                               f"(this run: {self.run}); give a new --results file")
        for number, record in enumerate(records[1:], 2):
            if not isinstance(record.get("task"), int) or not isinstance(record.get("totals"), dict):
                raise ResultsError(f"{self.path} line {number}: a game's line needs 'task' and 'totals'")
            self.done[record["task"]] = record["totals"]
        if last:  # the game cut off is played again; its partial line is dropped
            with self.path.open("r+b") as out:
                out.truncate(self.path.stat().st_size - len(last))

    def _parse(self, number: int, line: bytes) -> dict[str, Any]:
        try:
            record = json.loads(line)
        except ValueError as exc:
            raise ResultsError(f"{self.path} line {number} is not JSON ({exc}); the file is damaged") from None
        if not isinstance(record, dict):
            raise ResultsError(f"{self.path} line {number} is not a JSON object; the file is damaged")
        return record

    def record(self, task: int, totals: Any) -> None:
        """Keep one finished game's figures (a dataclass of totals), on disk before this returns."""
        self.done[task] = _fields(totals)
        self._append({"task": task, "totals": self.done[task]})

    def _append(self, record: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            out.flush()
            os.fsync(out.fileno())


def kept_in(path: Path | None, run: dict[str, Any]) -> ResultsFile | None:
    """The results file of ``run`` at ``path``, or None when the run keeps none."""
    return None if path is None else ResultsFile(path, run)


def _fields(totals: Any) -> dict[str, Any]:
    fields = dataclasses.asdict(totals)
    fields["verdict_ms"] = [round(ms, 4) for ms in fields.get("verdict_ms", [])]
    fields.pop("stopped", None)
    return fields


def totals_from(kind: type, fields: dict[str, Any]) -> Any:
    """The totals dataclass ``kind`` again from a recorded game's fields."""
    known = {f.name for f in dataclasses.fields(kind)}
    unknown = set(fields) - known
    if unknown:
        raise ResultsError(f"a recorded game has fields this code does not know: {', '.join(sorted(unknown))}")
    return kind(**fields)
