"""The rulebook's worked examples, reproduced move by move (An Age Contrived rulebook, 2023)."""

from __future__ import annotations

from tests.aac.scenario import (
    bind,
    clear_device,
    done,
    legal,
    new,
    play,
    put,
    resolve_chance,
    seat,
    set_device,
    to_pool,
    to_section,
)


def test_advance_example_p13():
    """p. 13-14 ADVANCE example: at the start, channel marker exhausted and no conduits: one tile, then load it."""
    st = new(3)
    pl = st.players[0]
    assert not pl.charged  # 3-5 players: exhausted side up (p. 8)
    assert "slide aureon.0a" in legal(st)
    play(st, "slide aureon.0a")
    # step 1: the tiles moved right; tile 5 left the Device (it held no energy)
    assert pl.dev == ["aureon.0a", "aureon.1", "aureon.2", "aureon.3", "aureon.4"]
    # step 2 is skipped (exhausted marker), step 3 too (no conduits): we are loading
    options = legal(st)
    assert all(o.startswith("load 1 ") or o == "pass" for o in options), options
    play(st, "load 1 top compass exhausted", "load 1 bottom rose exhausted", "pass")
    assert pl.rows["aureon.0a"] == [["compass"], ["rose"]]
    # step 5: the tile that exited is now inactive
    assert sorted(pl.inactive) == ["aureon.0b", "aureon.5"]
    assert st.current_player == 1


def _actions_example_state():
    st = new(3)
    s = 0
    set_device(st, s, ["I.2", "II.1", "aureon.3", "aureon.4", "aureon.5"], ["aureon.0a", "aureon.0b"])
    pl = st.players[s]
    pl.tokens[2] = "u3a"  # the upgraded Action Token in position 3 (Deploy 2x from positions 2 and 3)
    put(st, s, 1, "bottom", "rose", "compass")
    put(st, s, 2, "top", "compass", "magnet")
    put(st, s, 2, "bottom", "wild")
    put(st, s, 3, "top", "compass")
    put(st, s, 3, "bottom", "magnet")
    put(st, s, 4, "top", "compass")
    put(st, s, 4, "bottom", "rose")
    return done(st)


def test_actions_example_1a_to_1d_p15():
    """p. 15 ACTIONS example 1A-1D."""
    st = _actions_example_state()
    pl = st.players[0]
    # 1A: exhaust a bottom energy in position 1, Deploy from token 1 (positions 4 or 5): tile 4's top energy
    play(st, "exhaust 1 bottom rose", "use 1 0", "deploy 4", "place compass mon:forge:2")
    assert st.board.mon_spaces["forge"][1] == (0, "compass")
    # 1B: exhaust position 4, Move from token 4, 1 space up the Pillar Track (places an energy in its lowest slot)
    play(st, "exhaust 4 bottom rose", "use 4 0", "move pillar", "track_place pillar wild exhausted")
    assert pl.ptrack == [1, "wild"]
    # 1C: exhaust position 3, Deploy 2x (the only option of upgraded token 3): positions 2 and 3, three energy
    play(st, "exhaust 3 bottom magnet", "use 3 0", "deploy 2", "deploy 3")
    assert st.frames[-1]["t"] == "place" and sum(st.frames[-1]["hand"].values()) == 3
    play(st, "place compass mon:library:1", "place magnet pool", "place compass pool")
    # 1D: the second energy in position 1 activates token 1 again, this time Recharge
    assert not pl.charged
    play(st, "exhaust 1 bottom compass", "use 1 1")
    assert pl.charged
    # position 2 could still take an action, but the player stops
    assert "exhaust 2 bottom wild" in legal(st)
    play(st, "pass")
    assert st.current_player == 1


def test_claim_example_p17():
    """p. 17 Claim example: Ignotas claims a tile for 2 energy; Freyith and Aureon each add an energy to the pool."""
    st = new(3, chars=("ignotas", "freyith", "aureon"))
    ig, fr, au = seat(st, "ignotas"), seat(st, "freyith"), seat(st, "aureon")
    to_pool(st, ig, "rose")
    done(st)
    pool_before = [sum(st.players[s].pool.values()) for s in (fr, au)]
    play(st, "exhaust 2 bottom rose", "use 2 0")
    tile = st.board.pool_tiles[2]  # cost 2 (rulebook p. 17 shows a cost of 2)
    play(st, "claim 3 compass+rose", "replace " + tile + " ignotas.1")
    assert tile in st.players[ig].dev and "ignotas.1" not in st.players[ig].dev
    assert sum(st.players[ig].pool.values()) == 0
    resolve_chance(st)  # the pool slides right and a new tile is revealed
    assert all(t is not None for t in st.board.pool_tiles)
    assert st.current_player == fr
    play(st, "gift magnet exhausted")
    assert st.current_player == au
    play(st, "gift compass exhausted")
    assert [sum(st.players[s].pool.values()) for s in (fr, au)] == [pool_before[0] + 1, pool_before[1] + 1]
    assert st.current_player == ig  # back to Ignotas, still in the ACTIONS turn


def test_forge_completion_example_p19():
    """p. 19 example: Multanec completes the Forge's first section; Freyith contributed a Rose."""
    st = new(3, chars=("multanec", "freyith", "aureon"), monuments=("forge", "library", "gate"))
    mu, fr = seat(st, "multanec"), seat(st, "freyith")
    assert st.cat.monument["forge"].sections[0].spaces == ["rose", "compass", "rose"]
    to_section(st, fr, "forge", 1, "rose")
    set_device(st, mu, ["multanec.1", "multanec.2", "multanec.3", "I.1", "multanec.5"])
    put(st, mu, 1, "bottom", "magnet")
    put(st, mu, 4, "top", "compass", "rose")
    done(st)
    # Multanec places two energy into the exposed Forge section, filling its last empty space
    play(st, "exhaust 1 bottom magnet", "use 1 0", "deploy 4", "place compass mon:forge:2", "place rose mon:forge:3")
    assert st.board.mon_completed["forge"] == mu
    play(st, "pass")  # end of turn: the section is constructed
    # A: Freyith gains the Magnet and Rose depicted on the section, B: then activates her Rose
    assert st.current_player == fr
    reserve = dict(st.players[fr].reserve)
    play(st, "reward energy")
    assert st.players[fr].reserve["magnet"] == reserve["magnet"] - 1
    assert st.players[fr].reserve["rose"] == reserve["rose"] - 1
    play(st, "handle rose activate", "move character", "pass")
    # C: Multanec gains a Conduit Token (the Forge's benefit token in this example)
    st.board.mon_benefit["forge"] = "mb_conduit"
    assert st.current_player == mu
    play(st, "bind_select rose")  # E: select the Rose to bind (decided before exhausting the rest)
    play(st, "reward benefit", "take_conduit boot 1")
    # D: activate the Compass (into the tile pool here)
    play(st, "handle compass activate", "place compass pool")
    assert st.board.mon_bound["forge"] == [(mu, "rose")]
    assert st.board.mon_section["forge"] == 1
    assert st.players[mu].conduits[0] == ("boot", 2)  # the first boot conduit has 2 icons (p. 21)


def test_freyith_achievement_scoring_example_p23():
    """p. 23 example: Freyith scores 8 VP: 2 VP for each of her 4 bound Magnet energy."""
    st = new(3, chars=("freyith", "aureon", "ignotas"))
    fr = seat(st, "freyith")
    clear_device(st, fr)
    pl = st.players[fr]
    pl.reserve["magnet"] -= 1  # she gained one Magnet from the reserve earlier
    pl.exhausted["magnet"] += 1
    bind(st, fr, "ach:boots:left", "magnet")
    bind(st, fr, "mon:forge", "magnet")
    bind(st, fr, "mon:library", "magnet")
    bind(st, fr, "pillar:economics:1", "magnet")
    done(st)
    assert st.scores()["players"][fr]["categories"]["achievements"] == 8


def test_rusne_three_space_movement_example_p24():
    """p. 24 example: Rusné moves 3 spaces, choosing a fork, skipping Freyith, turning around, skipping Multanec."""
    import tests.aac.synthetic as synthetic

    st = synthetic.rusne_example_state()
    ru = seat(st, "rusne")
    pl = st.players[ru]
    assert pl.space == "library.fork"
    play(st, "step library.east")  # 1: chooses the branch at the fork
    play(st, "skip library.far")  # Freyith is there: skip over her (free)
    # beyond her the broken path has no bridge: she turns around
    assert legal(st) == ["step library.east"]
    play(st, "step library.east")  # 2
    play(st, "skip library.fork")  # Multanec is there: skip over him (free)
    play(st, "step bp.library-beacon")  # 3: lands on a Bridge Token
    assert pl.space == "bp.library-beacon" and pl.came_from == "library.fork"
    assert st.frames[-1]["t"] == "bridge"


def test_monument_track_example_p25():
    """p. 25 example: energy in the 3rd slot moves to the highest, binds into the Forge, a new energy enters."""
    st = new(3)
    s = 0
    pl = st.players[s]
    pl.exhausted["rose"] -= 1
    pl.mtrack = [3, "rose"]
    st.board.bridges["bp.forge-beacon"] = (s, 1, "A")
    pl.bridges_left = [2, 3]
    set_device(st, s, ["aureon.1", "aureon.2", "aureon.3", "I.2", "aureon.5"])
    pl.tokens[3] = "u4a"  # Move 2x
    put(st, s, 4, "bottom", "compass")
    done(st)
    play(st, "exhaust 4 bottom compass", "use 4 0", "move monument", "track_up monument")
    assert pl.mtrack == [4, "rose"]
    assert "bind monument forge" in legal(st)
    assert "bind monument gate" not in legal(st)  # neither her character nor a bridge in the Gate's region
    play(st, "bind monument forge", "track_place monument magnet exhausted")
    assert st.board.mon_bound["forge"] == [(s, "rose")]
    assert pl.mtrack == [1, "magnet"]
    assert st.frames[-1]["t"] == "acts"  # both movements spent


def test_pillar_track_example_p26():
    """p. 26 example: 2 movement bring the energy to the top; it is bound later, moving into the Mathematics region."""
    st = new(3)
    s = 0
    pl = st.players[s]
    pl.exhausted["compass"] -= 1
    pl.ptrack = [2, "compass"]
    set_device(st, s, ["aureon.1", "aureon.2", "aureon.3", "I.2", "aureon.5"])
    pl.tokens[3] = "u4a"
    put(st, s, 4, "bottom", "rose", "magnet")
    done(st)
    play(st, "exhaust 4 bottom rose", "use 4 0", "move pillar", "track_up pillar", "track_up pillar")
    assert pl.ptrack == [4, "compass"]
    # not bound yet: nothing of hers is in a region with a free pillar space she may use? she chooses not to
    assert st.frames[-1]["t"] != "track" or "pass" in legal(st)
    if st.frames[-1]["t"] == "track":
        play(st, "pass")
    # later: her character moves into the Ship's region, home of the Mathematics pillar
    pl.space, pl.came_from = "beacon.5", "beacon.4"
    st.board.bridges["bp.ship-beacon"] = (-1, 0, "n3")
    done(st)
    play(st, "exhaust 4 bottom magnet", "use 4 0", "move character", "step bp.ship-beacon")
    if st.frames[-1]["t"] == "bridge":
        play(st, "pass")
    play(st, "step ship.fork")
    assert "bind pillar mathematics.1" in legal(st)
    play(st, "bind pillar mathematics.1")
    assert st.board.pillar_spaces["mathematics"][0] == (s, "compass")


def test_conduit_example_p27():
    """p. 27 example: 3 Boot and 4 Pillar icons align; the Monument tile passed its conduit but does not align."""
    st = new(3)
    s = 0
    pl = st.players[s]
    set_device(st, s, ["aureon.1", "I.2", "aureon.3", "aureon.4", "aureon.5"], ["I.3", "II.3"])
    pl.conduits = [("pillar", 2), ("boot", 1), ("monument", 1), None, None]
    pl.charged = True
    done(st)
    play(st, "slide I.3")  # the Monument tile (I.2) passes under the Monument conduit in position 3
    assert pl.dev[2] == "I.2"
    play(st, "slide II.3")  # the channel marker repeats step 1; I.2 moves on to position 4
    assert not pl.charged
    # step 3: Boot 2+1 = 3 and Pillar 2+2 = 4 align; no Monument movement
    assert sorted(legal(st)) == ["conduit_move boot", "conduit_move pillar"]
    play(st, "conduit_move pillar")
    assert st.frames[-1] == {"t": "track", "p": s, "track": "pillar", "left": 4}
    play(st, "track_place pillar compass exhausted", "track_up pillar", "track_up pillar", "track_up pillar")
    assert pl.ptrack == [4, "compass"]
    play(st, "pass")  # (she could bind now; she keeps it on the track)
    # then the character moves 3 spaces
    assert st.frames[-1]["t"] == "char" and st.frames[-1]["left"] == 3
