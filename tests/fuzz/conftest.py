"""Fixtures for the fuzz tests: each target's check, letting through only bugs listed in ``known.py``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from firmware_bridge.fuzzing import target
from firmware_bridge.fuzzing.base import time_limit
from firmware_bridge.fuzzing.known import known_bug


def fuzz_settings(examples: int) -> Any:
    """Hypothesis settings for a suite-sized run: no database (the examples differ per run), no deadline
    (the per-example bound is ``Target.per_example``, enforced by ``time_limit``)."""
    return settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


def checked(name: str) -> Iterator[Callable[[Any], None]]:
    """The target's check under its time bound; an exception that is a known, reported bug passes."""
    t = target(name)
    with t.open() as check:

        def run(example: Any) -> None:
            try:
                with time_limit(t.per_example, f"{name} example"):
                    check(example)
            except Exception as exc:
                if known_bug(name, exc) is None:
                    raise

        yield run


@pytest.fixture(scope="module")
def serial_check() -> Iterator[Callable[[Any], None]]:
    yield from checked("serial")


@pytest.fixture(scope="module")
def mqtt_check() -> Iterator[Callable[[Any], None]]:
    yield from checked("mqtt")


@pytest.fixture(scope="module")
def config_check() -> Iterator[Callable[[Any], None]]:
    yield from checked("config")


@pytest.fixture(scope="module")
def catalogue_aac_check() -> Iterator[Callable[[Any], None]]:
    yield from checked("catalogue-aac")


@pytest.fixture(scope="module")
def catalogue_toe_check() -> Iterator[Callable[[Any], None]]:
    yield from checked("catalogue-toe")


@pytest.fixture(scope="module")
def wiring_check() -> Iterator[Callable[[Any], None]]:
    yield from checked("wiring")


@pytest.fixture(scope="module")
def notation_aac_check() -> Iterator[Callable[[Any], None]]:
    yield from checked("notation-aac")


@pytest.fixture(scope="module")
def notation_toe_check() -> Iterator[Callable[[Any], None]]:
    yield from checked("notation-toe")
