"""Player-facing words of Time of Empires, as translatable messages.

Message ids are the English texts of ``Msg("...")`` calls (extracted by ``aetherlink i18n``);
French is in ``rules/toe/locale/fr/LC_MESSAGES/messages.po``.
"""

from __future__ import annotations

from rules.core.messages import Msg

SPACE_NAMES: dict[str, Msg] = {
    "ideas": Msg("Produce Ideas"),
    "bricks": Msg("Produce Bricks"),
    "deploy": Msg("Deploy Clans"),
    "move": Msg("Move Clans"),
    "discover": Msg("Discover a Technology"),
    "construct": Msg("Construct a Building"),
    "tech1": Msg("the first Technology board"),
    "tech2": Msg("the second Technology board"),
    "leader1": Msg("the first Leader column"),
    "leader2": Msg("the second Leader column"),
    "leader3": Msg("the third Leader column"),
    "leader4": Msg("the Bonus Leader column"),
    "wonders": Msg("the Wonder board"),
}


def space_name(space: str) -> Msg:
    return SPACE_NAMES.get(space) or Msg("{space}", space=space)


QUESTIONS: dict[str, Msg] = {
    "first_clan": Msg("Place your first Clan on a territory of your Capital tile."),
    "bonus": Msg("Place this age's Construction bonus token on a section of your Player board."),
    "act": Msg("Place a sand timer on an Action space."),
    "scholars": Msg("How many Scholars do you create?"),
    "deploy": Msg("Deploy a Clan on your Capital or a City you occupy, or stop."),
    "move": Msg("Move a group of Clans, or stop."),
    "discover": Msg("Choose a Technology card from your hand to discover, or stop."),
    "construct": Msg("Choose a construction site for the building, or stop."),
    "park": Msg("Move the building waiting on your Discovery space to a construction site."),
    "draw": Msg("Choose the Technology deck to draw from, or stop."),
    "draw_to_four": Msg("Choose the Technology deck to draw from, or stop."),
    "wonder": Msg("Choose the Wonder to place a Scholar on."),
    "leader": Msg("Choose a Leader effect tile to place a Scholar on, or stop."),
    "copy": Msg("Choose the Leader effect tile whose effect you copy, or stop."),
    "gain": Msg("Choose the resources you gain."),
    "destroy": Msg("Choose a territory next to a City you occupy to destroy everything on it, or stop."),
    "raid": Msg("Choose a group of Clans and the adjacent territory it moves to, or stop."),
    "land": Msg("Choose a territory and how many Clans to deploy there, or stop."),
    "shift": Msg("Choose a sand timer and the Action slot to move it to, or stop."),
    "siege": Msg("You won the siege of {city}: place a Clan there?"),
    "clock": Msg("Waiting for the age clock."),
    "chance": Msg("Waiting for a card or tile to be revealed."),
}
