"""What is being decided now, in words a player understands (for prompts and the web page)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.api import CHANCE, TERMINAL
from rules.core.messages import N_, Msg

if TYPE_CHECKING:
    from rules.aac.state import AacState

QUESTIONS = {
    "turn": N_("{name}: ADVANCE (slide a tile into position 1) or take ACTIONS (exhaust a bottom-row energy)"),
    "adv.slide2": N_("{name}: slide your other inactive tile in as well (exhausting your channel marker), or not"),
    "adv.conduit": N_("{name}: which conduit movement to generate first"),
    "adv.load": N_("{name}: load the tile(s) that entered your Device, then end your turn"),
    "acts": N_("{name}: take another action, or end your turn"),
    "use": N_("{name}: which action the exhausted energy activates"),
    "more": N_("{name}: take the token's other action, or stop"),
    "deploy": N_("{name}: which tile(s) to deploy"),
    "place": N_("{name}: where to place the energy in your hand"),
    "movesel": N_("{name}: move your character, on the Monument Track or on the Pillar Track"),
    "char": N_("{name}: move your character ({left} space(s) left), bind from a track, or stop"),
    "bridge": N_("{name}: take the bridge token's benefit?"),
    "track": N_("{name}: move on the {track} track ({left} left), bind, or stop"),
    "repos": N_("{name}: which of your energy to reposition ({left} left), or stop"),
    "claim": N_("{name}: which tiles to claim and which tile-pool energy pays for them"),
    "claimed": N_("{name}: which of your tiles the claimed tile replaces"),
    "reveal": N_("which tile is revealed into the tile pool"),
    "gift": N_("{name}: place an energy into the tile pool?"),
    "magnet": N_("{name}: which empty slot the activated Magnet loads"),
    "gain": N_("{name}: which energy to gain from the reserve"),
    "bplace": N_("{name}: where to place your bridge token, and which side up"),
    "upgrade": N_("{name}: which upgraded action token to take"),
    "conduit": N_("{name}: which conduit token to take, and into which space"),
    "anymb": N_("{name}: which monument benefit token to copy"),
    "end.completions": N_("{name}: which completed monument section to resolve next"),
    "end.patron": N_("{name}: construct a monument section with your patron token?"),
    "contrib": N_("{name}: gain the energy or the benefit, and exhaust or activate your energy in the section"),
    "replenish": N_("{name}: which tile to replenish, then load it"),
    "program": N_("{name}: program your starting energy (expert setup), then set 1 energy aside for the tile pool"),
    "draft": N_("{name}: place a neutral Bridge Token (expert setup draft)"),
    "ability.wild_load_recharge": N_("{name}: recharge your channel marker (Wild energy loaded)?"),
    "ability.wild_arrives_recharge": N_(
        "{name}: recharge your channel marker (Wild energy arrived in position 4 or 5)?"),
    "ability.wild_deploy_extra": N_("{name}: place an energy into the same Monument section as your Wild?"),
    "ability.bind_move_or_recharge": N_("{name}: move your character 1 space or recharge your channel marker?"),
    "ability.gain_aside": N_("{name}: load one of the energy you set aside into an empty slot; the rest is exhausted"),
    "ability.rearrange_energy": N_("{name}: rearrange the energy in your Device?"),
    "ability.place_exhausted": N_("{name}: place an exhausted energy into the tile pool or an Achievement?"),
    "ability.rearrange_conduits": N_("{name}: rearrange your Conduit Tokens?"),
    "ability.move_bound": N_("{name}: move one of your bound energy to your current region?"),
    "ability.winds": N_("{name}: which 2 tiles your Divine Winds Token replenishes"),
}


def describe_decision(st: AacState) -> dict[str, Any]:
    if not st.frames:
        return {"player": TERMINAL, "kind": "game_over", "step": "game_over", "question": Msg("The game is over.")}
    f = st.frames[-1]
    t = f["t"]
    key = t
    if t == "adv":
        key = f"adv.{f['stage']}"
    elif t == "end":
        key = "end.completions" if f["stage"].startswith("completions") else "end.patron"
    elif t == "ability":
        key = f"ability.{f['name']}"
    player = CHANCE if t == "reveal" else f["p"]
    name = st.cat.character[st.players[player].char].name if player >= 0 else ""
    text = QUESTIONS.get(key, "{name}: decide")
    from rules.aac.terms import TRACK_NAMES

    track = f.get("track", "")
    params = {"name": name, "left": f.get("left", ""), "track": Msg(TRACK_NAMES.get(track, track))}
    return {"player": player, "kind": key, "step": key, "question": Msg(text, **{k: v for k, v in params.items()
                                                                      if "{" + k + "}" in text})}
