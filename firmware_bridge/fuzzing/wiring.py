"""Target ``wiring``: the wiring-map loader (``hal/wiring/loader.py: parse_wiring_map``).

Inputs are the shipped maps, cut down to two locations of every kind of
wiring (so an example parses in milliseconds) with structural mutations,
damaged text of a whole shipped map, and random or hostile YAML. Contract
(docs/wiring-map.md): a ``WiringMap`` whose lookups work, or ``WiringMapError``
whose issues each name the path of the offending key (or say what is wrong
with the whole file); never another exception, never a crash.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import yaml
from hypothesis import strategies as st

from firmware_bridge.fuzzing.base import Check, Target, require
from firmware_bridge.fuzzing.catalogue import HOSTILE, dump
from firmware_bridge.fuzzing.mutate import NASTY_WORDS, damaged_text, json_values, mutated
from hal.wiring.errors import WiringMapError
from hal.wiring.loader import SHIPPED, WiringMap, parse_wiring_map

MAPS = ("aac-5p", "aac-5p-presence", "aac-5p-mixed")


@cache
def shipped_text(name: str) -> str:
    return (SHIPPED / f"{name}.yaml").read_text(encoding="utf-8")


@cache
def sampler(name: str) -> dict[str, Any]:
    """The shipped map with two locations per (kind, fidelity, sensor, bus, led?) wiring, and all devices."""
    data = yaml.load(shipped_text(name), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    buses = {d["id"]: d["bus"] for d in data["devices"]}
    seen: dict[tuple[Any, ...], int] = {}
    kept = []
    for loc in data["locations"]:
        channel = loc.get("channel") or {}
        key = (loc["kind"], loc["fidelity"], channel.get("sensor"), buses.get(channel.get("device")), "led" in loc)
        if seen.get(key, 0) < 2:  # two of each, so that mutations can make them collide
            seen[key] = seen.get(key, 0) + 1
            kept.append(loc)
    return {**data, "locations": kept}


def inputs() -> st.SearchStrategy[str]:
    small = st.sampled_from(MAPS).flatmap(lambda n: mutated(sampler(n)))
    return st.one_of(
        small.map(dump), small.map(dump), small.map(dump),
        st.sampled_from(MAPS).flatmap(lambda n: damaged_text(dump(sampler(n)))),
        st.sampled_from(MAPS).flatmap(lambda n: damaged_text(shipped_text(n), max_edits=2)),
        json_values().map(dump), st.text(max_size=200), st.sampled_from(HOSTILE), st.sampled_from(NASTY_WORDS),
        st.just("[" * 60000),
    )


_NAMED = re.compile(r"`|YAML|top level")


def check_map(text: str) -> None:
    try:
        wiring = parse_wiring_map(text, "fuzz.yaml")
    except WiringMapError as exc:
        require(exc.source == "fuzz.yaml" and str(exc).startswith("fuzz.yaml"), f"error names no file: {exc}")
        require(bool(exc.issues), "WiringMapError without issues")
        for path, message in exc.issues:
            require(isinstance(path, str) and isinstance(message, str) and bool(message), f"bad issue {path!r}")
            require(bool(path) or _NAMED.search(message) is not None, f"an issue that names no path: {message!r}")
        return
    require(isinstance(wiring, WiringMap), f"parse_wiring_map returned {type(wiring).__name__}")
    # A map that loads must be usable by the HAL and the simulator.
    specs = wiring.specs()
    require(len(specs) == len(wiring.locations), "duplicate location ids in a map that loaded")
    for device in wiring.devices:
        wiring.sensed_on(device)
    _ = wiring.led_of, wiring.seat_leds, wiring.mcu_devices(), wiring.gpio_devices()


@contextmanager
def _open() -> Iterator[Check]:
    yield check_map


TARGETS = [Target("wiring", "wiring-map files (hal/wiring/loader.py)", inputs, _open, per_example=10.0)]
