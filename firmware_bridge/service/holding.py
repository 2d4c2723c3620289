"""An end of turn waits for the table it ends.

A seat's end of turn (the ``end_turn`` command, or the seat button) says "what the
table shows is my whole turn". At two moments the core would judge it on the wrong
table:

- after a start, before the HAL's first snapshot: moves made while the service was
  down are not read yet;
- right after the turn's last change, while the HAL is still settling it, or while
  the reading is still on its way from a board: a player (or an app) quicker than
  the quiet window. The HAL orders its own button events after such a change; a
  command comes over MQTT and needs this wait (until every board has reported a
  scan after the command came, and nothing is settling).

The end of turn then waits, and so does every input after it (they were meant after
it), but ``status``, which changes nothing. The wait is bounded: a table that is not
read in time does not stop the game.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge.service.inputs import CommandInput, EventInput, Input, SnapshotInput, Stop, Tick

log = logging.getLogger("aetherlink.core")

START_HOLD_S = 5.0  # how long inputs wait for the table to be read after a start (then they go on)
SETTLE_HOLD_S = 4.0  # how long an end of turn waits for a change the HAL is settling (it reports within 3 s)
POLL_S = 0.02  # how often the core looks again while something waits

# (seq of the last snapshot the core handled, time.monotonic() of the end of turn) -> the table may have a change
# the core has not seen yet (settling in the HAL, reported but not handled, or still on its way from a board)
Settling = Callable[[int, float], bool]


def never_settling(handled_seq: int, since: float) -> bool:
    return False


@dataclass
class TableWait:
    """Decides which inputs wait for the table, and when they go on (the core handles them in order)."""

    clock: Callable[[], float]
    settling: Settling = never_settling
    table_started: bool = False  # a table feeds snapshots (set by the service when it starts the HAL)
    table_read: bool = False  # the core has handled a snapshot since the start
    held: list[Input] = field(default_factory=list)
    _since: float = 0.0
    _said_at: float = 0.0  # time.monotonic() when the held end of turn came (the HAL's clock)
    _reason: str = ""
    _start_over: bool = False  # the start's wait ended (read or timed out): it does not come back

    def hold(self, item: Input, handled_seq: int) -> bool:
        """Keep ``item`` for later (True), or let the core handle it now."""
        if isinstance(item, SnapshotInput | Tick | Stop):
            return False
        if self.held:
            if isinstance(item, CommandInput) and item.name == "status":
                return False
            self.held.append(item)
            return True
        ends_turn = isinstance(item, CommandInput) and item.name == "end_turn"
        if self.table_started and not self.table_read and not self._start_over and (
                ends_turn or isinstance(item, EventInput)):
            self._begin(item, "start", "until the table is read")
            return True
        if ends_turn and self.settling(handled_seq, time.monotonic()):
            self._begin(item, "settle", "until the table is read after it")
            return True
        return False

    def due(self, handled_seq: int) -> list[Input]:
        """The held inputs, once what they wait for happened or took too long; else nothing."""
        if not self.held:
            return []
        waited = self.clock() - self._since
        if self._reason == "start":
            if not self.table_read and waited < START_HOLD_S:
                return []
            self._start_over = True
            if not self.table_read:
                log.warning("the table was not read within %.0f s of the start: going on without it",
                            START_HOLD_S)
        elif self.settling(handled_seq, self._said_at) and waited < SETTLE_HOLD_S:
            return []
        elif waited >= SETTLE_HOLD_S:
            log.warning("the table's last change was not read within %.0f s: ending the turn without it",
                        SETTLE_HOLD_S)
        held, self.held = self.held, []
        # (at a HAL table every end of turn waits a few milliseconds for the boards: not worth an INFO line)
        log.log(logging.INFO if self._reason == "start" else logging.DEBUG,
                "handling %d held input(s) after %.3f s", len(held), waited)
        return held

    def wait_s(self, otherwise: float) -> float:
        """How long the core may wait for input: short while something is held."""
        return min(otherwise, POLL_S) if self.held else otherwise

    def _begin(self, item: Input, reason: str, why: str) -> None:
        self.held.append(item)
        self._since = self.clock()
        self._said_at = time.monotonic()
        self._reason = reason
        log.log(logging.INFO if reason == "start" else logging.DEBUG, "holding %s %s",
                "a table event" if isinstance(item, EventInput) else "an end of turn", why)
