"""Whole simulated games through the *running* service, with faults at random moments.

The service runs as its own OS process (``aetherlink run --config FILE``); the
broker is a real mosquitto on a free loopback port; the simulated table sits on
the far side of real serial ports (pseudo-terminal pairs, ``sim.link.rig``).
Simulated players (``sim.players.aac.AacTruth``) play An Age Contrived by hand,
end their turns and answer prompts over MQTT, and now and then make a mistake
and put it right. Meanwhile a fault thread, at exponentially distributed
moments, injects one of:

- ``noise``: a burst of corrupted frames and noise bytes on every serial link;
- ``unplug``: one microcontroller's pty closes (the device disappears) and comes back;
- ``broker``: mosquitto is killed and restarted on the same port;
- ``kill``: ``kill -9`` of the service, then a restart that resumes from its journal.

Counted: published-as-accepted moves missing from the journal (``lost_actions``,
checked after every kill and at the end of each game), legal play refused
(``false_rejections``), mistakes not flagged (``missed_illegal``), games whose
final state differs from the truth (``truth_mismatches``), ends of turns where
the service stood elsewhere than the truth (``desyncs``), Tracebacks or
unexpected exits of the service (``crashes``) and journals that ``aetherlink
journal verify`` refuses (``journal_errors``). Any of them makes the exit status 1.

Each game's directory (kept with ``--keep``) holds what it takes to trace a
problem: the service's log, at DEBUG (each snapshot's changes, each accepted
move, each held end of turn); ``soak.log``, what the players and the fault
thread did, with times in the same format; the journal; and a
``problem-N.json`` per problem (the truth's history and the service's state).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import datetime
import itertools
import json
import multiprocessing
import os
import random
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

import rules
from hal.wiring.loader import load_wiring_map
from rules.aac.state import AacState
from rules.core.verdict import NONE_OF_THESE
from sim.judge import Position, differing_paths, fingerprint_of, same_position
from sim.link.faults import LinkFaults
from sim.link.rig import SerialRig
from sim.link.virtual_mcu import fast_timing
from sim.players.aac import AacTruth
from sim.players.memory import PromptMemory
from sim.players.mistakes import MistakeBook
from sim.soak.stopping import Stopped, busy, stop_workers, worker_setup
from sim.table.model import BOX as BOX_HAND

FAULT_KINDS = ("noise", "unplug", "broker", "kill")
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
BOARD = "soak"


class SoakError(RuntimeError):
    """The soak itself could not run (no mosquitto, the service never came up)."""


class WatchError(RuntimeError):
    """No response from the service in time (the broker or the service is away)."""


# -- talking to the service: only over MQTT, as a phone app would (``sim`` does not import the bridge) --------


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False


def broker_from_url(url: str) -> BrokerAddress:
    """``mqtt://[user[:password]@]host[:port]`` or ``mqtts://…``."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts", "tcp", "ssl") or not parts.hostname:
        raise SoakError(f"--mqtt-url: expected mqtt://host[:port] or mqtts://host[:port], got {url!r}")
    tls = parts.scheme in ("mqtts", "ssl")
    return BrokerAddress(parts.hostname, parts.port or (8883 if tls else 1883),
                         unquote(parts.username) if parts.username else None,
                         unquote(parts.password) if parts.password else None, tls)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _outcome(response: Mapping[str, Any]) -> str:
    """A command's response in a few words, for the soak's trace."""
    if response.get("status") != "ok":
        return f"{response.get('code')}: {response.get('error')}"
    data = response.get("data") or {}
    accepted = ", ".join(str(move.get("notation")) for move in data.get("accepted") or [])
    return f"ok, accepted [{accepted}]"


class Watcher:
    """An MQTT client on the board's topics: sends commands, keeps every published move and undo."""

    def __init__(self, broker: BrokerAddress, root: str):
        self.broker = broker
        self.root = root
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self._responses: dict[str, dict[str, Any]] = {}
        self._moves: list[tuple[int, dict[str, Any]]] = []  # (journal seq, action JSON) of every move event
        self._log: list[tuple[str, Any]] = []  # ("move", the move event) and ("undo", count), not yet taken
        self._subscribed = threading.Event()
        self._states = 0  # retained state documents received (the service publishes one on every change)
        self._ids = itertools.count(1)
        self._prefix = f"soak-{secrets.token_hex(3)}"
        self.client = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                                  client_id=f"aetherlink-soak-{secrets.token_hex(4)}")
        if broker.username:
            self.client.username_pw_set(broker.username, broker.password)
        if broker.tls:
            self.client.tls_set()
        # paho annotates whole seconds but sleeps any float: back within half a second of the broker
        self.client.reconnect_delay_set(min_delay=0.05, max_delay=0.5)  # type: ignore[arg-type]
        self.client.on_socket_open = _no_delay
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *args: self._subscribed.set()
        self.client.on_message = self._on_message

    def start(self, timeout: float = 10.0) -> None:
        try:
            self.client.connect(self.broker.host, self.broker.port, keepalive=30)
        except OSError as exc:
            raise SoakError(f"cannot reach the MQTT broker at {self.broker.host}:{self.broker.port}: {exc}") from None
        self.client.loop_start()
        if not self._subscribed.wait(timeout):
            raise SoakError("no subscription on the MQTT broker")

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def request(self, command: str, payload: Mapping[str, Any] | None = None, timeout: float = 2.0
                ) -> dict[str, Any]:
        transaction = f"{self._prefix}-{next(self._ids)}"
        self.client.publish(f"{self.root}/request/{command}",
                            json.dumps({**(payload or {}), "transaction": transaction}), qos=1)
        with self._arrived:
            if not self._arrived.wait_for(lambda: transaction in self._responses, timeout):
                raise WatchError(f"no response to {command!r} within {timeout:.0f} s")
            return self._responses.pop(transaction)

    def moves(self) -> list[tuple[int, dict[str, Any]]]:
        with self._lock:
            return list(self._moves)

    def states_seen(self) -> int:
        with self._lock:
            return self._states

    def wait_state(self, seen: int, timeout: float) -> None:
        """Until a state document newer than the ``seen``-th arrives (the service changed), or ``timeout``."""
        with self._arrived:
            self._arrived.wait_for(lambda: self._states > seen, timeout)

    def take_log(self) -> list[tuple[str, Any]]:
        with self._lock:
            log, self._log = self._log, []
        return log

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any = None
                    ) -> None:
        if not reason.is_failure:
            client.subscribe(f"{self.root}/#", qos=1)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        topic = message.topic
        if topic == f"{self.root}/state":
            with self._arrived:
                self._states += 1
                self._arrived.notify_all()
            return
        if not (topic.startswith(f"{self.root}/event/") or topic.startswith(f"{self.root}/response/")):
            return
        try:
            body = json.loads(message.payload)
        except ValueError:
            return
        if not isinstance(body, dict):
            return
        with self._arrived:
            if topic == f"{self.root}/event/move" and isinstance(body.get("action"), dict):
                if isinstance(body.get("seq"), int):
                    self._moves.append((body["seq"], body["action"]))
                self._log.append(("move", body))
            elif topic == f"{self.root}/event/undo" and isinstance(body.get("count"), int):
                self._log.append(("undo", body["count"]))
            elif topic.startswith(f"{self.root}/response/"):
                transaction = body.get("transaction")
                if isinstance(transaction, str) and transaction.startswith(self._prefix):
                    self._responses[transaction] = body
                    self._arrived.notify_all()


def _no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def journal_actions(path: Path) -> dict[int, dict[str, Any]]:
    """The decisions in a journal (seq -> action JSON), read directly from the SQLite file."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT seq, body FROM entries WHERE kind = 'action' ORDER BY seq").fetchall()
    finally:
        conn.close()
    out = {}
    for seq, body in rows:
        data = json.loads(body)
        if isinstance(data, dict) and isinstance(data.get("action"), dict):
            out[int(seq)] = data["action"]
    return out


def verify_journal(path: Path) -> str | None:
    """``aetherlink journal verify``: the checksum chain and a replay of every game; None when sound."""
    run = subprocess.run([sys.executable, "-m", "firmware_bridge", "journal", "verify", str(path)],
                         capture_output=True, text=True, timeout=120)
    if run.returncode == 0:
        return None
    lines = (run.stdout + run.stderr).strip().splitlines()
    return lines[-1] if lines else f"exit status {run.returncode}"


@dataclass
class ServiceSoakConfig:
    games: int = 100
    seed: int = 0
    players: tuple[int, ...] = (2, 3, 4)
    fault_rate: float = 10.0  # faults per minute of play (was 6 when a decision took 0.3 s of play, not 0.1)
    kinds: tuple[str, ...] = FAULT_KINDS
    mistake_every: int = 150  # a deliberate mistake every this many decisions (0: none)
    max_decisions: int = 0  # stop each game after this many decisions (0: play to the end)
    each_kind: bool = False  # a truncated game goes on until every fault kind was injected at least once
    mqtt_url: str | None = None  # an external broker (then no broker restarts)
    quiet_ms: int = 20
    decision_wait: float = 0.4  # how long to wait for the service to follow one decision (the turn's end waits)
    wiring: str = "aac-5p"
    keep: bool = False  # keep the temporary directory (logs, journals)
    workers: int = 1  # games played side by side, each with its own broker, service and serial ports


@dataclass
class ServiceSoakResult:
    games: int = 0
    decisions: int = 0
    faults: dict[str, int] = field(default_factory=lambda: {k: 0 for k in FAULT_KINDS})
    lost_actions: int = 0
    false_rejections: int = 0
    missed_illegal: int = 0
    truth_mismatches: int = 0
    desyncs: int = 0  # ends of turns where the service, in sync, stood somewhere else than the truth
    crashes: int = 0
    mistakes: int = 0
    mistakes_flagged: int = 0
    mistakes_pending: int = 0
    prompts: int = 0
    published_moves: int = 0
    journal_errors: int = 0  # journals that ``aetherlink journal verify`` refused
    slow_decisions: int = 0  # decisions the service had not followed within ``decision_wait`` (not an error)
    service_starts: int = 0
    # ends of turn pressed again: the service restarted after the press and still showed the seat's turn
    end_turns_repeated: int = 0
    staff_moves: int = 0  # decisions staff entered with ``move`` where ``resync`` could not explain the table
    # ends of turn where the service had accepted exactly the truth's decisions but still held some open
    # (not an error: see ``_settle``)
    ends_pending: int = 0
    recovery_s: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    wall_seconds: float = 0.0
    stopped: bool = False  # told to stop (SIGTERM, Ctrl-C) before the last game: figures of the games that ended
    echo: Callable[[str], None] | None = None  # shows each note as it happens (long soaks)

    def note(self, text: str) -> None:
        if self.echo is not None:
            self.echo(f"  problem: {text}")
        if len(self.notes) < 200:
            self.notes.append(text)

    def merge(self, other: ServiceSoakResult) -> None:
        """Add another run's counts (a worker's games); ``wall_seconds`` stays this run's."""
        for name in ("games", "decisions", "lost_actions", "false_rejections", "missed_illegal", "truth_mismatches",
                     "desyncs", "crashes", "mistakes", "mistakes_flagged", "mistakes_pending", "prompts",
                     "published_moves", "journal_errors", "slow_decisions", "service_starts",
                     "end_turns_repeated", "staff_moves", "ends_pending"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for kind, count in other.faults.items():
            self.faults[kind] = self.faults.get(kind, 0) + count
        self.recovery_s += other.recovery_s
        for text in other.notes:
            if len(self.notes) < 200:
                self.notes.append(text)

    def errors(self) -> int:
        return (self.lost_actions + self.false_rejections + self.missed_illegal + self.truth_mismatches
                + self.crashes + self.journal_errors + self.desyncs)

    def figures(self) -> dict[str, Any]:
        rec = sorted(self.recovery_s) or [0.0]
        return {
            "games": self.games, "decisions": self.decisions,
            "faults_injected": sum(self.faults.values()), "faults": dict(self.faults),
            "lost_actions": self.lost_actions, "false_rejections": self.false_rejections,
            "missed_illegal": self.missed_illegal, "truth_mismatches": self.truth_mismatches, "desyncs": self.desyncs,
            "crashes": self.crashes, "journal_errors": self.journal_errors,
            "mistakes_injected": self.mistakes, "mistakes_flagged": self.mistakes_flagged,
            "mistakes_pending": self.mistakes_pending,
            "prompts": self.prompts, "published_moves": self.published_moves, "slow_decisions": self.slow_decisions,
            "service_starts": self.service_starts, "end_turns_repeated": self.end_turns_repeated,
            "staff_moves": self.staff_moves, "ends_pending": self.ends_pending,
            "kill_recovery_s_max": round(rec[-1], 2),
            "wall_seconds": round(self.wall_seconds, 1), "stopped": self.stopped,
        }


# -- the broker ------------------------------------------------------------------------------------


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False


class Mosquitto:
    """A mosquitto on a loopback port that can be killed and restarted on the same port."""

    def __init__(self, directory: Path):
        if not Path(MOSQUITTO).exists():
            raise SoakError("mosquitto is not installed (needed for broker restarts; or give --mqtt-url)")
        self.port = free_port()
        self.conf = directory / "mosquitto.conf"
        self.conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                             "log_dest none\nset_tcp_nodelay true\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, start_new_session=True)
            while time.monotonic() < deadline and self.process.poll() is None:
                if _port_open("127.0.0.1", self.port):
                    return
                time.sleep(0.02)
            if self.process.poll() is None:
                break
            time.sleep(0.1)  # the port is still held: try again
        raise SoakError(f"mosquitto did not start on port {self.port}")

    def kill(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(5)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


# -- the service process ---------------------------------------------------------------------------


KILL_REAP_S = 60.0  # longest wait for a killed service to be reaped


class ServiceProcess:
    """``aetherlink run`` in its own process; each run's stderr goes to its own log file."""

    def __init__(self, config: Path, directory: Path):
        self.config = config
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None
        self.logs: list[Path] = []
        self.unexpected_exits: list[int] = []

    def start(self) -> None:
        log = self.directory / f"service-{len(self.logs) + 1}.log"
        self.logs.append(log)
        env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1")
        env.pop("AETHERLINK_CONFIG", None)
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "firmware_bridge", "run", "--config", str(self.config),
                 "--log-level", "DEBUG"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, start_new_session=True)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def check_exit(self) -> int | None:
        """The exit status if the service stopped on its own (it never should)."""
        if self.process is not None and self.process.poll() is not None:
            code = self.process.returncode
            self.unexpected_exits.append(code)
            self.process = None
            return code
        return None

    def kill9(self) -> None:
        """SIGKILL, then wait for the process to be gone (its journal is opened again by the next start).
        At a load average of 15 a killed service once took over 10 s to be reaped (service seeds 926, 927,
        934): the fault then failed and the service stayed down until the next one, so the wait is long."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(KILL_REAP_S)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)

    def tracebacks(self) -> list[str]:
        found = []
        for log in self.logs:
            text = log.read_text(errors="replace") if log.exists() else ""
            for i, line in enumerate(text.splitlines()):
                if line.startswith("Traceback"):
                    found.append(f"{log.name}:{i + 1}")
        return found


# -- one game ----------------------------------------------------------------------------------------


class ServiceGame:
    def __init__(self, cfg: ServiceSoakConfig, players: int, seed: int, directory: Path, broker: BrokerAddress,
                 mosquitto: Mosquitto | None, result: ServiceSoakResult, say: Callable[[str], None]):
        self.cfg = cfg
        self.players = players
        self.seed = seed
        self.dir = directory
        self.broker = broker
        self.mosquitto = mosquitto
        self.result = result
        self.say = say
        self.game = rules.load("aac")
        state = self.game.new_game(players=players, seed=seed, options={})
        assert isinstance(state, AacState)
        self.rng = random.Random(seed * 7919 + players)
        self.fault_rng = random.Random(seed * 104729 + 17)
        self.wiring = load_wiring_map(cfg.wiring)
        self.start = state.clone()  # (staff find where the service's game is on the truth's way: ``_behind``)
        self.truth = AacTruth(state, self.rng, self.wiring.specs())
        self.link_faults = LinkFaults()
        self.rig = SerialRig(self.truth.table, self.wiring, directory, faults=self.link_faults,
                             timing=fast_timing(), seed=seed)
        self.journal_path = directory / "journal.sqlite"
        self.service: ServiceProcess | None = None
        self.watcher: Watcher | None = None
        self.memory = PromptMemory()
        self.book = MistakeBook(self.rng)
        self.next_mistake = cfg.mistake_every
        self.published: dict[int, dict[str, Any]] = {}  # journal seq -> action JSON, from the move events
        self.service_lock = threading.RLock()  # held while the service is being killed and restarted
        self.calm = threading.Lock()  # held by the player while making a mistake: no faults then
        self.fault_active = threading.Event()
        self.recovered_at = 0.0
        self.stop_faults = threading.Event()
        self.kind_cycle: list[str] = []
        self.injected: set[str] = set()
        self.decisions = 0
        self.problems = 0  # problem-N.json files written (``_record_problem``)
        self._in_sync = True
        self.interrupted = False  # the soak was told to stop mid-game: clean up, judge nothing
        # what the players and the fault thread did, with times, to read beside the service's log (``--keep``)
        self.trace_file = (directory / "soak.log").open("a", encoding="utf-8")
        self.trace_lock = threading.Lock()

    def trace(self, text: str) -> None:
        stamp = datetime.datetime.now().isoformat(sep=" ", timespec="milliseconds").replace(".", ",")  # as logging
        with self.trace_lock:
            if not self.trace_file.closed:
                self.trace_file.write(f"{stamp} {text}\n")
                self.trace_file.flush()

    # -- set up --------------------------------------------------------------------------------------
    def _write_config(self) -> Path:
        b = self.broker
        lines = [
            "[board]", f'id = "{BOARD}"', 'name = "Aetherlink soak"',
            "[game]", 'name = "aac"', f"players = {self.players}", f"seed = {self.seed}",
            "[hal]", 'backend = "mcu"', f'wiring = "{self.cfg.wiring}"', f"quiet_ms = {self.cfg.quiet_ms}",
            "agreeing_scans = 3",
            "[hal.ports]", *[f'{dev} = "{path}"' for dev, path in self.rig.ports.items()],
            "[mqtt]", f'host = "{b.host}"', f"port = {b.port}", 'embedded = "never"', "discovery = false",
            *(["tls = true"] if b.tls else []),
            "reconnect_min_s = 0.1", "reconnect_max_s = 0.5",
            *([f"username = {json.dumps(b.username)}"] if b.username else []),
            *([f"password = {json.dumps(b.password)}"] if b.password else []),
            "[journal]", f'path = "{self.journal_path}"',
        ]
        path = self.dir / "config.toml"
        path.write_text("\n".join(lines) + "\n")
        return path

    def run(self) -> None:
        faults = threading.Thread(target=self._faults, name="soak-faults", daemon=True)
        try:
            self.rig.start()
            self.service = ServiceProcess(self._write_config(), self.dir)
            self.service.start()
            self.result.service_starts += 1
            self.watcher = Watcher(self.broker, f"aetherlink/{BOARD}")
            self.watcher.start()
            doc = self.ask("status", timeout=60.0).get("data", {}).get("state") or {}
            self._settle(doc, final=True)
            faults.start()
            self._play()
        except KeyboardInterrupt:
            self.interrupted = True
            raise
        finally:
            self.stop_faults.set()
            if faults.is_alive():
                faults.join(30)
            self._finish()

    # -- asking the service over MQTT (retried through broker restarts and service kills) ------------
    def ask(self, command: str, payload: Mapping[str, Any] | None = None, timeout: float = 60.0
            ) -> dict[str, Any]:
        assert self.watcher is not None
        deadline = time.monotonic() + timeout
        while True:
            self._check_service()
            try:
                return self.watcher.request(command, payload, timeout=2.0)
            except WatchError:
                if time.monotonic() > deadline:
                    raise SoakError(f"the service did not answer {command!r} within {timeout:.0f} s") from None

    def status(self) -> dict[str, Any]:
        state = (self.ask("status").get("data") or {}).get("state")
        if not isinstance(state, dict):
            raise SoakError("status answered without a state")
        self._follow_log()
        return state

    def _follow_log(self) -> None:
        assert self.watcher is not None
        self.memory.follow(self.watcher.take_log(), self.game)
        self.truth.keep_pace(self.memory.accepted_since_agreed(), self.memory.since)

    def _check_service(self) -> None:
        """A service that stopped without being killed is a crash: count it and start it again."""
        with self.service_lock:
            assert self.service is not None
            if self.service.process is None:
                return  # being restarted by the fault thread
            code = self.service.check_exit()
            if code is not None:
                self.result.crashes += 1
                self.result.note(f"game seed {self.seed}: the service exited by itself with status {code}")
                self.service.start()
                self.result.service_starts += 1

    # -- playing -----------------------------------------------------------------------------------------
    def _play(self) -> None:
        truth = self.truth
        step_s = self.cfg.quiet_ms / 1000 * 1.5 + 0.02
        turn_over = True  # a truncated game stops only between turns, where the service must agree
        while not truth.state.is_terminal():
            if (self.cfg.max_decisions and self.decisions >= self.cfg.max_decisions and turn_over
                    and not (self.cfg.each_kind and self.injected < set(self.cfg.kinds))):
                break
            seat = truth.state.current_player
            if (seat >= 0 and self.cfg.mistake_every and self.decisions >= self.next_mistake):
                self._mistake()
            action = truth.choose()
            self.trace(f"decision {self.decisions + 1}, seat {truth.state.current_player}: "
                       f"{self.game.format(action, truth.state)}")
            motions = truth.apply(action)
            self.decisions += 1
            moved = False
            for step, _held in truth.steps(motions):
                with self.rig.lock:
                    truth.perform(step)
                moved = True
                time.sleep(step_s)
            ended = truth.state.is_terminal() or truth.state.current_player != seat
            # a decision the table does not show (no motion) or shows only in part (a token still in a hand)
            # cannot be followed yet: the service rightly waits for more, and is judged at the turn's end. A
            # turn's last decision does not wait: the seat ends its turn at once, as a quick player does, while
            # the HAL may still be settling the last change (the service holds the end of turn for it)
            turn_over = seat >= 0 and ended
            followable = moved and not self._in_hand() and not turn_over
            self._settle(self.status(), final=False, patience=self.cfg.decision_wait if followable else 0.0)
            if turn_over:
                # refused when the controller saw the turn end already from the next player's hands
                self.trace(f"end of turn, seat {seat}: {_outcome(self.ask('end_turn', {'seat': seat}))}")
                self._settle(self.status(), final=True, when=f"the end of turn {truth.state.turn_number}",
                             ended_by=seat)

    def _service_run(self) -> int:
        """Which run of the service this is (one more after each restart)."""
        assert self.service is not None
        return len(self.service.logs)

    def _in_hand(self) -> bool:
        with self.rig.lock:
            return any(tokens for name, tokens in self.truth.table.hands.items() if name != BOX_HAND)

    def _disturbed(self) -> bool:
        return self.fault_active.is_set() or time.monotonic() < self.recovered_at + 3.0

    def _settle(self, doc: dict[str, Any], *, final: bool, when: str = "", patience: float | None = None,
                ended_by: int | None = None) -> dict[str, Any]:
        """Answer prompts and wait until the service stands where the truth does.

        ``final``: at the end of a turn the service must agree with the truth (else it is a false
        rejection or a mismatch); after a single decision a pending verdict is acceptable, and
        ``patience`` (default ``decision_wait``) is how long to give the service to follow it.
        ``ended_by``: the seat that has just pressed its end-turn button. A press is a moment, not a
        move: a service killed before it finished with it (the question it asked about a choice the
        table cannot show is gone with it) shows that seat's turn still under way once it is back,
        and the player presses again, as anyone at the table would. So they do when the press came
        before the table was read (a board unplugged: "finish the move first") and the service has
        accepted the rest of the turn since."""
        assert self.watcher is not None
        if patience is None:
            patience = 12.0 if final else self.cfg.decision_wait
        started = time.monotonic()
        deadline = started + patience
        truth_now = Position(self.game, self.truth.state)
        seen = self.watcher.states_seen()
        calmed = False  # faults held off (``calm``) for one last undisturbed chance
        pressed_in = self._service_run()
        pressed_at = doc.get("seq")  # the journal's last row when the seat pressed
        try:
            while True:
                prompts = doc.get("prompts") or []
                if prompts:
                    doc = self._answer(prompts[0])
                    continue
                sync = doc.get("sync") or {}
                in_sync = bool(sync.get("in_sync", True))
                if in_sync and not sync.get("pending") and truth_now.matches(doc.get("table")):
                    return self._agreed(doc)
                # (after a restart, pending or not: its last decision waits for the press the kill took,
                # service seed 3042: a patron placed, the press answered by the dying service without it)
                run = self._service_run()
                if (ended_by is not None and in_sync
                        and (run != pressed_in or (not sync.get("pending") and doc.get("seq") != pressed_at))
                        and (doc.get("turn") or {}).get("seat") == ended_by):
                    pressed_in, pressed_at = run, doc.get("seq")
                    self.result.end_turns_repeated += 1
                    self.trace(f"end of turn again, seat {ended_by}: "
                               f"{_outcome(self.ask('end_turn', {'seat': ended_by}))}")
                    doc = self.status()
                    continue
                # a fault gives the service more time, within bounds (faults may come faster than it recovers)
                if self._disturbed() and not calmed and time.monotonic() - started < (30.0 if final else 5.0):
                    deadline = max(deadline, time.monotonic() + patience)
                if time.monotonic() > deadline:
                    if final and not calmed and deadline > started + patience:
                        self.calm.acquire()  # (waits for the fault in progress) no new one until judged
                        calmed = True
                        deadline = time.monotonic() + patience
                        continue
                    break
                # woken by the service's next state document (published before any response that shows it);
                # asked again anyway after a while, as a state published while the broker was away is not seen
                self.watcher.wait_state(seen, min(0.1, max(0.0, deadline - time.monotonic()) + 0.005))
                seen = self.watcher.states_seen()
                doc = self.status()
        finally:
            if calmed:
                self.calm.release()
        if not final and in_sync:
            if patience > 0:
                self.result.slow_decisions += 1
            return doc  # pending or not seen yet: judged at the end of the turn
        if in_sync and sync.get("pending") and truth_now.matches(doc.get("table")):
            # every decision the players made is accepted, and no other; what the service holds open is
            # decisions nobody has made yet that the table cannot rule out (a restarted service's first look
            # at a position whose rules leave a token's place open: seed 843). The next move settles them,
            # and a wrong one committed then is judged at the next end of turn
            self.result.ends_pending += 1
            self.trace(f"agrees at {when or 'a decision'}, with decisions still open")
            return self._agreed(doc)
        if not in_sync:
            self.result.false_rejections += 1
            refusal = doc.get("refusal") or {}
            self.result.note(f"game seed {self.seed}, decision {self.decisions}: legal play refused: "
                             f"{refusal.get('reason') or sync.get('differences')}")
        else:
            self.result.desyncs += 1
            where = ", ".join(differing_paths(doc.get("table"), truth_now.json)[:4])
            self.result.note(f"game seed {self.seed}: at {when or 'a decision'} the service's game differs "
                             f"from the truth ({where}; pending {sync.get('pending')})")
        self._record_problem(doc)
        self._resync()
        return self.status()

    def _agreed(self, doc: dict[str, Any]) -> dict[str, Any]:
        """The service stands where the truth does: what the players remember it has seen, and ``doc``."""
        self.memory.agreed(len(self.truth.state.history))
        self._in_sync = True
        return doc

    def _record_problem(self, doc: dict[str, Any]) -> None:
        """What the truth did and what the service showed, beside the game's logs and journal (``--keep``):
        the journal holds only what the service accepted, not what the players really did."""
        self.problems += 1
        self.trace(f"problem {self.problems} at decision {self.decisions}")
        record = {"seed": self.seed, "decision": self.decisions, "turns_done": self.truth.state.turns_done,
                  "truth_history": [[who, self.game.action_to_json(action)]
                                    for who, action in self.truth.state.history],
                  "service": doc}
        path = self.dir / f"problem-{self.problems}.json"
        path.write_text(json.dumps(record, indent=1, default=str))

    def _resync(self) -> None:
        """Staff put it right: the controller is told to take the table as it is. Where that cannot explain
        the table (the service is further behind than a snapshot's search reaches: a restart lost a long
        move still pending), staff enter the decisions it lacks, as ``move`` commands, so that one problem
        is counted once and not again at every later decision."""
        self.trace("resync")
        self.ask("resync")
        self.memory = PromptMemory()
        self.memory.agreed(len(self.truth.state.history))
        doc = self.status()
        history = self.truth.state.history
        if Position(self.game, self.truth.state).matches(doc.get("table")):
            return
        behind = self._behind(doc.get("table"))
        if behind is None:
            return
        for who, action in history[behind:]:
            if who < 0:
                break  # (a chance outcome is the service's to draw: the rest waits for the table)
            response = self.ask("move", {"action": self.game.action_to_json(action)})
            self.trace(f"staff enter {self.game.format(action)}: {_outcome(response)}")
            if response.get("status") != "ok":
                break
            self.result.staff_moves += 1

    def _behind(self, table: Any) -> int | None:
        """How many of the truth's decisions lead to the service's game (the last point of the truth's way
        where the games are equal); None when it is on none. Counting the service's decisions would not
        do: it may have reached the same position by another way (the same decisions in another order, a
        decision that ends a move by itself rather than a "pass")."""
        state = self.start.clone()
        theirs = fingerprint_of(self.game, table)
        found = 0 if same_position(state, table, theirs) else None
        for i, (_, action) in enumerate(self.truth.state.history):
            state.apply(action)
            if same_position(state, table, theirs):
                found = i + 1
        return found

    def _answer(self, prompt: dict[str, Any]) -> dict[str, Any]:
        key = self.truth.answer_published(prompt, self.game, self.memory)
        self.result.prompts += 1
        options = "; ".join(f"{o.get('key')}: {o.get('label')}" for o in prompt.get("options") or [])
        self.trace(f"prompt {prompt['id']} ({prompt.get('question')}) [{options}]: answered {key}")
        response = self.ask("answer", {"prompt": prompt["id"], "key": key})
        if key == NONE_OF_THESE and response.get("status") != "ok":
            # told one of them it must be: as a player at the table, they pick one
            published = [o for o in prompt.get("options") or [] if o.get("actions")]
            first = self.truth.ending_here({str(o.get("key")): str(o.get("outcome", "")) for o in published}) \
                or str((prompt.get("options") or [{}])[0].get("key"))
            self.trace(f"'none of these' refused ({_outcome(response)}): answered {first}")
            self.ask("answer", {"prompt": prompt["id"], "key": first})
        return self.status()

    def _mistake(self) -> None:
        self.next_mistake = self.decisions + self.cfg.mistake_every
        with self.calm:
            while self._disturbed():
                time.sleep(0.05)
            mistake = self.book.pick(self.truth, self.memory.since)
            if mistake is None:
                return
            self.result.mistakes += 1
            with self.rig.lock:
                fix = mistake.do(self.truth)
            flagged = pending = False
            deadline = time.monotonic() + 4.0
            while time.monotonic() < deadline:
                doc = self.status()
                sync = doc.get("sync") or {}
                if not sync.get("in_sync", True) or doc.get("refusal"):
                    flagged = True
                    break
                pending = bool(sync.get("pending"))
                time.sleep(0.05)
            if flagged:
                self.result.mistakes_flagged += 1
            elif pending:  # not accepted either: held until the player says more (as ``soak games`` counts it)
                self.result.mistakes_pending += 1
            else:
                self.result.missed_illegal += 1
                self.result.note(f"game seed {self.seed}: mistake not flagged: {mistake.name} ({mistake.rule})")
            for step in fix:
                with self.rig.lock:
                    self.truth.perform(step)
                time.sleep(self.cfg.quiet_ms / 1000 * 1.5 + 0.02)
            deadline = time.monotonic() + 6.0
            while True:
                doc = self.status()
                if (doc.get("sync") or {}).get("in_sync", True) and not doc.get("refusal"):
                    break
                if time.monotonic() > deadline:
                    self.result.note(f"game seed {self.seed}: still out of sync after putting right {mistake.name}")
                    self._resync()
                    break
                time.sleep(0.05)

    # -- faults ------------------------------------------------------------------------------------------
    def _next_kind(self) -> str:
        if not self.kind_cycle:
            self.kind_cycle = list(self.cfg.kinds)
            self.fault_rng.shuffle(self.kind_cycle)
        return self.kind_cycle.pop()

    def _faults(self) -> None:
        mean = 60.0 / self.cfg.fault_rate if self.cfg.fault_rate > 0 else 0.0
        if not mean or not self.cfg.kinds:
            return
        while not self.stop_faults.wait(self.fault_rng.expovariate(1.0 / mean)):
            with self.calm:
                if self.stop_faults.is_set():
                    return
                kind = self._next_kind()
                self.fault_active.set()
                try:
                    getattr(self, f"_fault_{kind}")()
                    self.result.faults[kind] += 1
                    self.injected.add(kind)
                    self.trace(f"fault {kind} over")
                except Exception as exc:  # a fault that could not be injected is reported, not fatal
                    self.result.note(f"game seed {self.seed}: fault {kind} failed: {exc!r}")
                finally:
                    self.recovered_at = time.monotonic()
                    self.fault_active.clear()

    def _fault_noise(self) -> None:
        f = self.link_faults
        self.trace("fault noise")
        f.corrupt_frame_rate, f.noise_rate, f.drop_frame_rate = 0.25, 0.002, 0.05
        time.sleep(self.fault_rng.uniform(0.1, 0.6))
        f.corrupt_frame_rate = f.noise_rate = f.drop_frame_rate = 0.0

    def _fault_unplug(self) -> None:
        device = self.fault_rng.choice(sorted(self.rig.mcus))
        self.trace(f"fault unplug: {device}")
        self.rig.unplug(device)
        time.sleep(self.fault_rng.uniform(0.1, 1.5))
        self.rig.replug(device)

    def _fault_broker(self) -> None:
        if self.mosquitto is None:
            raise SoakError("no broker restarts on an external broker")
        self.trace("fault broker")
        self.mosquitto.kill()
        time.sleep(self.fault_rng.uniform(0.1, 1.5))
        self.mosquitto.start()

    def _fault_kill(self) -> None:
        assert self.service is not None
        with self.service_lock:
            started = time.monotonic()
            if self.service.process is None or not self.service.alive():
                self._check_service()
            self.trace("fault kill")
            self.service.kill9()
            self._check_journal("after a kill -9")
            time.sleep(self.fault_rng.uniform(0.0, 0.5))
            self.service.start()
            self.result.service_starts += 1
        # ready again: the status round trip answers once the journal is replayed (the table may not be read yet:
        # the players go on, and a seat that ends its turn meanwhile is held by the service until it is)
        assert self.watcher is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.watcher.request("status", timeout=2.0)
                self.result.recovery_s.append(time.monotonic() - started)
                return
            except WatchError:
                self._check_service()
        raise SoakError("the service did not come back after kill -9")

    # -- checks ------------------------------------------------------------------------------------------
    def _check_journal(self, when: str) -> None:
        """Every move published as accepted must be in the journal, with the same action."""
        assert self.watcher is not None
        self.published.update(self.watcher.moves())
        try:
            rows = journal_actions(self.journal_path)
        except (sqlite3.Error, OSError, ValueError) as exc:
            self.result.lost_actions += len(self.published)
            self.result.note(f"game seed {self.seed}: journal unreadable {when}: {exc}")
            return
        for seq, action in sorted(self.published.items()):
            if rows.get(seq) != action:
                self.result.lost_actions += 1
                self.result.note(f"game seed {self.seed}: published move seq {seq} missing from the journal {when}")

    def _finish(self) -> None:
        if self.interrupted:  # (told to stop: the processes go, the unfinished game is not judged)
            self._release()
            return
        result = self.result
        try:
            if self.service is not None and self.watcher is not None:
                doc = self._settle(self.status(), final=True, when="the end of the game")
                truth = Position(self.game, self.truth.state)
                if not truth.matches(doc.get("table")):
                    result.truth_mismatches += 1
                    where = ", ".join(differing_paths(doc.get("table"), truth.json)[:4])
                    result.note(f"game seed {self.seed}: final state differs from the truth ({where})")
        except SoakError as exc:
            result.truth_mismatches += 1
            result.note(f"game seed {self.seed}: no final state: {exc}")
        finally:
            if self.service is not None:
                with self.service_lock:
                    code = self.service.check_exit()
                    if code is not None:
                        result.crashes += 1
                        result.note(f"game seed {self.seed}: the service exited by itself with status {code}")
                    self.service.stop()
                self._check_journal("at the end of the game")
                problem = verify_journal(self.journal_path)
                if problem is not None:
                    result.journal_errors += 1
                    result.note(f"game seed {self.seed}: aetherlink journal verify: {problem}")
                result.published_moves += len(self.published)
                for where in self.service.tracebacks():
                    result.crashes += 1
                    result.note(f"game seed {self.seed}: Traceback in the service's log at {where}")
            self._release()
            result.games += 1
            result.decisions += self.decisions

    def _release(self) -> None:
        """Stop the service, the MQTT client and the simulated table."""
        if self.service is not None:
            with self.service_lock:
                self.service.stop()
        if self.watcher is not None:
            self.watcher.stop()
        self.rig.stop()
        with self.trace_lock:
            self.trace_file.close()


# -- the whole soak ---------------------------------------------------------------------------------------


def run_service_soak(cfg: ServiceSoakConfig, say: Callable[[str], None] = lambda s: None) -> ServiceSoakResult:
    if cfg.workers > 1 and cfg.games > 1:
        return _run_side_by_side(cfg, say)
    result = ServiceSoakResult(echo=say)
    started = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="aetherlink-soak-service-"))
    mosquitto: Mosquitto | None = None
    kinds = cfg.kinds
    try:
        if cfg.mqtt_url:
            broker = broker_from_url(cfg.mqtt_url)
            if "broker" in kinds:
                kinds = tuple(k for k in kinds if k != "broker")
                say("an external broker is not restarted: no broker faults")
        else:
            mosquitto = Mosquitto(tmp)
            mosquitto.start()
            broker = BrokerAddress("127.0.0.1", mosquitto.port)
        game_cfg = ServiceSoakConfig(**{**cfg.__dict__, "kinds": kinds})
        for n in range(cfg.games):
            players = cfg.players[n % len(cfg.players)]
            seed = cfg.seed + n
            directory = tmp / f"game-{n + 1}"
            directory.mkdir()
            if mosquitto is not None and mosquitto.process is None:
                mosquitto.start()
            played = ServiceSoakResult(echo=say)  # (added once the game has ended: a stopped game is not judged)
            game = ServiceGame(game_cfg, players, seed, directory, broker, mosquitto, played, say)
            try:
                _run_game(game)
            except Stopped:
                result.stopped = True
                break
            result.merge(played)
            result.wall_seconds = time.monotonic() - started
            say(f"  {n + 1}/{cfg.games} games, {result.decisions} decisions, "
                f"faults {sum(result.faults.values())} {result.faults}, errors {result.errors()}, "
                f"{result.wall_seconds:.0f} s")
    finally:
        if mosquitto is not None:
            mosquitto.stop()
        if cfg.keep:
            say(f"logs and journals kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    result.wall_seconds = time.monotonic() - started
    return result


def _run_game(game: ServiceGame) -> None:
    before = game.result.truth_mismatches
    try:
        game.run()
    except (SoakError, WatchError) as exc:
        if game.result.truth_mismatches == before:  # not already counted by the final comparison
            game.result.truth_mismatches += 1
        game.result.note(f"game seed {game.seed}: abandoned: {exc}")


# -- games side by side ----------------------------------------------------------------------------------


def game_config(cfg: ServiceSoakConfig, n: int) -> ServiceSoakConfig:
    """Game ``n`` of ``cfg`` as a soak of its own: the seed and player count it has in a serial run."""
    return dataclasses.replace(cfg, games=1, seed=cfg.seed + n, players=(cfg.players[n % len(cfg.players)],),
                               workers=1)


def _one_game(cfg: ServiceSoakConfig, n: int) -> ServiceSoakResult:
    """Game ``n`` of ``cfg`` (in a worker process, set up by ``worker_setup``)."""
    game_cfg = game_config(cfg, n)

    def say(text: str) -> None:
        if not text.startswith("  1/1 games"):  # (the parent reports each game as it ends)
            print(f"[game {n + 1}] {text.strip()}", file=sys.stderr, flush=True)

    with busy():
        result = run_service_soak(game_cfg, say)
    if result.stopped:
        os._exit(143)  # (its game is cleaned up; the worker must not start the next one)
    result.echo = None  # (goes back to the parent)
    return result


def _abandon(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """No more games; the workers stop theirs (each its service, broker and table) before they go."""
    pool.shutdown(wait=False, cancel_futures=True)
    stop_workers()


def _run_side_by_side(cfg: ServiceSoakConfig, say: Callable[[str], None]) -> ServiceSoakResult:
    """``cfg.workers`` games at a time, each in its own process with its own mosquitto, service and ptys."""
    result = ServiceSoakResult(echo=say)
    started = time.monotonic()
    context = multiprocessing.get_context("spawn")  # (a clean interpreter: no threads carried over by fork)
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(cfg.workers, cfg.games), mp_context=context,
                                                initializer=worker_setup) as pool:
        futures = {pool.submit(_one_game, cfg, n): n for n in range(cfg.games)}
        try:
            for future in concurrent.futures.as_completed(futures):
                n = futures[future]
                try:
                    result.merge(future.result())
                except SoakError as exc:
                    raise SoakError(f"game {n + 1}: {exc}") from None
                result.wall_seconds = time.monotonic() - started
                say(f"  {result.games}/{cfg.games} games (game {n + 1} ended), {result.decisions} decisions, "
                    f"faults {sum(result.faults.values())} {result.faults}, errors {result.errors()}, "
                    f"{result.wall_seconds:.0f} s")
        except SoakError:
            _abandon(pool)
            raise
        except Stopped:
            _abandon(pool)
            result.stopped = True
    result.wall_seconds = time.monotonic() - started
    return result
