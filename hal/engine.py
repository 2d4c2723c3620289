"""The HAL's core: source inputs in, stable snapshots and momentary events out.

Pure and clocked (``now`` is always passed in), so it is tested without
threads or sleeps; ``hal.backend`` runs it on a thread for the service.
"""

from __future__ import annotations

from hal.inputs import Confirmed, Edge, Readings, Ready, SourceInput, Watermark
from hal.momentary import MomentaryFilter
from hal.settings import HalSettings
from hal.stabiliser import Stabiliser
from hal.wiring.loader import WiringMap
from rules.core.physical import LocationKind, MomentaryEvent, Snapshot


class TableEngine:
    def __init__(self, wiring: WiringMap, settings: HalSettings, watermarked: frozenset[str] = frozenset()):
        state: dict[str, str] = {}
        self.filters: dict[str, tuple[str, MomentaryFilter]] = {}
        for loc in wiring.file.locations:
            if loc.channel is None:
                continue
            if loc.kind in (LocationKind.MOMENTARY, LocationKind.BUTTON):
                self.filters[loc.id] = (loc.channel.device, MomentaryFilter(loc.id, loc.kind, settings.momentary))
            else:
                state[loc.id] = loc.channel.device
        self.stabiliser = Stabiliser(state, settings.stabiliser)
        self.watermarks: dict[str, float] = {source: float("-inf") for source in watermarked}
        self.snapshot_seq = 0
        self.event_seq = 0
        self.last_snapshot: Snapshot | None = None
        self._held: list[tuple[float, str, str]] = []  # (when, location, kind): events waiting for a snapshot
        self._lost_source = False  # a source went out of reach since the last snapshot

    def handle(self, item: SourceInput, now: float) -> None:
        if isinstance(item, Readings):
            self.stabiliser.update(item.source, item.readings, now)
        elif isinstance(item, Confirmed):
            self.stabiliser.confirm(item.source, item.scan, now if item.t is None else min(now, item.t))
        elif isinstance(item, Ready):
            self.stabiliser.set_ready(item.source, item.ready, now, item.scan_period)
            self._lost_source = self._lost_source or not item.ready
        elif isinstance(item, Edge):
            entry = self.filters.get(item.location)
            if entry is not None and entry[0] == item.source:
                entry[1].edge(item.level, item.t)
        elif isinstance(item, Watermark) and item.source in self.watermarks:
            self.watermarks[item.source] = max(self.watermarks[item.source], item.t)

    def poll(self, now: float) -> list[Snapshot | MomentaryEvent]:
        """What is due at ``now``, in the order it happened.

        An event (a seat button, a slider pull) that came after a change still settling is reported
        after the snapshot that shows the change: "end of turn" right after the last token is placed
        is judged on the table with that token. The wait is bounded by ``max_unsettled``."""
        for location, (source, flt) in self.filters.items():
            for t, kind in flt.poll(min(now, self.watermarks.get(source, now))):
                self._held.append((t, location, kind))
        self._held.sort()
        out: list[Snapshot | MomentaryEvent] = []
        out.extend(self._events_due(now))
        table = self.stabiliser.poll(now)
        if table is not None:
            self.snapshot_seq += 1
            # unwatched: a board was out of reach, or a reading went and came back before any snapshot
            # could show it (``Stabiliser.unseen``): what the table did meanwhile left no trace
            unwatched = self._lost_source or bool(self.stabiliser.unseen)
            self.last_snapshot = Snapshot(self.snapshot_seq, table, unwatched=unwatched)
            self._lost_source = False
            self.stabiliser.unseen.clear()
            out.append(self.last_snapshot)
            out.extend(self._events_due(now))
        return out

    def confirmations_wanted(self, now: float) -> list[str]:
        """Sources to ask for a confirmation now: a snapshot due by the clock waits only for them."""
        return self.stabiliser.unconfirmed(now)

    def _events_due(self, now: float) -> list[MomentaryEvent]:
        """The held events that no unreported change came before (or that waited ``max_unsettled``)."""
        pending = self.stabiliser.pending_since()
        limit = self.stabiliser.settings.max_unsettled
        events: list[MomentaryEvent] = []
        while self._held:
            t, location, kind = self._held[0]
            if pending is not None and t >= pending and now - t < limit:
                break  # this one and all later ones wait for the snapshot
            self._held.pop(0)
            self.event_seq += 1
            events.append(MomentaryEvent(self.event_seq, location, kind))
        return events

    def next_deadline(self) -> float | None:
        times = [t for t in (f.next_deadline() for _, f in self.filters.values()) if t is not None]
        stab = self.stabiliser.next_deadline()
        if stab is not None:
            times.append(stab)
        if self._held:
            times.append(self._held[0][0] + self.stabiliser.settings.max_unsettled)
        return min(times) if times else None
