"""The fast path for momentary channels: debounced slider pulls and button presses.

Raw edges (level, time) go in; an edge counts once the new level has held
for ``debounce`` seconds, so contact bounce and glitches shorter than that
produce nothing. A button held for ``long_press`` seconds also reports
``long_press``. Time may be capped by a *watermark* (the latest time up to
which the source guarantees all its edges were delivered), so an edge still
in flight can never be mistaken for a level that held.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.physical import LocationKind


@dataclass(frozen=True)
class MomentarySettings:
    debounce: float = 0.02
    long_press: float = 1.0


class MomentaryFilter:
    def __init__(self, location: str, kind: LocationKind, settings: MomentarySettings | None = None):
        self.location = location
        self.button = kind is LocationKind.BUTTON
        self.settings = settings or MomentarySettings()
        self.stable = 0
        self.pending = 0
        self.pending_since = 0.0
        self.pressed_at = 0.0
        self.long_sent = True
        self._out: list[tuple[float, str]] = []  # (when it happened, kind)

    def edge(self, level: int, t: float) -> None:
        self._advance(t)
        level = 1 if level else 0
        if level != self.pending:
            self.pending = level
            self.pending_since = t

    def poll(self, now: float) -> list[tuple[float, str]]:
        """Events confirmed up to ``now`` as (time of the edge, kind), oldest first."""
        self._advance(now)
        out, self._out = self._out, []
        return out

    def _advance(self, t: float) -> None:
        s = self.settings
        if self.pending != self.stable and t - self.pending_since >= s.debounce:
            self.stable = self.pending
            if self.button:
                if self.stable:
                    self._out.append((self.pending_since, "press"))
                    self.pressed_at = self.pending_since
                    self.long_sent = False
            else:
                self._out.append((self.pending_since, "pull" if self.stable else "release"))
        if self.button and self.stable and not self.long_sent and t - self.pressed_at >= s.long_press:
            self._out.append((self.pressed_at + s.long_press, "long_press"))
            self.long_sent = True

    def next_deadline(self) -> float | None:
        if self.pending != self.stable:
            return self.pending_since + self.settings.debounce
        if self.button and self.stable and not self.long_sent:
            return self.pressed_at + self.settings.long_press
        return None
