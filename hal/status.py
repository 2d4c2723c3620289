"""Health of the HAL and of each device, for the service's status page and MQTT."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class DeviceStatus:
    """Counters and state of one controller (an mcu on serial, the Pi's gpio pins, a virtual one)."""

    id: str
    bus: str
    state: str = "starting"  # starting, connecting, syncing, ready, disconnected, error
    port: str = ""
    session: int | None = None
    firmware: str = ""
    connected: bool = False
    reconnects: int = 0
    link_timeouts: int = 0  # links dropped for silence (not a read error): the device or this host stalled
    resyncs: int = 0
    gaps: int = 0
    frames: int = 0
    frame_errors: int = 0
    message_errors: int = 0
    events: int = 0
    duplicate_events: int = 0
    events_lost_on_device: bool = False
    led_updates: int = 0
    led_retries: int = 0
    heartbeat_requests: int = 0  # heartbeats asked for out of turn: a snapshot waited only for this board
    sensor_faults: int = 0
    last_error: str = ""


@dataclass(frozen=True)
class BackendStatus:
    devices: tuple[DeviceStatus, ...]
    snapshots: int
    events: int
    noisy: tuple[str, ...] = ()  # locations that keep changing and are held at their last stable reading
    last_error: str = ""
    extra: dict[str, int] = field(default_factory=dict)

    @property
    def connected(self) -> list[str]:
        return [d.id for d in self.devices if d.connected]

    @property
    def resyncs(self) -> int:
        return sum(d.resyncs for d in self.devices)

    @property
    def reconnects(self) -> int:
        return sum(d.reconnects for d in self.devices)

    @property
    def link_timeouts(self) -> int:
        return sum(d.link_timeouts for d in self.devices)

    @property
    def ready(self) -> bool:
        return all(d.state == "ready" for d in self.devices)
