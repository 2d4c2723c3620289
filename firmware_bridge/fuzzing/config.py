"""Target ``config``: the configuration loader (``firmware_bridge/config.py: load_config``).

Inputs are TOML files generated from the schema (each section with some of its
keys, values near what they take), then broken: structural mutations (wrong
types, unknown keys and sections, out-of-range values), damaged text (broken
syntax), other encodings (Latin-1, UTF-16, a BOM, random bytes), plus
``AETHERLINK_*`` environment overrides with odd names and values. Contract
(docs/configuration.md): a ``LoadedConfig``, or ``ConfigError`` naming the
source (the file or the variable) and the reason, never another exception; the
environment and the file are not changed, and loading twice gives the same.
"""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi
from hypothesis import strategies as st

from firmware_bridge.config import Config, ConfigError, LoadedConfig, load_config
from firmware_bridge.fuzzing.base import Check, Target, require
from firmware_bridge.fuzzing.mutate import NASTY_WORDS, damaged_text, json_values, mutated

# -- TOML -------------------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string (or invalid TOML: a fine input too)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value if v is not None) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)} = {_toml_value(v)}" for k, v in value.items()
                               if v is not None) + "}"
    return json.dumps(str(value))


def to_toml(doc: Any) -> str:
    """A TOML text for ``doc``: top-level tables as ``[section]`` blocks, deeper ones inline; None is left out
    (TOML has no null), a top level that is not a table becomes one ``value = ...`` line."""
    if not isinstance(doc, dict):
        return f"value = {_toml_value(doc)}\n"
    lines = [f"{json.dumps(str(k), ensure_ascii=False)} = {_toml_value(v)}" for k, v in doc.items()
             if not isinstance(v, dict) and v is not None]
    for key, section in doc.items():
        if isinstance(section, dict):
            lines.append(f"\n[{json.dumps(str(key), ensure_ascii=False)}]")
            lines += [f"{json.dumps(str(k), ensure_ascii=False)} = {_toml_value(v)}"
                      for k, v in section.items() if v is not None]
    return "\n".join(lines) + "\n"


# -- values from the schema ---------------------------------------------------------------------------


def _from_type(t: mi.Type) -> st.SearchStrategy[Any]:
    """Values a schema type takes, with its edges (and a little beyond them)."""
    if isinstance(t, mi.Metadata):
        return _from_type(t.type)
    if isinstance(t, mi.BoolType):
        return st.booleans()
    if isinstance(t, mi.IntType):
        lo = t.ge if t.ge is not None else -(2**63)
        hi = t.le if t.le is not None else 2**63 - 1
        return st.one_of(st.integers(lo, hi), st.sampled_from((lo, hi, lo - 1, hi + 1)))
    if isinstance(t, mi.FloatType):
        low: float = t.ge if t.ge is not None else -1e9
        high: float = t.le if t.le is not None else 1e9
        return st.one_of(st.floats(low, high), st.sampled_from((low, high, low - 0.01, high + 1.0)))
    if isinstance(t, mi.StrType):
        return st.one_of(st.sampled_from(("board1", "aac", "localhost", "mqtt://127.0.0.1:1884", "a/b", "x.yaml",
                                          "aac-5p", "/nonexistent/file", "~nobody-here/x", "a" * 300,
                                          "mqtt://[::1", "mqtt://host:99999", "a\x00b")),
                         st.text(max_size=20), st.sampled_from(NASTY_WORDS))
    if isinstance(t, mi.LiteralType):
        return st.one_of(st.sampled_from(t.values), st.sampled_from([str(v).upper() for v in t.values]))
    if isinstance(t, mi.UnionType):
        return st.one_of([_from_type(x) for x in t.types if not isinstance(x, mi.NoneType)] or [st.none()])
    if isinstance(t, mi.ListType):
        return st.lists(_from_type(t.item_type), max_size=4)
    if isinstance(t, mi.DictType):
        return st.dictionaries(st.one_of(_from_type(t.key_type), st.text(max_size=8)),
                               st.one_of(_from_type(t.value_type), json_values(3)), max_size=3)
    if isinstance(t, mi.StructType):
        return _section(t)
    if isinstance(t, mi.AnyType):
        return json_values(4)
    return json_values(3)


OPTIONS = st.dictionaries(
    st.sampled_from(("edition", "lang", "divine_winds", "characters", "abilities", "expert_setup", "nope")),
    st.one_of(st.booleans(), st.sampled_from(("en", "fr", "de")), st.lists(st.sampled_from(("aureon", "rusne", 1)),
                                                                            max_size=3), json_values(3)),
    max_size=3)


PATHS = st.sampled_from(("/nonexistent/x", "~nobody-here/x", "~/x", "a" * 300, "a\x00b", "", ".", "rel/x.yaml",
                          "/dev/null", "/etc/hostname", "aac-5p", "/"))
# Values for particular keys: the interesting cases of each (valid ones among them).
FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "options": OPTIONS,
    "url": st.sampled_from(("mqtt://127.0.0.1:1884", "mqtts://u:p@host", "mqtt://[::1", "mqtt://[::1]:1883",
                            "mqtt://host:99999", "mqtt://host:0", "mqtt://h:abc", "http://x", "mqtt://", "mqtt://h/path",
                            "mqtt://%zz@h", "mqtt://h:-1", "mqtt://[v1.x]", "//h", "")),
    "wiring": PATHS, "ca": PATHS, "cert": PATHS, "key": PATHS, "password_file": PATHS, "token_file": PATHS,
    "path": PATHS, "ports": st.dictionaries(st.text(max_size=6), PATHS, max_size=2),
    "name": st.sampled_from(("aac", "toe", "AAC", "", "chess", "Aetherlink board")),
    "base_topic": st.sampled_from(("aetherlink", "a/b", "a//b", "a/+", "#", "")),
    "discovery_prefix": st.sampled_from(("homeassistant", "a/b", "/a", "a/")),
}


@st.composite
def _section(draw: st.DrawFn, t: mi.StructType) -> dict[str, Any]:
    """A few of the section's keys (so that most documents get as far as the checks behind the schema)."""
    fields = {f.encode_name: f for f in t.fields}
    chosen = draw(st.lists(st.sampled_from(sorted(fields)), max_size=4, unique=True))
    out: dict[str, Any] = {}
    for name in chosen:
        special = FIELD_VALUES.get(name)
        plain = _from_type(fields[name].type)
        out[name] = draw(st.one_of(special, special, plain) if special is not None else plain)
    return out


def documents() -> st.SearchStrategy[Any]:
    """Configuration documents from the schema, a share of them mutated."""
    info = mi.type_info(Config)
    assert isinstance(info, mi.StructType)
    base = _section(info)
    return st.one_of(base, base.flatmap(lambda d: mutated(d, junk=json_values(4))))


ENV_NAMES = st.one_of(
    st.sampled_from(("AETHERLINK_MQTT__PORT", "AETHERLINK_GAME__PLAYERS", "AETHERLINK_GAME__OPTIONS__DIVINE_WINDS",
                     "AETHERLINK_BOARD__ID", "AETHERLINK_HAL__PORTS__DEV_X", "AETHERLINK_COMMANDS__ALLOW",
                     "AETHERLINK_MQTT__URL", "AETHERLINK_NOPE__X", "AETHERLINK___X", "AETHERLINK_MQTT__",
                     "AETHERLINK_MQTT__PORT__X", "AETHERLINK_BOARD", "AETHERLINK_GAME__NAME",
                     "AETHERLINK_LEDS__PALETTE",
                     "AETHERLINK_LEDS__PALETTE__ACTIVE", "AETHERLINK_WEB__PORT", "AETHERLINK_JOURNAL__PATH")),
    st.text(st.characters(codec="ascii", exclude_characters="\x00="), max_size=12).map(
        lambda s: "AETHERLINK_" + s),
)
ENV_VALUES = st.one_of(st.sampled_from(("1884", "true", "0", "-1", "99999", '["status"]', "[1, 2", "1\nboard = 2",
                                        '"quoted"', "{a = 1}", "1979-05-27", "nan", "inf", "", "aac", "toe")),
                       st.text(st.characters(exclude_characters="\x00", exclude_categories=["Cs"]), max_size=20))


@st.composite
def _file(draw: st.DrawFn) -> bytes:
    doc = draw(documents())
    text = to_toml(doc)
    how = draw(st.sampled_from(("plain",) * 10 + ("damaged", "damaged", "latin1", "utf16", "bom", "bytes")))
    if how == "damaged":
        return draw(damaged_text(text)).encode("utf-8", "surrogatepass")
    if how == "latin1":
        return text.encode("latin-1", "replace") + "# é\n".encode("latin-1")
    if how == "utf16":
        return text.encode("utf-16")
    if how == "bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    if how == "bytes":
        return draw(st.binary(max_size=200))
    return text.encode("utf-8")


def inputs() -> st.SearchStrategy[tuple[bytes, dict[str, str]]]:
    """(the file's bytes, environment variables)."""
    return st.tuples(_file(), st.dictionaries(ENV_NAMES, ENV_VALUES, max_size=3))


# -- contract ----------------------------------------------------------------------------------------


def _outcome(path: Path, env: dict[str, str]) -> LoadedConfig | ConfigError:
    try:
        return load_config(path, environ=env, system_path=path.parent / "absent.toml")
    except ConfigError as exc:
        return exc


def _same(a: LoadedConfig | ConfigError, b: LoadedConfig | ConfigError) -> bool:
    if isinstance(a, ConfigError) or isinstance(b, ConfigError):
        return str(a) == str(b)
    return msgspec.to_builtins(a.config) == msgspec.to_builtins(b.config) and a.overrides == b.overrides


def check_load(folder: Path, data: bytes, env: dict[str, str]) -> None:
    path = folder / "config.toml"
    path.write_bytes(data)
    env_before = dict(env)
    first = _outcome(path, env)
    require(env == env_before, "load_config changed the environment it was given")
    require(path.read_bytes() == data, "load_config changed the file")
    if isinstance(first, ConfigError):
        require(bool(first.source) and bool(first.reason), f"ConfigError without source or reason: {first!r}")
        require(first.source == str(path) or first.source.startswith("environment variable AETHERLINK_"),
                f"ConfigError names neither the file nor a variable: {first.source!r}")
        require(str(first).startswith(first.source), f"message does not start with its source: {first}")
        if first.key:
            require(f": {first.key}: " in str(first), f"message does not name the key {first.key!r}: {first}")
    second = _outcome(path, env)
    require(_same(first, second), f"loading twice differs: {first!r} / {second!r}")


def _open() -> Any:
    @contextmanager
    def opened() -> Iterator[Check]:
        with tempfile.TemporaryDirectory(prefix="aetherlink-fuzz-config-") as folder:

            def check(example: tuple[bytes, dict[str, str]]) -> None:
                check_load(Path(folder), *example)

            yield check

    return opened()


TARGETS = [Target("config", "configuration files and environment overrides (firmware_bridge/config.py)",
                  inputs, _open, per_example=5.0)]
