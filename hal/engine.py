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

    def handle(self, item: SourceInput, now: float) -> None:
        if isinstance(item, Readings):
            self.stabiliser.update(item.source, item.readings, now)
        elif isinstance(item, Confirmed):
            self.stabiliser.confirm(item.source, item.scan, now)
        elif isinstance(item, Ready):
            self.stabiliser.set_ready(item.source, item.ready)
        elif isinstance(item, Edge):
            entry = self.filters.get(item.location)
            if entry is not None and entry[0] == item.source:
                entry[1].edge(item.level, item.t)
        elif isinstance(item, Watermark) and item.source in self.watermarks:
            self.watermarks[item.source] = max(self.watermarks[item.source], item.t)

    def poll(self, now: float) -> tuple[list[Snapshot], list[MomentaryEvent]]:
        due: list[tuple[float, str, str]] = []
        for location, (source, flt) in self.filters.items():
            for t, kind in flt.poll(min(now, self.watermarks.get(source, now))):
                due.append((t, location, kind))
        events: list[MomentaryEvent] = []
        for _, location, kind in sorted(due):  # in the order they happened, across sources
            self.event_seq += 1
            events.append(MomentaryEvent(self.event_seq, location, kind))
        snapshots: list[Snapshot] = []
        table = self.stabiliser.poll(now)
        if table is not None:
            self.snapshot_seq += 1
            self.last_snapshot = Snapshot(self.snapshot_seq, table)
            snapshots.append(self.last_snapshot)
        return snapshots, events

    def next_deadline(self) -> float | None:
        times = [t for t in (f.next_deadline() for _, f in self.filters.values()) if t is not None]
        stab = self.stabiliser.next_deadline()
        if stab is not None:
            times.append(stab)
        return min(times) if times else None
