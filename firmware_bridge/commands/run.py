"""``aetherlink run``: the long-running service on the real table (what systemd starts).

Exit codes follow sysexits so systemd can tell a crash (restart) from a problem
a restart cannot fix (``RestartPreventExitStatus=65 78``): 78 configuration
error, 65 corrupt journal, 74 journal I/O error, 69 broker could not be started.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from types import FrameType

from firmware_bridge.broker import BrokerError
from firmware_bridge.cli import Command
from firmware_bridge.config import ConfigError, load_config
from firmware_bridge.journal import JournalCorrupt, JournalError

EX_DATAERR = 65
EX_UNAVAILABLE = 69
EX_IOERR = 74
EX_CONFIG = 78


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="configuration file (default: $AETHERLINK_CONFIG, "
        "then /etc/aetherlink/config.toml, else built-in defaults)",
    )
    parser.add_argument("--check-config", action="store_true", help="check the configuration and exit")
    parser.add_argument(
        "--log-level", default=os.environ.get("AETHERLINK_LOG", "INFO"), choices=["DEBUG", "INFO", "WARNING", "ERROR"]
    )


def setup_logging(level: str) -> None:
    """Plain lines on stderr; under systemd the journal adds time stamps, so we do not."""
    under_systemd = bool(os.environ.get("INVOCATION_ID") or os.environ.get("NOTIFY_SOCKET"))
    fmt = "%(levelname)s %(name)s: %(message)s" if under_systemd else "%(asctime)s %(levelname)s %(name)s: %(message)s"
    logging.basicConfig(level=level, format=fmt, stream=sys.stderr)


def _run(args: argparse.Namespace) -> int:
    from firmware_bridge.memory import freeze_long_lived
    from firmware_bridge.service.app import Service, with_broker

    setup_logging(args.log_level)
    try:
        loaded = load_config(args.config)
    except ConfigError as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return EX_CONFIG
    if args.check_config:
        print(
            f"configuration OK ({loaded.source}"
            f"{'; overrides: ' + ', '.join(loaded.overrides) if loaded.overrides else ''})"
        )
        return 0
    try:
        choice = with_broker(loaded.config)
    except BrokerError as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return EX_UNAVAILABLE
    try:
        if choice.embedded is not None:
            print(
                f"embedded MQTT broker on {choice.embedded.host}:{choice.embedded.port}; watch it with:\n  "
                f"{choice.embedded.hint(loaded.config.mqtt.base_topic)}",
                flush=True,
            )
        try:
            if choice.config.hal.backend != "none":
                from firmware_bridge.service import recognition

                recognition.install(choice.config)  # sensed table: moves come from the recogniser
            from firmware_bridge.service import timing_probe

            probe = timing_probe.from_environ(choice.config)  # None unless a benchmark asks for it
            service = Service(choice.config)

            def on_signal(signum: int, frame: FrameType | None) -> None:
                service.stop_from_signal()

            # (before start: "online" is published during it, and a SIGTERM right after, as a test's or
            # systemd's stop, killed the process without its shutdown; a Stop queued now ends ``run``)
            signal.signal(signal.SIGTERM, on_signal)
            signal.signal(signal.SIGINT, on_signal)
            service.start()
            if probe is not None:
                probe.attach(service.core)
            logging.getLogger("aetherlink").info("%d long-lived objects left out of the collector's walks",
                                                 freeze_long_lived())
        except ConfigError as exc:
            print(f"aetherlink: {exc}", file=sys.stderr)
            return EX_CONFIG
        except JournalCorrupt as exc:
            print(f"aetherlink: corrupt journal: {exc}", file=sys.stderr)
            return EX_DATAERR
        except JournalError as exc:
            print(f"aetherlink: journal error: {exc}", file=sys.stderr)
            return EX_IOERR

        try:
            service.run()
        except JournalError as exc:
            logging.getLogger("aetherlink").critical("journal failed, stopping: %s", exc)
            return EX_IOERR
        return 0
    finally:
        if choice.embedded is not None:
            choice.embedded.stop()


COMMANDS = [Command("run", "run the service on this board (the real table)", _add_arguments, _run)]
