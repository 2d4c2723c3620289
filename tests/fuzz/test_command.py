"""``aetherlink fuzz``: the smoke run of every target, the JSON it prints, and that it catches what it should."""

from __future__ import annotations

import json
import subprocess
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import strategies as st

from firmware_bridge.cli import main
from firmware_bridge.commands import fuzz as command
from firmware_bridge.fuzzing import TARGETS, target
from firmware_bridge.fuzzing.base import ExampleTimeout, Target, require, time_limit
from firmware_bridge.fuzzing.runner import run_target


@pytest.mark.parametrize("name", list(TARGETS))
def test_smoke_run_of_each_target_finds_nothing_new(name):
    result = run_target(target(name), seconds=1.5, seed=1, shrink_seconds=10)
    assert result.examples > 0
    new = [f for f in result.failures if f.known is None]
    assert not new, "\n\n".join(f"{f.error}\ninput: {f.input}\n{f.traceback}" for f in new)


def test_the_command_prints_json_per_target_on_its_last_line(capsys):
    code = main(["fuzz", "serial", "notation-toe", "--seconds", "0.5", "--json", "--in-process"])
    out = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(out[-1])
    assert code == (1 if summary["failures"] else 0)
    assert set(summary["targets"]) == {"serial", "notation-toe"}
    for result in summary["targets"].values():
        assert result["examples"] > 0 and result["seconds"] > 0 and isinstance(result["failures"], list)


def test_unknown_targets_are_refused(capsys):
    assert main(["fuzz", "nope", "--seconds", "0.1"]) == 2
    assert "unknown target" in capsys.readouterr().err


# A planted bug: the runner must find it, shrink it to the minimal input and report it.
def _planted_open() -> Any:
    @contextmanager
    def opened() -> Any:
        def check(example: tuple[int, str]) -> None:
            number, text = example
            require(number < 1000 or "x" not in text, f"planted bug for {number} and {text!r}")

        yield check

    return opened()


PLANTED = Target("planted", "a check with a planted bug", lambda: st.tuples(st.integers(), st.text()), _planted_open)


def test_the_runner_finds_and_shrinks_a_planted_bug():
    result = run_target(PLANTED, seconds=20, seed=3, shrink_seconds=20, max_examples=5000)
    assert len(result.failures) == 1, result.failures
    assert result.failures[0].input == "(1000, 'x')" and "planted bug" in result.failures[0].error


def test_a_hang_is_reported_as_a_timeout():
    with pytest.raises(ExampleTimeout), time_limit(0.2):
        while True:
            pass


def test_a_crashed_child_is_reported_with_its_last_input(monkeypatch, capsys):
    def crash(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        path = cmd[cmd.index("--last-input") + 1]
        with open(path, "w", encoding="utf-8") as f:
            f.write("'[' * 60000")
        return subprocess.CompletedProcess(cmd, -11, "", "Fatal Python error: Segmentation fault")

    monkeypatch.setattr(command.subprocess, "run", crash)
    assert main(["fuzz", "wiring", "--seconds", "1", "--json"]) == 1
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    failure = summary["targets"]["wiring"]["failures"][0]
    assert failure["error"] == "the fuzzing process crashed (signal 11)" and failure["input"] == "'[' * 60000"
    assert summary["new_failures"] == 1
