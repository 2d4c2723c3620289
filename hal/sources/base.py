"""What every channel source offers the HAL backend."""

from __future__ import annotations

from typing import Protocol

from hal.inputs import Sink
from hal.status import DeviceStatus
from rules.core.physical import LedFrame


class Source(Protocol):
    id: str
    watermarked: bool  # True when it sends Watermark inputs for its edges (time travels over a link)
    status: DeviceStatus

    def start(self, sink: Sink) -> None: ...

    def stop(self) -> None: ...

    def show(self, frame: LedFrame) -> None:
        """Render the targets of ``frame`` that this source drives (absent targets: off)."""
        ...

    def request_confirmation(self) -> None:
        """Confirm a scan as soon as it can (a board: a heartbeat out of turn), because a stable snapshot
        waits only for that. Sources that confirm every scan at once have nothing to do."""
        ...
