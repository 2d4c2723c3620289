"""Synthetic catalogues: the shipped data edited to exercise one mechanic exactly."""

from __future__ import annotations

from rules.aac.catalogue import packaged_text, parse_catalogue
from rules.aac.game import AacGame
from rules.aac.state import AacState
from tests.aac.scenario import done, seat


def edited_catalogue(*replacements: tuple[str, str]):
    text, _ = packaged_text("en")
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return parse_catalogue(text, "synthetic.yaml")


def rusne_example_map_game() -> AacGame:
    """The Library region gets one more space (library.far) before its broken path to the Gate."""
    cat = edited_catalogue(
        ("    - {id: library.west, region: library}\n",
         "    - {id: library.west, region: library}\n    - {id: library.far, region: library}\n"),
        ("    - [library.east, bp.library-gate]\n",
         "    - [library.east, library.far]\n    - [library.far, bp.library-gate]\n"),
    )
    return AacGame({"en": cat})


def rusne_example_state() -> AacState:
    """Rusné at the fork (coming from library.a), Multanec beside her, Freyith further on; 3 movement."""
    game = rusne_example_map_game()
    st = game.new_game(players=3, seed=1, setup={
        "characters": ["rusne", "freyith", "multanec"], "monuments": ["library", "gate", "forge"],
        "start_player": 0,
        "neutral_bridges": {"bp.library-beacon": "n1", "bp.gate-beacon": "n2", "bp.forge-beacon": "n3",
                            "bp.fortress-beacon": "n4"},
    })
    ru, fr, mu = seat(st, "rusne"), seat(st, "freyith"), seat(st, "multanec")
    st.players[ru].space, st.players[ru].came_from = "library.fork", "library.a"
    st.players[fr].space, st.players[fr].came_from = "library.far", "library.east"
    st.players[mu].space, st.players[mu].came_from = "library.fork", "library.a"
    st.frames[-1:] = [{"t": "char", "p": ru, "left": 3, "skip": False, "src": "action"}]
    return done(st)
