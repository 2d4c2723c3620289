"""Player-facing messages in English and French (gettext catalogues)."""

from __future__ import annotations

import rules
from firmware_bridge.commands.i18n import status
from tests.aac.scenario import GAME, new


def test_every_rules_message_has_a_french_translation():
    report = {k: v for k, v in status().items() if k.startswith("rules/")}
    assert report == {}


def test_refusal_reasons_render_in_french_with_translated_terms():
    st = new(3)
    try:
        st.apply(GAME.parse("exhaust 1 bottom wild"))
    except rules.IllegalAction as exc:
        assert exc.reason("en") == "There is no Wild energy in the bottom row of position 1."
        assert exc.reason("fr") == "Il n'y a pas d'énergie Primordiale dans la partie inférieure du compartiment 1."
    else:
        raise AssertionError("accepted")


def test_decision_questions_render_in_french():
    st = new(3)
    assert st.decision()["question"].render("fr").startswith("Aureon : faites avancer votre chaîne")


def test_french_edition_names_come_from_its_catalogue():
    st = new(3, options={"edition": "fr"})
    assert st.cat.monument["forge"].name == "La Forge de Namarillion"
    assert st.cat.pillar["mathematics"].name == "Mathématiques"
