"""Byte-level faults for a simulated serial link: corrupted bytes, noise bytes, lost and damaged frames."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field


@dataclass
class LinkFaults:
    corrupt_rate: float = 0.0  # chance that any one byte is changed
    noise_rate: float = 0.0  # chance, per byte, that a random byte is inserted before it
    drop_frame_rate: float = 0.0  # chance that a whole frame (up to its 0x00) vanishes
    corrupt_frame_rate: float = 0.0  # chance that a frame gets one byte changed


@dataclass
class FaultCounters:
    bytes: int = 0
    corrupted: int = 0
    inserted: int = 0
    frames_dropped: int = 0
    frames_corrupted: int = 0
    overflow: int = 0  # bytes lost because the other side was not reading


@dataclass
class FaultInjector:
    """Applies ``LinkFaults`` to one direction of a byte stream."""

    faults: LinkFaults
    rng: random.Random
    counters: FaultCounters = field(default_factory=FaultCounters)
    _until_corrupt: int = -1
    _until_noise: int = -1

    def _gap(self, rate: float) -> int:
        """Bytes until the next fault: a geometric draw, so cost is per fault, not per byte."""
        if rate >= 1:
            return 0
        scale = math.log1p(-rate) if rate > 0 else 0.0
        if scale == 0.0:
            return 1 << 62
        return int(min(math.log1p(-self.rng.random()) / scale, float(1 << 62)))

    def apply(self, data: bytes) -> bytes:
        f = self.faults
        if not data:
            return data
        self.counters.bytes += len(data)
        if f.drop_frame_rate or f.corrupt_frame_rate:
            data = self._frames(data)
        if not (f.corrupt_rate or f.noise_rate):
            return data
        out = bytearray(data)
        if f.corrupt_rate:
            if self._until_corrupt < 0:
                self._until_corrupt = self._gap(f.corrupt_rate)
            i = self._until_corrupt
            while i < len(out):
                out[i] ^= self.rng.randint(1, 255)
                self.counters.corrupted += 1
                i += 1 + self._gap(f.corrupt_rate)
            self._until_corrupt = i - len(out)
        if f.noise_rate:
            if self._until_noise < 0:
                self._until_noise = self._gap(f.noise_rate)
            i = self._until_noise
            inserts: list[int] = []
            while i < len(out):
                inserts.append(i)
                i += 1 + self._gap(f.noise_rate)
            self._until_noise = i - len(out)
            for pos in reversed(inserts):
                out.insert(pos, self.rng.randint(0, 255))
                self.counters.inserted += 1
        return bytes(out)

    def _frames(self, data: bytes) -> bytes:
        f = self.faults
        parts = data.split(b"\x00")
        for n, part in enumerate(parts):
            if not part:
                continue
            r = self.rng.random()
            if r < f.drop_frame_rate:
                self.counters.frames_dropped += 1
                parts[n] = b""
            elif r < f.drop_frame_rate + f.corrupt_frame_rate:
                chunk = bytearray(part)
                chunk[self.rng.randrange(len(chunk))] ^= self.rng.randint(1, 255)
                parts[n] = bytes(chunk)
                self.counters.frames_corrupted += 1
        return b"\x00".join(parts)
