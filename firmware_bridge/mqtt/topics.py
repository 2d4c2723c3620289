"""The topic layout of one board, in one place (documented in ``docs/mqtt.md``).

Everything a board publishes or listens to lives under ``<base>/<board_id>/``,
so many boards share a broker without colliding and a broker ACL can grant a
board or a user exactly its subtree.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Topics:
    base: str
    board: str
    discovery_prefix: str = "homeassistant"

    @property
    def root(self) -> str:
        return f"{self.base}/{self.board}"

    @property
    def availability(self) -> str:
        return f"{self.root}/availability"

    @property
    def state(self) -> str:
        return f"{self.root}/state"

    @property
    def leds(self) -> str:
        return f"{self.root}/leds"

    def event(self, kind: str) -> str:
        return f"{self.root}/event/{kind}"

    @property
    def requests(self) -> str:
        """The subscription for commands (deeper levels are answered as unknown commands)."""
        return f"{self.root}/request/#"

    def request(self, command: str) -> str:
        return f"{self.root}/request/{command}"

    def response(self, command: str) -> str:
        return f"{self.root}/response/{command}"

    def command_of(self, topic: str) -> str | None:
        """``<root>/request/new_game`` -> ``new_game``; other topics -> None."""
        prefix = f"{self.root}/request/"
        return topic[len(prefix):] if topic.startswith(prefix) and len(topic) > len(prefix) else None

    @property
    def discovery_status(self) -> str:
        """Home Assistant's birth/last-will topic: on ``online`` discovery is sent again."""
        return f"{self.discovery_prefix}/status"

    def discovery(self, component: str, object_id: str) -> str:
        return f"{self.discovery_prefix}/{component}/aetherlink_{self.board}/{object_id}/config"
