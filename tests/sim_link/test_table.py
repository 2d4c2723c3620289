import pytest

from sim.table import AacTable, TableError, demo_setup, token_kind


@pytest.fixture
def table():
    t = AacTable()
    demo_setup(t)
    return t


def test_demo_setup_is_physically_consistent(table):
    tokens = [tok for loc in table.contents.values() for tok in loc]
    assert sum(1 for t in tokens if token_kind(t) == "energy") == 105
    assert table.tokens("aureon.board.channel") == ("channel:aureon:exhausted",)


def test_pulling_the_slider_ejects_the_top_row(table):
    top = [t for k in (1, 2, 3) for t in table.tokens(f"ignotas.dev.p2.top{k}")]
    changes = []
    table.subscribe(changes.append)
    fallen = table.pull_slider("ignotas", 2)
    assert sorted(fallen) == sorted(top) and top
    assert all(not table.tokens(f"ignotas.dev.p2.top{k}") for k in (1, 2, 3))
    assert sorted(table.tokens("ignotas.dev.front")) == sorted(top)
    assert changes[-1].levels == (("ignotas.dev.p2.slider", 1),)
    table.release_slider("ignotas", 2)
    assert changes[-1].levels == (("ignotas.dev.p2.slider", 0),)


def test_sliding_a_tile_in_pushes_the_channel_with_its_energy(table):
    before = {p: (table.tokens(f"rusne.dev.p{p}.tile"), table.tokens(f"rusne.dev.p{p}.bot1")) for p in range(1, 6)}
    table.add("rusne:wild", "rusne.dev.p5.top2")
    entering = table.tokens("rusne.dev.in2.tile")
    exhausted = len(table.tokens("rusne.board.exhausted"))
    left = table.slide_tile_in("rusne", 2, "rusne.board.exhausted")
    assert table.tokens("rusne.dev.p1.tile") == entering
    for p in range(1, 5):
        assert (table.tokens(f"rusne.dev.p{p + 1}.tile"), table.tokens(f"rusne.dev.p{p + 1}.bot1")) == before[p]
    assert table.tokens("rusne.dev.in2.tile") == (left,) == before[5][0]
    assert len(table.tokens("rusne.board.exhausted")) == exhausted + 1
    assert table.tokens("rusne.dev.p1.action") == ("action:rusne.1",)  # action tokens stay put


def test_flip_move_swap_and_reserve(table):
    assert table.flip_channel("freyith") == "charged"
    assert table.tokens("freyith.board.channel") == ("channel:freyith:charged",)
    table.move_miniature("aureon", "beacon.3")
    assert "mini:aureon" in table.tokens("board.map.beacon.3")
    pool, dev = table.tokens("board.pool.t1"), table.tokens("aureon.dev.p4.tile")
    table.swap_tile("board.pool.t1", "aureon.dev.p4.tile")
    assert (table.tokens("board.pool.t1"), table.tokens("aureon.dev.p4.tile")) == (dev, pool)
    table.take_from_reserve("aureon:rose", "aureon.board.exhausted")
    assert table.tokens("board.reserve").count("aureon:rose") == 1


def test_impossible_manipulations_change_nothing(table):
    truth = table.truth()
    version = table.version
    with pytest.raises(TableError, match="full"):
        table.move("aureon.dev.p1.tile", "aureon.dev.p2.tile")
    with pytest.raises(TableError, match="does not take"):
        table.move("aureon.board.exhausted", "aureon.dev.p5.conduit")
    with pytest.raises(TableError, match="no location"):
        table.move("aureon.board.exhausted", "nowhere")
    with pytest.raises(TableError, match="nothing to lift"):
        table.lift("aureon.dev.p5.top1")
    with pytest.raises(TableError, match="not a slider"):
        table.set_level("aureon.dev.p1.tile", 1)
    with pytest.raises(TableError):
        table.slide_tile_in("aureon", 3, "aureon.board.exhausted")  # there is no inactive space 3
    assert table.truth() == truth and table.version == version


def test_a_slow_hand_holds_a_token_between_lift_and_place(table):
    token = table.lift("multanec.dev.p1.top1")
    assert table.hand() == (token,)
    assert not table.tokens("multanec.dev.p1.top1")
    table.place(token, "board.pool")
    assert table.hand() == ()
    with pytest.raises(TableError, match="not in hand"):
        table.place(token, "board.pool")
