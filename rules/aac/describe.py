"""What is being decided now, in words a player understands (for prompts and the web page)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.api import CHANCE, TERMINAL
from rules.core.messages import Msg

if TYPE_CHECKING:
    from rules.aac.state import AacState

QUESTIONS = {
    "turn": "{name}: ADVANCE (slide a tile into position 1) or take ACTIONS (exhaust a bottom-row energy)",
    "adv.slide2": "{name}: slide your other inactive tile in as well (exhausting your channel marker), or not",
    "adv.conduit": "{name}: which conduit movement to generate first",
    "adv.load": "{name}: load the tile(s) that entered your Device, then end your turn",
    "acts": "{name}: take another action, or end your turn",
    "use": "{name}: which action the exhausted energy activates",
    "more": "{name}: take the token's other action, or stop",
    "deploy": "{name}: which tile(s) to deploy",
    "place": "{name}: where to place the energy in your hand",
    "movesel": "{name}: move your character, on the Monument Track or on the Pillar Track",
    "char": "{name}: move your character ({left} space(s) left), bind from a track, or stop",
    "bridge": "{name}: take the bridge token's benefit?",
    "track": "{name}: move on the {track} track ({left} left), bind, or stop",
    "repos": "{name}: which of your energy to reposition ({left} left), or stop",
    "claim": "{name}: which tiles to claim and which tile-pool energy pays for them",
    "claimed": "{name}: which of your tiles the claimed tile replaces",
    "reveal": "which tile is revealed into the tile pool",
    "gift": "{name}: place an energy into the tile pool?",
    "magnet": "{name}: which empty slot the activated Magnet loads",
    "gain": "{name}: which energy to gain from the reserve",
    "bplace": "{name}: where to place your bridge token, and which side up",
    "upgrade": "{name}: which upgraded action token to take",
    "conduit": "{name}: which conduit token to take, and into which space",
    "anymb": "{name}: which monument benefit token to copy",
    "end.completions": "{name}: which completed monument section to resolve next",
    "end.patron": "{name}: construct a monument section with your patron token?",
    "contrib": "{name}: gain the energy or the benefit, and exhaust or activate your energy in the section",
    "replenish": "{name}: which tile to replenish, then load it",
}


def describe_decision(st: AacState) -> dict[str, Any]:
    if not st.frames:
        return {"player": TERMINAL, "step": "game_over", "question": Msg("The game is over.")}
    f = st.frames[-1]
    t = f["t"]
    key = t
    if t == "adv":
        key = f"adv.{f['stage']}"
    elif t == "end":
        key = "end.completions" if f["stage"].startswith("completions") else "end.patron"
    player = CHANCE if t == "reveal" else f["p"]
    name = st.cat.character[st.players[player].char].name if player >= 0 else ""
    text = QUESTIONS.get(key, "{name}: decide")
    params = {"name": name, "left": f.get("left", ""), "track": f.get("track", "")}
    return {"player": player, "step": key, "question": Msg(text, **{k: v for k, v in params.items()
                                                                      if "{" + k + "}" in text})}
