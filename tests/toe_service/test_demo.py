"""Issue 9's acceptance: ``aetherlink demo --game toe --players 3 --seed 7 --headless --json`` plays a whole
simulated game through the whole stack with a virtual clock (the service keeps time), and prints the same
summary fields as the An Age Contrived demo. Run with ``--transport direct`` to stay well under 90 s on an idle
machine; the time allowed is wider because the game's clock runs faster than real time only while the machine keeps
up (240 s was passed twice on 2 cores at a load average of 16, a service soak beside the suite)."""

from __future__ import annotations

from tests.demo.test_demo import FIELDS, demo

AAC_FIELDS = FIELDS | {"options", "winners", "illegal_recovered", "prompts", "notes", "snapshots",
                       "settle_timeouts", "wall_seconds"}


def test_a_whole_time_of_empires_game_through_the_service_with_its_clock():
    result, out = demo("--game", "toe", "--players", "3", "--seed", "7", "--headless", "--json",
                       "--transport", "direct", timeout=600)
    assert set(result) >= AAC_FIELDS | {"time_events", "cues", "pauses"}
    assert [result[k] for k in ("game", "players", "seed", "transport")] == ["toe", 3, 7, "direct"]
    assert result["cues"] == 12  # three ages: gong, baby's cry twice, gong
    assert result["time_events"] > 100 and result["pauses"] == 1  # every sand timer ran out on the service's clock
    assert result["decisions"] > 300
    assert result["illegal_injected"] == 3 and result["illegal_flagged"] == 3
    assert result["false_rejections"] == 0 and result["desyncs"] == 0, result["notes"]
    assert result["notes"] == []
    assert result["mqtt_messages"] > result["decisions"]
    assert result["winner"] in {s["name"] for s in result["scores"]}
    assert result["clock_seconds"] > 3 * 540  # three 9-minute ages of game time, faster than real time
    assert result["wall_seconds"] < result["clock_seconds"]
    assert "mosquitto_sub -h 127.0.0.1 -p" in out
