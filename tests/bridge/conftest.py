"""Fixtures for the service tests: the test game, a real mosquitto, services wired to it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.config import Config, config_from_dict
from firmware_bridge.service.app import Service
from tests.bridge import testgame
from tests.fixtures.mosquitto import Mosquitto, mosquitto, mosquitto_session  # noqa: F401 - fixtures

testgame.register()

PILE = 12


def merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        out[key] = merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def service_config(tmp_path: Path, board: str = "t1", broker: Mosquitto | None = None,
                   extra: dict[str, Any] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "board": {"id": board, "name": f"Table {board}"},
        "game": {"name": "testgame", "players": 2, "seed": 7, "options": {"pile": PILE}},
        "journal": {"path": str(tmp_path / f"journal-{board}.sqlite")},
        "mqtt": {"reconnect_min_s": 0.1, "reconnect_max_s": 0.5, "keepalive": 5},
    }
    if broker is not None:
        data["mqtt"].update(host=broker.host, port=broker.port)
    else:
        data["mqtt"]["enabled"] = False
    return merge(data, extra or {})


ServiceFactory = Callable[..., Service]


@pytest.fixture
def make_service(tmp_path: Path) -> Iterator[ServiceFactory]:
    """Start in-process services (core in a thread); all are stopped at the end of the test."""
    started: list[Service] = []

    def make(config: dict[str, Any] | Config, **kwargs: Any) -> Service:
        cfg = config if isinstance(config, Config) else config_from_dict(config)
        kwargs.setdefault("interpreter_factory", None)
        kwargs.setdefault("table", None)
        service = Service(cfg, **kwargs)
        service.start()
        service.run_in_thread()
        started.append(service)
        return service

    yield make
    for service in started:
        service.stop()
        service.join()
