"""Fixtures for every test."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _collector_as_it_was() -> Iterator[None]:
    """A test that steps through a sim table game and stops part-way leaves the garbage collector off
    (``hal.collector.PacedCollection``, until the game's ``close``): put it back for the next test."""
    was_enabled = gc.isenabled()
    yield
    if was_enabled and not gc.isenabled():
        gc.collect()
        gc.enable()
