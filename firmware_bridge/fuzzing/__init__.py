"""Fuzz targets for every untrusted input of Aetherlink (docs/fuzzing.md).

``TARGETS`` names each target's module; ``target(name)`` imports it (and
hypothesis) only when asked, so the service never loads the fuzzing code.
"""

from __future__ import annotations

import importlib

from firmware_bridge.fuzzing.base import Target

TARGETS: dict[str, str] = {
    "serial": "firmware_bridge.fuzzing.serial",
    "mqtt": "firmware_bridge.fuzzing.mqtt",
    "config": "firmware_bridge.fuzzing.config",
    "catalogue-aac": "firmware_bridge.fuzzing.catalogue",
    "catalogue-toe": "firmware_bridge.fuzzing.catalogue",
    "wiring": "firmware_bridge.fuzzing.wiring",
    "notation-aac": "firmware_bridge.fuzzing.notation",
    "notation-toe": "firmware_bridge.fuzzing.notation",
}


def target(name: str) -> Target:
    """The target called ``name`` (raises ``KeyError`` naming the known ones)."""
    if name not in TARGETS:
        raise KeyError(f"unknown fuzz target {name!r} (targets: {', '.join(TARGETS)})")
    module = importlib.import_module(TARGETS[name])
    found: dict[str, Target] = {t.name: t for t in module.TARGETS}
    return found[name]
