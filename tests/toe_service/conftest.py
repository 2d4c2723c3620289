"""A real mosquitto per test (tests/fixtures) and services wired to it on a virtual clock."""

from __future__ import annotations

from tests.fixtures.mosquitto import mosquitto  # noqa: F401 - fixture
