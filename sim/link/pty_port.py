"""A simulated USB serial device: a pseudo-terminal pair plus a stable symlink to its slave end.

The HAL opens the symlink (as it would ``/dev/serial/by-id/...``) with real
pyserial. Unplugging closes the pty and removes the symlink; replugging makes
a new pty and points the symlink at it, like a device re-enumerating. Faults
are applied to the bytes in both directions.
"""

from __future__ import annotations

import errno
import os
import random
import tty
from pathlib import Path

from sim.link.faults import FaultInjector, LinkFaults


class VirtualPort:
    def __init__(self, link_path: Path, faults: LinkFaults | None = None, seed: int = 0):
        self.link_path = Path(link_path)
        rng = random.Random(seed)
        faults = faults or LinkFaults()
        self.to_host = FaultInjector(faults, random.Random(rng.random()))
        self.to_device = FaultInjector(faults, random.Random(rng.random()))
        self.master: int | None = None
        self.slave: int | None = None

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def plug(self) -> None:
        if self.master is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo or line editing before the host configures the port
        os.set_blocking(master, False)
        self.master, self.slave = master, slave
        self.link_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.link_path.with_name(self.link_path.name + ".new")
        if tmp.is_symlink() or tmp.exists():
            tmp.unlink()
        tmp.symlink_to(os.ttyname(slave))
        os.replace(tmp, self.link_path)

    def unplug(self) -> None:
        if self.link_path.is_symlink():
            self.link_path.unlink()
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None

    def read(self) -> bytes:
        """Bytes the host sent (after faults); empty when none or unplugged."""
        if self.master is None:
            return b""
        chunks = []
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except BlockingIOError:
                break
            except OSError as exc:
                if exc.errno in (errno.EIO, errno.EAGAIN):
                    break
                raise
            if not chunk:
                break
            chunks.append(chunk)
        return self.to_device.apply(b"".join(chunks))

    def write(self, data: bytes) -> None:
        """Send bytes to the host (after faults); what does not fit in the pty buffer is lost."""
        if self.master is None or not data:
            return
        data = self.to_host.apply(data)
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.master, view)
            except BlockingIOError:
                self.to_host.counters.overflow += len(view)
                return
            except OSError as exc:
                if exc.errno == errno.EIO:
                    return
                raise
            view = view[n:]
