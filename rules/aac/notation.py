"""Move notation: one decision per line, ``kind arg arg ...``, round-tripping exactly.

Examples: ``slide aureon.0a``, ``exhaust 3 bottom rose``, ``use 1 0``,
``deploy 4``, ``place compass mon:forge:2``, ``step library.fork``,
``bind pillar mathematics.1``, ``claim 2+4 compass+rose``,
``load 1 top magnet exhausted``, ``reveal II.3``, ``pass``.
Lists are joined with ``+``; an empty list is ``-``. Arguments never contain
spaces, so a line splits on whitespace.
"""

from __future__ import annotations

from rules.core.api import Action, NotationError

# kind -> ((field, type), ...); type is int, str or "ints"/"strs" for lists
SPECS: dict[str, tuple[tuple[str, object], ...]] = {
    "slide": (("tile", str),),
    "exhaust": (("pos", int), ("row", str), ("energy", str)),
    "use": (("token_pos", int), ("alt", int)),
    "pass": (),
    "deploy": (("pos", int),),
    "place": (("energy", str), ("dest", str)),
    "move": (("target", str),),
    "step": (("space", str),),
    "skip": (("space", str),),
    "bridge": (("space", str),),
    "bind": (("track", str), ("target", str)),
    "track_place": (("track", str), ("energy", str), ("source", str)),
    "track_up": (("track", str),),
    "lift": (("source", str),),
    "claim": (("slots", "ints"), ("pay", "strs")),
    "replace": (("tile", str), ("old", str)),
    "gift": (("energy", str), ("source", str)),
    "reveal": (("tile", str),),
    "load": (("pos", int), ("row", str), ("energy", str), ("source", str)),
    "gain": (("energy", str),),
    "reward": (("choice", str),),
    "bind_select": (("energy", str),),
    "handle": (("energy", str), ("how", str)),
    "magnet": (("pos", int), ("row", str)),
    "resolve": (("monument", str),),
    "patron": (("monument", str),),
    "replenish": (("pos", int),),
    "bridge_place": (("space", str), ("face", str)),
    "upgrade": (("token", str),),
    "take_conduit": (("icon", str), ("pos", int)),
    "conduit_move": (("icon", str),),
    "pick_benefit": (("monument", str),),
    "ability": (("name", str), ("arg", str)),
    "add": (("energy", str), ("source", str), ("dest", str)),
}

ACTION_FIELDS: dict[str, tuple[str, ...]] = {k: tuple(f for f, _ in v) for k, v in SPECS.items()}


def _fmt(value: object, kind: object) -> str:
    if kind in ("ints", "strs"):
        items = list(value)  # type: ignore[call-overload]
        return "+".join(str(v) for v in items) if items else "-"
    text = str(value)
    if not text or any(c.isspace() for c in text):
        raise NotationError(f"argument {value!r} cannot be written in notation")
    return text


def check_args(action: Action) -> None:
    """Each argument has its field's type, so the action writes as notation that reads back the same.

    JSON from outside (an MQTT ``move``) is checked with this: ``true`` is not a position even though
    ``True == 1`` in Python, and ``0`` is not a space name."""
    spec = SPECS.get(action.kind)
    if spec is None or len(spec) != len(action.args):
        raise NotationError(f"not an An Age Contrived action: {action!r}")
    for value, (name, kind) in zip(action.args, spec):
        if kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif kind is str:
            ok = _word_ok(value)
        elif kind == "ints":
            ok = isinstance(value, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        else:
            ok = isinstance(value, tuple) and all(_word_ok(v) and "+" not in v and v != "-" for v in value)
        if not ok:
            expected = {int: "a number", str: "a word", "ints": "a list of numbers"}.get(kind, "a list of words")
            raise NotationError(f"{action.kind}: {name} must be {expected}, got {value!r}")


def _word_ok(value: object) -> bool:
    return isinstance(value, str) and bool(value) and not any(c.isspace() for c in value)


def format_action(action: Action) -> str:
    spec = SPECS.get(action.kind)
    if spec is None or len(spec) != len(action.args):
        raise NotationError(f"not an An Age Contrived action: {action!r}")
    check_args(action)
    parts = [action.kind] + [_fmt(v, t) for v, (_, t) in zip(action.args, spec)]
    return " ".join(parts)


def parse_action(text: str) -> Action:
    words = text.split()
    if not words:
        raise NotationError("empty move")
    kind = words[0]
    spec = SPECS.get(kind)
    if spec is None:
        raise NotationError(f"unknown move {kind!r}; moves are: {', '.join(sorted(SPECS))}")
    if len(words) - 1 != len(spec):
        names = " ".join(f"<{f}>" for f, _ in spec)
        raise NotationError(f"{kind!r} takes {len(spec)} argument(s): {kind} {names}".rstrip())
    args: list[object] = []
    for word, (name, t) in zip(words[1:], spec):
        if t is int:
            try:
                args.append(int(word))
            except ValueError:
                raise NotationError(f"{kind}: {name} must be a number, got {word!r}") from None
        elif t == "ints":
            try:
                args.append(tuple(int(w) for w in word.split("+")) if word != "-" else ())
            except ValueError:
                raise NotationError(f"{kind}: {name} must be numbers joined by '+', got {word!r}") from None
        elif t == "strs":
            items = tuple(word.split("+")) if word != "-" else ()
            if any(not item or item == "-" for item in items):
                raise NotationError(f"{kind}: {name} must be words joined by '+' (or '-' for none), got {word!r}")
            args.append(items)
        else:
            args.append(word)
    return Action(kind, tuple(args))
