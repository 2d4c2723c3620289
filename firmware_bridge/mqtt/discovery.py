"""Home Assistant MQTT discovery: the board appears as a device with its entities.

Entities read the retained state topic with value templates, so Home Assistant
needs nothing but the discovery messages. Per-seat score sensors follow the
game in play: a new game with fewer seats removes the extra sensors (an empty
retained config, as Home Assistant specifies).
"""

from __future__ import annotations

import json
from typing import Any

from firmware_bridge.mqtt.topics import Topics

MAX_SEATS = 16


def _device(topics: Topics, board_name: str, version: str) -> dict[str, Any]:
    return {"identifiers": [f"aetherlink_{topics.board}"], "name": board_name, "manufacturer": "Aetherlink",
            "model": "Aetherlink board controller", "sw_version": version}


def messages(topics: Topics, board_name: str, version: str, seats: list[str],
             previous_seats: int) -> list[tuple[str, bytes]]:
    """(topic, retained payload) pairs that describe the board to Home Assistant."""
    device = _device(topics, board_name, version)
    common = {"availability_topic": topics.availability, "payload_available": "online",
              "payload_not_available": "offline", "state_topic": topics.state, "device": device,
              "origin": {"name": "Aetherlink", "sw_version": version}}
    board = topics.board
    entities: list[tuple[str, str, dict[str, Any]]] = [
        ("sensor", "turn", {
            "name": "Whose turn", "icon": "mdi:account-clock",
            "value_template": "{{ value_json.turn.name if value_json.turn and value_json.turn.name "
                              "else 'none' }}",
            "json_attributes_topic": topics.state,
            "json_attributes_template": "{{ {'seat': value_json.turn.seat if value_json.turn else none, "
                                        "'phase': value_json.turn.phase if value_json.turn else none, "
                                        "'turn': value_json.turn.number if value_json.turn else none} "
                                        "| tojson }}"}),
        ("sensor", "game", {
            "name": "Game", "icon": "mdi:cards-playing",
            "value_template": "{{ value_json.game.title if value_json.game else 'none' }}"}),
        ("binary_sensor", "out_of_sync", {
            "name": "Out of sync", "device_class": "problem",
            "value_template": "{{ 'OFF' if value_json.sync.in_sync else 'ON' }}"}),
    ]
    for index, name in enumerate(seats):
        entities.append(("sensor", f"score_{index}", {
            "name": f"Score seat {index + 1} ({name})", "icon": "mdi:trophy", "state_class": "measurement",
            "value_template": f"{{{{ value_json.seats[{index}].score if value_json.seats | length > {index} "
                              f"else none }}}}"}))
    out = []
    for component, object_id, specific in entities:
        payload = {**common, **specific, "unique_id": f"aetherlink_{board}_{object_id}",
                   "default_entity_id": f"{component}.aetherlink_{board}_{object_id}"}
        out.append((topics.discovery(component, object_id), json.dumps(payload).encode()))
    for index in range(len(seats), max(previous_seats, len(seats))):
        out.append((topics.discovery("sensor", f"score_{index}"), b""))
    return out
