"""Player-facing words of Time of Empires, as translatable messages (gettext domain ``toe``)."""

from __future__ import annotations

from typing import Any

from rules.core.messages import Msg

DOMAIN = "toe"


def msg(text: str, **params: Any) -> Msg:
    """A message in the ``toe`` domain: English text as id, ``{name}`` placeholders."""
    return Msg(text, DOMAIN, **params)


SPACE_NAMES: dict[str, Msg] = {
    "ideas": msg("Produce Ideas"),
    "bricks": msg("Produce Bricks"),
    "deploy": msg("Deploy Clans"),
    "move": msg("Move Clans"),
    "discover": msg("Discover a Technology"),
    "construct": msg("Construct a Building"),
    "tech1": msg("the first Technology board"),
    "tech2": msg("the second Technology board"),
    "leader1": msg("the first Leader column"),
    "leader2": msg("the second Leader column"),
    "leader3": msg("the third Leader column"),
    "leader4": msg("the Bonus Leader column"),
    "wonders": msg("the Wonder board"),
}


def space_name(space: str) -> Msg:
    return SPACE_NAMES.get(space) or msg("{space}", space=space)


QUESTIONS: dict[str, Msg] = {
    "first_clan": msg("Place your first Clan on a territory of your Capital tile."),
    "bonus": msg("Place this age's Construction bonus token on a section of your Player board."),
    "act": msg("Place a sand timer on an Action space."),
    "scholars": msg("How many Scholars do you create?"),
    "deploy": msg("Deploy a Clan on your Capital or a City you occupy, or stop."),
    "move": msg("Move a group of Clans, or stop."),
    "discover": msg("Choose a Technology card from your hand to discover, or stop."),
    "construct": msg("Choose a construction site for the building, or stop."),
    "park": msg("Move the building waiting on your Discovery space to a construction site."),
    "draw": msg("Choose the Technology deck to draw from, or stop."),
    "draw_to_four": msg("Choose the Technology deck to draw from, or stop."),
    "wonder": msg("Choose the Wonder to place a Scholar on."),
    "leader": msg("Choose a Leader effect tile to place a Scholar on, or stop."),
    "copy": msg("Choose the Leader effect tile whose effect you copy, or stop."),
    "gain": msg("Choose the resources you gain."),
    "destroy": msg("Choose a territory next to a City you occupy to destroy everything on it, or stop."),
    "raid": msg("Choose a group of Clans and the adjacent territory it moves to, or stop."),
    "land": msg("Choose a territory and how many Clans to deploy there, or stop."),
    "shift": msg("Choose a sand timer and the Action slot to move it to, or stop."),
    "siege": msg("You won the siege of {city}: place a Clan there?"),
    "clock": msg("Waiting for the age clock."),
    "chance": msg("Waiting for a card or tile to be revealed."),
}
