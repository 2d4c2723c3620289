"""``aetherlink fuzz``: run the fuzz targets (docs/fuzzing.md) for a time budget each and report.

Each target runs in a child process of its own (``--in-process`` runs them
here), so a crash in native code (a segfault in a C extension) is reported
with the input that caused it instead of ending the run. The last line of
output is JSON: per target the examples run, the failures (each with the
minimal input hypothesis shrank it to, and ``known`` when it is a reported,
not yet fixed bug), and the seconds taken. Exit status 1 when anything failed.
Needs hypothesis (a development dependency: ``pip install -e .[dev]``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from firmware_bridge.cli import Command


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    from firmware_bridge.fuzzing import TARGETS

    parser.add_argument("targets", nargs="*", metavar="TARGET", help=f"targets to run (default: all): "
                                                                     f"{', '.join(TARGETS)}")
    parser.add_argument("--seconds", type=float, default=30.0, help="time budget per target (default 30)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first hypothesis round (default 0)")
    parser.add_argument("--shrink-seconds", type=float, default=None,
                        help="extra time to shrink a failure (default: half the budget, at least 5 s)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON on the last line")
    parser.add_argument("--list", action="store_true", help="list the targets and exit")
    parser.add_argument("--in-process", action="store_true", help="run the targets in this process")
    parser.add_argument("--last-input", type=Path, default=None, help=argparse.SUPPRESS)


def _child(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run one target in a child process; a crash becomes a failure naming the last input it was given."""
    shrink = args.shrink_seconds if args.shrink_seconds is not None else max(5.0, args.seconds / 2)
    with tempfile.TemporaryDirectory(prefix="aetherlink-fuzz-") as folder:
        last = Path(folder) / "last-input.txt"
        command = [sys.executable, "-m", "firmware_bridge", "fuzz", name, "--in-process", "--json",
                   "--seconds", str(args.seconds), "--seed", str(args.seed), "--last-input", str(last)]
        if args.shrink_seconds is not None:
            command += ["--shrink-seconds", str(args.shrink_seconds)]
        limit = args.seconds + shrink + 120
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=limit, check=False)
            code, out, err = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as exc:
            code, out, err = None, "", f"still running after {limit:.0f} s: {exc}"
        lines = [line for line in out.splitlines() if line.startswith("{")]
        if code in (0, 1) and lines:
            result: dict[str, Any] = json.loads(lines[-1])["targets"][name]
            return result
        what = "timed out" if code is None else (f"crashed (signal {-code})" if code < 0 else f"exited {code}")
        found = last.read_text(encoding="utf-8") if last.exists() else "(none yet)"
        return {"examples": None, "seconds": None, "failures": [{
            "error": f"the fuzzing process {what}", "input": found, "where": "?", "known": None,
            "traceback": err[-3000:]}]}


def _run(args: argparse.Namespace) -> int:
    from firmware_bridge.fuzzing import TARGETS, target

    if args.list:
        for name in TARGETS:
            print(f"{name:15} {target(name).about}")
        return 0
    names = args.targets or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        print(f"aetherlink fuzz: unknown target(s) {', '.join(unknown)} (targets: {', '.join(TARGETS)})",
              file=sys.stderr)
        return 2
    results: dict[str, dict[str, Any]] = {}
    for name in names:
        if args.in_process:
            from firmware_bridge.fuzzing.runner import run_target

            results[name] = run_target(target(name), args.seconds, args.seed, shrink_seconds=args.shrink_seconds,
                                       last_input=args.last_input).to_json()
        else:
            results[name] = _child(name, args)
        result = results[name]
        failures = result["failures"]
        print(f"{name}: {result['examples']} examples in {result['seconds']} s, {len(failures)} failure(s)",
              file=sys.stderr if args.json else sys.stdout)
        for failure in failures:
            tag = f" [known: {failure['known']}]" if failure.get("known") else ""
            print(f"  FAIL{tag} {failure['error']}\n    at {failure['where']}\n    input: {failure['input'][:2000]}",
                  file=sys.stderr if args.json else sys.stdout)
    total = sum(len(r["failures"]) for r in results.values())
    new = sum(1 for r in results.values() for f in r["failures"] if not f.get("known"))
    summary = {"seconds_per_target": args.seconds, "seed": args.seed, "failures": total, "new_failures": new,
               "targets": results}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{total} failure(s), {new} not known before")
    return 1 if total else 0


COMMANDS = [
    Command(
        name="fuzz",
        help="Fuzz every untrusted input (serial frames, MQTT commands, config, catalogues, wiring maps, "
             "move notation) for a time budget each; report failures with minimal inputs.",
        add_arguments=_add_arguments,
        run=_run,
    )
]
