"""The service's configuration: one TOML file, defaults for everything, environment overrides.

Search order: ``--config PATH``, then ``$AETHERLINK_CONFIG``, then
``/etc/aetherlink/config.toml`` if it exists, else the defaults alone.
``AETHERLINK_<SECTION>__<KEY>=value`` overrides one key (``AETHERLINK_MQTT__PORT=1884``,
``AETHERLINK_GAME__OPTIONS__DIVINE_WINDS=true``). A wrong configuration is
refused before anything starts, naming the file (or variable), the key and the
reason, so a misconfigured Pi fails at once and says why instead of half-running.
Every key is documented in ``docs/configuration.md``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import unquote, urlsplit

import msgspec

from firmware_bridge.validation import accepts_string, explain, field_type, show

SYSTEM_CONFIG = Path("/etc/aetherlink/config.toml")
ENV_CONFIG = "AETHERLINK_CONFIG"
ENV_PREFIX = "AETHERLINK_"

CommandName = Literal["new_game", "end_turn", "answer", "undo", "resync", "status", "move", "pause", "resume"]
COMMAND_NAMES: tuple[str, ...] = CommandName.__args__  # type: ignore[attr-defined]

ColourName = Literal["off", "white", "green", "amber", "red", "blue", "purple", "cyan"]
LedRole = Literal[
    "active", "finishing", "prompt", "refusal", "out_of_sync", "winner", "game_over",
    "difference", "refused_location", "target", "construct", "cue", "paused", "expired",
]

TopicWord = Annotated[str, msgspec.Meta(
    pattern=r"^[A-Za-z0-9_-]{1,64}$",
    extra={"expect": "1 to 64 letters, digits, '-' or '_' (it is used in MQTT topics)"})]
TopicPrefix = Annotated[str, msgspec.Meta(
    pattern=r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$",
    extra={"expect": "topic levels of letters, digits, '-' or '_' separated by '/', no wildcards"})]
Port = Annotated[int, msgspec.Meta(ge=1, le=65535)]
NonEmpty = Annotated[str, msgspec.Meta(min_length=1)]


class _Section(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, omit_defaults=True):
    """Base of every section: unknown keys are errors (a typo must not be silently ignored)."""


class BoardConfig(_Section):
    id: TopicWord = "board1"
    name: str = "Aetherlink board"


class GameConfig(_Section):
    name: str | None = "aac"
    players: Annotated[int, msgspec.Meta(ge=1, le=16)] = 2
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)] | None = None
    lang: Literal["en", "fr"] = "en"
    options: dict[str, Any] = msgspec.field(default_factory=dict)


class HalConfig(_Section):
    backend: Literal["none", "sim", "mcu", "gpio"] = "none"
    wiring: str | None = None  # a wiring map file, or the name of a shipped map ("aac-5p")
    ports: dict[str, NonEmpty] = msgspec.field(default_factory=dict)  # device id -> serial path or URL
    quiet_ms: Annotated[int, msgspec.Meta(ge=0, le=10_000)] = 250
    agreeing_scans: Annotated[int, msgspec.Meta(ge=1, le=50)] = 3


class MqttConfig(_Section):
    enabled: bool = True
    url: str | None = None
    host: NonEmpty | None = None
    port: Port | None = None
    base_topic: TopicPrefix = "aetherlink"
    username: str | None = None
    password: str | None = None
    password_file: str | None = None
    tls: bool = False
    ca: str | None = None
    cert: str | None = None
    key: str | None = None
    tls_insecure: bool = False
    client_id: Annotated[str, msgspec.Meta(min_length=1, max_length=128)] | None = None
    keepalive: Annotated[int, msgspec.Meta(ge=5, le=3600)] = 30
    protocol: Literal["3.1.1", "5"] = "3.1.1"
    qos: Annotated[int, msgspec.Meta(ge=0, le=2)] = 1
    discovery: bool = True
    discovery_prefix: TopicPrefix = "homeassistant"
    embedded: Literal["auto", "always", "never"] = "auto"
    reconnect_min_s: Annotated[float, msgspec.Meta(ge=0.05, le=60)] = 0.5
    reconnect_max_s: Annotated[float, msgspec.Meta(ge=0.05, le=600)] = 1.5
    offline_queue: Annotated[int, msgspec.Meta(ge=0, le=1_000_000)] = 1000


class LedConfig(_Section):
    enabled: bool = True
    brightness: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)] = 1.0
    terminal: bool = False
    palette: dict[LedRole, ColourName] = msgspec.field(default_factory=dict)


class WebConfig(_Section):
    enabled: bool = False
    bind: NonEmpty = "127.0.0.1"
    port: Annotated[int, msgspec.Meta(ge=0, le=65535)] = 8080  # 0: any free port (the URL is logged)
    token: str | None = None
    token_file: str | None = None


class JournalConfig(_Section):
    path: str | None = None


class CommandsConfig(_Section):
    allow: list[CommandName] = msgspec.field(default_factory=lambda: list(COMMAND_NAMES))  # type: ignore[arg-type]
    require_token: bool = False


class Config(_Section):
    board: BoardConfig = msgspec.field(default_factory=BoardConfig)
    game: GameConfig = msgspec.field(default_factory=GameConfig)
    hal: HalConfig = msgspec.field(default_factory=HalConfig)
    mqtt: MqttConfig = msgspec.field(default_factory=MqttConfig)
    leds: LedConfig = msgspec.field(default_factory=LedConfig)
    web: WebConfig = msgspec.field(default_factory=WebConfig)
    journal: JournalConfig = msgspec.field(default_factory=JournalConfig)
    commands: CommandsConfig = msgspec.field(default_factory=CommandsConfig)


class ConfigError(ValueError):
    """A configuration that cannot be used: ``source: key: reason``."""

    def __init__(self, source: str, key: str, reason: str):
        self.source = source
        self.key = key
        self.reason = reason
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True)
class Broker:
    """Where and how to reach the MQTT broker, with the URL/host forms resolved."""

    host: str
    port: int
    tls: bool
    username: str | None
    password: str | None
    configured: bool  # False: nothing was set, so the demo may start an embedded broker


@dataclass(frozen=True)
class LoadedConfig:
    """A validated configuration and where it came from (for messages and ``status``)."""

    config: Config
    source: str  # the file path, or "defaults"
    overrides: tuple[str, ...] = ()  # environment variables that were applied


def load_config(
    path: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
    system_path: Path = SYSTEM_CONFIG,
) -> LoadedConfig:
    """Find, parse, override and check the configuration; raises ``ConfigError``."""
    env = os.environ if environ is None else environ
    file = _find(path, env, system_path)
    raw: dict[str, Any] = {}
    source = "defaults"
    if file is not None:
        source = str(file)
        raw = _read_toml(file)
    provenance: dict[str, str] = {}
    applied = _apply_env(raw, env, provenance)
    base = file.parent if file is not None else Path.cwd()
    config = _convert(raw, source, provenance)
    config = _resolve_paths(config, base, source, provenance)
    check(config, source, provenance)
    return LoadedConfig(config, source, tuple(applied))


def config_from_dict(data: Mapping[str, Any], source: str = "<dict>", base: Path | None = None) -> Config:
    """Build and check a configuration from a mapping (tests, generated configs)."""
    raw = _deep_copy(dict(data))
    config = _resolve_paths(_convert(raw, source, {}), base or Path.cwd(), source)
    check(config, source, {})
    return config


# -- locating and reading -------------------------------------------------------------------------


def _find(path: str | os.PathLike[str] | None, env: Mapping[str, str], system_path: Path) -> Path | None:
    if path is not None:
        chosen, origin = Path(path), "--config"
    elif env.get(ENV_CONFIG):
        chosen, origin = Path(env[ENV_CONFIG]), f"${ENV_CONFIG}"
    elif system_path.is_file():
        return system_path
    else:
        return None
    if not chosen.is_file():
        raise ConfigError(str(chosen), "", f"no such configuration file (given by {origin})")
    return chosen


def _read_toml(file: Path) -> dict[str, Any]:
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(str(file), "", f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(str(file), "", "not UTF-8 text") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(file), "", f"not valid TOML: {exc}") from None


def _apply_env(raw: dict[str, Any], env: Mapping[str, str], provenance: dict[str, str]) -> list[str]:
    applied = []
    for name in sorted(env):
        if not name.startswith(ENV_PREFIX) or "__" not in name or name == ENV_CONFIG:
            continue
        parts = [p.lower() for p in name[len(ENV_PREFIX):].split("__")]
        source = f"environment variable {name}"
        if any(not p for p in parts):
            raise ConfigError(source, "", "empty key name (use AETHERLINK_<SECTION>__<KEY>)")
        if parts[0] not in _field_names(Config):
            raise ConfigError(source, parts[0], f"unknown section (known: {', '.join(_field_names(Config))})")
        value: Any = env[name]
        if not accepts_string(field_type(Config, list(parts))):
            value = _parse_env_value(value)
        node = raw
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise ConfigError(source, ".".join(parts), f"{part!r} is not a table")
            node = child
        node[parts[-1]] = value
        provenance[".".join(parts)] = source
        applied.append(name)
    return applied


def _parse_env_value(text: str) -> Any:
    """Read an override as a TOML value (``1884``, ``true``, ``["a", "b"]``); otherwise as a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def _convert(raw: dict[str, Any], source: str, provenance: Mapping[str, str]) -> Config:
    try:
        return msgspec.convert(raw, type=Config, strict=True)
    except msgspec.ValidationError as exc:
        problem = explain(exc, Config, raw)
        raise ConfigError(_source_of(problem.key, source, provenance), problem.key, problem.reason) from None


def _source_of(key: str, source: str, provenance: Mapping[str, str]) -> str:
    for candidate, origin in provenance.items():
        if key == candidate or key.startswith(candidate + ".") or key.startswith(candidate + "["):
            return origin
    return source


def _field_names(struct: type[msgspec.Struct]) -> list[str]:
    return list(struct.__struct_fields__)


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


# -- paths ------------------------------------------------------------------------------------------


def is_wiring_file(value: str) -> bool:
    """``hal.wiring`` names a file (has a ``/`` or a ``.yaml`` suffix) rather than a shipped map."""
    return "/" in value or value.endswith((".yaml", ".yml"))


def _resolve_paths(config: Config, base: Path, source: str = "", provenance: Mapping[str, str] | None = None,
                   ) -> Config:
    """Relative paths in a file are relative to that file's directory, not to the working directory."""

    def fix(key: str, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            p = Path(value).expanduser()
        except RuntimeError:  # ~user of a user that does not exist
            raise ConfigError(_source_of(key, source, provenance or {}), key,
                              f"cannot expand {show(value)}: no such user's home directory") from None
        return str(p if p.is_absolute() else base / p)

    s = msgspec.structs
    m = config.mqtt
    return s.replace(
        config,
        hal=s.replace(config.hal, wiring=fix("hal.wiring", config.hal.wiring) if config.hal.wiring and is_wiring_file(
            config.hal.wiring) else config.hal.wiring),
        mqtt=s.replace(m, password_file=fix("mqtt.password_file", m.password_file), ca=fix("mqtt.ca", m.ca),
                       cert=fix("mqtt.cert", m.cert), key=fix("mqtt.key", m.key)),
        web=s.replace(config.web, token_file=fix("web.token_file", config.web.token_file)),
        journal=s.replace(config.journal, path=fix("journal.path", config.journal.path)),
    )


def journal_path(config: Config, environ: Mapping[str, str] | None = None) -> Path:
    """The journal file: ``journal.path``, else systemd's state directory, else the XDG state directory."""
    if config.journal.path:
        return Path(config.journal.path)
    env = os.environ if environ is None else environ
    state_dir = env.get("STATE_DIRECTORY")
    if state_dir:
        return Path(state_dir.split(":")[0]) / f"journal-{config.board.id}.sqlite"
    xdg = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(xdg) / "aetherlink" / f"journal-{config.board.id}.sqlite"


# -- checks beyond types ----------------------------------------------------------------------------


def check(config: Config, source: str, provenance: Mapping[str, str] | None = None) -> None:
    """Cross-field and semantic checks: files exist, the game and its options are real, ..."""
    prov = provenance or {}

    def fail(key: str, reason: str) -> None:
        raise ConfigError(_source_of(key, source, prov), key, reason)

    m = config.mqtt
    if m.url and m.host:
        fail("mqtt.url", "set either mqtt.url or mqtt.host, not both")
    if m.url:
        _check_url(m.url, fail)
    if m.password is not None and m.password_file is not None:
        fail("mqtt.password_file", "set either mqtt.password or mqtt.password_file, not both")
    if (m.password is not None or m.password_file is not None) and not (m.username or _url_user(m.url)):
        fail("mqtt.username", "required when a password is given")
    if (m.cert is None) != (m.key is None):
        fail("mqtt.cert" if m.cert is None else "mqtt.key", "mqtt.cert and mqtt.key go together")
    if m.reconnect_min_s > m.reconnect_max_s:
        fail("mqtt.reconnect_min_s", f"must not exceed mqtt.reconnect_max_s ({m.reconnect_max_s})")
    for key, value in (("mqtt.password_file", m.password_file), ("mqtt.ca", m.ca), ("mqtt.cert", m.cert),
                       ("mqtt.key", m.key), ("web.token_file", config.web.token_file)):
        if value is not None:
            _check_readable(key, value, fail)
    if config.web.token is not None and config.web.token_file is not None:
        fail("web.token_file", "set either web.token or web.token_file, not both")
    if config.commands.require_token and config.web.token is None and config.web.token_file is None:
        fail("commands.require_token", "needs web.token or web.token_file (the token commands must carry)")
    hal = config.hal
    if hal.backend in ("mcu", "gpio") and hal.wiring is None:
        fail("hal.wiring", f"required when hal.backend is {hal.backend!r} (which sensor is where)")
    if hal.wiring is not None and is_wiring_file(hal.wiring):
        _check_readable("hal.wiring", hal.wiring, fail)
    if hal.backend != "none" and config.game.name is None:
        fail("game.name", f"required when hal.backend is {hal.backend!r} (the table is wired for one game)")
    if config.game.name is not None:
        _check_game(config.game, fail)


def _check_url(url: str, fail: Any) -> None:
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # e.g. an unclosed IPv6 bracket
        fail("mqtt.url", f"not a valid URL ({exc}): {show(url)}")
        return
    if parts.scheme not in ("mqtt", "mqtts", "tcp", "ssl"):
        fail("mqtt.url", f"scheme must be mqtt:// or mqtts://, got {show(url)}")
    if not parts.hostname:
        fail("mqtt.url", f"has no host: {show(url)}")
    try:
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        fail("mqtt.url", f"port must be an integer from 1 to 65535: {show(url)}")
    if parts.path not in ("", "/"):
        fail("mqtt.url", "must not have a path (the topics come from mqtt.base_topic)")


def _url_user(url: str | None) -> str | None:
    user = urlsplit(url).username if url else None
    return unquote(user) if user else None


def _check_readable(key: str, value: str, fail: Any) -> None:
    p = Path(value)
    try:
        is_file = p.is_file()
    except OSError as exc:  # e.g. a name too long for the file system
        fail(key, f"cannot use {show(value)}: {exc.strerror or exc}")
        return
    if not is_file:
        fail(key, f"no such file: {value}")
    elif not os.access(p, os.R_OK):
        fail(key, f"file not readable by this user: {value}")


def _check_game(game: GameConfig, fail: Any) -> None:
    import rules
    from firmware_bridge.service.options import OptionsError, check_options

    try:
        g = rules.load(game.name or "")
    except KeyError:
        known = ", ".join(rules.available()) or "none"
        fail("game.name", f"unknown game {show(game.name)} (available: {known})")
        return
    if not g.min_players <= game.players <= g.max_players:
        fail("game.players", f"{g.title} takes {g.min_players} to {g.max_players} players, "
                             f"got {game.players}")
    try:
        check_options(g, game.options)
    except OptionsError as exc:
        fail(f"game.options.{exc.option}" if exc.option else "game.options", exc.reason)


def broker(config: Config) -> Broker:
    """The broker address and credentials, from ``mqtt.url`` or ``mqtt.host``/``port`` (default localhost)."""
    m = config.mqtt
    username, password = m.username, m.password
    if m.url:
        parts = urlsplit(m.url)
        tls = parts.scheme in ("mqtts", "ssl") or m.tls
        host = parts.hostname or "localhost"
        port = parts.port or m.port or (8883 if tls else 1883)
        username = unquote(parts.username) if parts.username else username
        password = unquote(parts.password) if parts.password else password
    else:
        tls = m.tls
        host = m.host or "localhost"
        port = m.port or (8883 if tls else 1883)
    if m.password_file:
        password = Path(m.password_file).read_text(encoding="utf-8").strip()
    return Broker(host, port, tls, username, password, configured=bool(m.url or m.host or m.port))


def token(config: Config) -> str | None:
    """The command token (``web.token`` or the first line of ``web.token_file``)."""
    if config.web.token_file:
        return Path(config.web.token_file).read_text(encoding="utf-8").strip() or None
    return config.web.token
