"""The HAL's backends as the service's table adapters.

``hal`` exposes ``open_backend(BackendConfig)`` returning a backend with
``start(on_snapshot, on_event)``, ``show(frame)``, ``status()`` and ``stop()``.
``HalTable`` turns its callbacks into inputs on the core's inbox, so the HAL's
worker thread never touches the game. ``open_table`` builds one from ``[hal]``.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any, Protocol

from firmware_bridge.config import Config
from firmware_bridge.service.inputs import EventInput, InputSink, SnapshotInput
from firmware_bridge.service.seams import GameContext
from rules.core.physical import LedFrame, MomentaryEvent, Snapshot

log = logging.getLogger("aetherlink.hal")


class HalBackend(Protocol):
    """The shape of ``hal.Backend`` (kept structural so this module does not depend on HAL internals)."""

    def start(self, on_snapshot: Callable[[Snapshot], None],
              on_event: Callable[[MomentaryEvent], None]) -> None: ...

    def stop(self) -> None: ...

    def show(self, frame: LedFrame) -> None: ...

    def status(self) -> Any: ...

    def settling(self, handled_seq: int, since: float) -> bool: ...


class HalTable:
    """Adapts a HAL backend to ``TableAdapter``."""

    def __init__(self, backend: HalBackend):
        self.backend = backend

    def start(self, inputs: InputSink) -> None:
        self.backend.start(lambda snapshot: inputs(SnapshotInput(snapshot)),
                           lambda event: inputs(EventInput(event)))

    def show(self, frame: LedFrame) -> None:
        self.backend.show(frame)

    def stop(self) -> None:
        self.backend.stop()

    def settling(self, handled_seq: int, since: float) -> bool:
        return self.backend.settling(handled_seq, since)

    def healthy(self) -> bool:
        """The HAL answers. Unplugged devices are reported in ``status``, not treated as a stall:
        restarting the service would not plug them back in."""
        try:
            self.backend.status()
        except Exception:  # a HAL that cannot even report its status is stuck
            log.exception("the HAL does not answer")
            return False
        return True


def open_table(config: Config, context: GameContext) -> HalTable:
    """Build the HAL for ``[hal]`` (backends ``mcu`` and ``gpio``)."""
    from hal import BackendConfig, HalSettings, open_backend

    h = config.hal
    defaults = HalSettings()
    stabiliser = dataclasses.replace(defaults.stabiliser, quiet_window=h.quiet_ms / 1000,
                                     agree_scans=h.agreeing_scans)
    settings = dataclasses.replace(defaults, stabiliser=stabiliser)
    backend = open_backend(BackendConfig(wiring=h.wiring or "", ports=dict(h.ports), settings=settings))
    return HalTable(backend)
