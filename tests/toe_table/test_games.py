"""Whole simulated Time of Empires games through the table's sensors and the recogniser.

The players (the truth) play in real time on a virtual clock, faster than real time; the
service side is the recogniser fed by the simulated sensors plus the timekeeper, whose time
events (the cues at 0, 3, 6 and 9 minutes, each sand timer's 30 s, pause and resume) reach
the recogniser through ``external`` and the players alike. Rulebook, "Game play": 'this phase
is played in real time and lasts exactly 9 minutes'; 'At minute 3 and 6 ... a Scholar creation'.
"""

from __future__ import annotations

import pytest

from sim.soak.toe import Options, SoakTotals, ToeTableGame, VirtualClock, soak, wiring_for


def clean(summary: dict[str, object]) -> None:
    for counter in ("false_rejections", "missed_illegal", "desyncs", "truth_mismatches"):
        assert summary[counter] == 0, (counter, summary)


@pytest.mark.slow
def test_two_real_time_games_with_mistakes():
    totals = soak(2, [2, 3], "identity", seed=7, mistake_rate=0.05)
    summary = totals.summary()
    clean(summary)
    assert summary["games"] == 2 and summary["mistakes_injected"] > 0
    assert summary["mistakes_flagged"] == summary["mistakes_recovered"] == summary["mistakes_injected"]
    assert summary["time_events"] > 2 * 3 * 4  # at least the four cues of each age, plus run-outs
    assert summary["verdicts"] > summary["decisions"]


def test_the_ages_follow_the_timekeepers_clock():
    """Three ages of 9 minutes: the virtual clock ends past 27 minutes plus the time nobody could act."""
    totals = SoakTotals()
    game = ToeTableGame(2, 3, wiring_for("identity"), None, totals, Options(pause=0.01))
    game.play()
    clean(totals.summary())
    assert game.truth.state.is_terminal() and game.service_state().is_terminal()
    cues = [a.args[0] for _, a in game.truth.state.history if a.kind == "cue"]
    assert cues == [0, 180, 360, 540] * 3
    assert game.clock.now() >= 3 * 540
    assert totals.pauses >= 1


def test_an_age_of_initiation_game_has_no_time_events():
    """Age of Initiation: 'you do not need to flip them over' and rounds replace the soundtrack."""
    totals = soak(1, [2], "identity", seed=11, options={"initiation": True}, mistake_rate=0.0)
    clean(totals.summary())
    assert totals.time_events == 0


def test_an_unknown_fidelity_is_refused_clearly():
    with pytest.raises(ValueError, match="no Time of Empires wiring map for fidelity 'presence'"):
        wiring_for("presence")


def test_the_virtual_clock_can_keep_the_pace_of_a_real_table():
    """The service's clock is injectable: players play in real time, or that many times faster."""
    slept: list[float] = []
    clock = VirtualClock(pace=60.0, sleep=slept.append)
    clock.advance_to(30.0)
    clock.advance_to(10.0)  # never backwards
    assert clock.now() == 30.0 and slept == [0.5]


def test_a_seat_telling_done_while_another_hand_is_in_the_air_is_not_asked_about():
    """Regression (4 players, seed 188): red deployed and told "done" while orange still held a Clan.
    The recogniser kept "red deployed, then done" and "red done" (the table was mid-move), and asked
    red to choose between them although red could still act: a question nobody could answer right,
    then a refusal of the next legal move. In real time a seat that can still act is not asked;
    the next snapshot tells the explanations apart."""
    totals = SoakTotals()
    ToeTableGame(4, 188, wiring_for("identity"), None, totals, Options(mistake_rate=0.005)).play()
    clean(totals.summary())


def test_a_time_of_empires_run_goes_on_from_its_results_file(monkeypatch: pytest.MonkeyPatch, tmp_path):
    """``soak games --game toe --results FILE``: as for An Age Contrived, a run started again plays only the
    games not in the file (the run's line holds the players' behaviour, tuples and all, and must match)."""
    played: list[int] = []

    def play(self: ToeTableGame) -> None:
        played.append(1)
        self.totals.games += 1
        self.totals.decisions += 10

    monkeypatch.setattr(ToeTableGame, "play", play)
    kept = tmp_path / "toe.jsonl"
    soak(1, [2], "identity", 5, results=kept)
    totals = soak(3, [2], "identity", 5, results=kept)
    assert (len(played), totals.games, totals.decisions) == (3, 3, 30)
