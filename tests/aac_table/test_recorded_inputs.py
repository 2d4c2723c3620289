"""Recognition replayed from recorded inputs: a soak's readings, events and answers fed to a recogniser
that starts, as the soak's did, at a committed position with nothing pending.

Some problems need the evidence the controller gathered over a turn, so a saved game position does not
bring them back (the players' hands, and the questions asked, take other ways from there). The inputs
that reached the controller do: the recogniser is pure, and the same inputs give the same verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import rules
from rules.aac.state import AacState
from rules.aac.table_view import AacTableView
from rules.core.api import Action
from rules.core.physical import MomentaryEvent
from rules.core.recogniser import Recogniser
from sim.soak.games import wiring_for

DATA = Path(__file__).parent / "data"


def _readings(data: dict[str, Any]) -> dict[str, object]:
    return {unit: tuple(value) if isinstance(value, list) else value for unit, value in data.items()}


def _replayed(name: str, fidelity: str) -> tuple[Recogniser, int]:
    """The recogniser after every recorded input, and the length of the committed history it began with."""
    data = json.loads((DATA / name).read_text())
    game = rules.load("aac")
    start = game.state_from_json(data["state"])
    assert isinstance(start, AacState)
    recogniser = Recogniser(game, start.clone(), AacTableView(start.cat, wiring_for(fidelity).specs()))
    readings = _readings(data["readings"])
    first = recogniser.observe(readings)
    assert first.in_sync and not first.pending  # (the position the recording began at)
    for seq, entry in enumerate(data["inputs"]):
        if "changed" in entry:
            readings = {**readings, **_readings(entry["changed"])}
            recogniser.observe(readings)
        elif "event" in entry:
            recogniser.event(MomentaryEvent(seq, entry["event"]["location"], entry["event"]["kind"]))
        else:
            prompt = recogniser.prompt
            assert prompt is not None, f"input {seq}: the recorded player answered a question not asked here"
            recogniser.answer(prompt.id, entry["answer"])
    return recogniser, len(start.history)


def test_a_character_lifted_and_put_back_takes_the_lines_kept_before_it_up_again() -> None:
    """"Redoing actions" (p. 34: the players put the table back) and REPOSITION (p. 16), presence seed 619, 5
    players, turn 113. Rusné moved her Wild from the Gate and then the one from the Forge into the unsensed
    Tile Pool, deployed her Magnet into the Library's space 2, then lifted her character towards the
    Library's fork and put it back. Only lines that completed the Library's section (her Wild into space 2,
    the Magnet into space 1, the character moved as its reward) explained the character in her hand; their
    first decisions were committed and her turn's lines dropped. Back where it stood, the table was read
    afresh from there: her Wild into space 2 and the Magnet into the pool were committed, and turn 114 began
    from a position never reached. Once the table is back as it was, the lines kept then are taken up again,
    past the decisions committed since, and the snapshots in between (what was put right) tell nothing
    against them; Rusné is asked where her Wild went (the recording holds her answer, the pool)."""
    recogniser, began = _replayed("presence_character_lifted_to_the_fork_and_put_back.json", "presence")
    committed = [action for _, action in recogniser.state.history[began:]]
    assert committed.count(Action("place", ("wild", "pool"))) == 2
    assert Action("place", ("magnet", "mon:library:2")) in committed
    assert Action("place", ("wild", "mon:library:2")) not in committed
    assert Action("place", ("magnet", "pool")) not in committed
