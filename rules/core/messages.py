"""Player-facing messages that can be shown in any supported language.

Messages are gettext-style: the English text is the message id, with
``{name}`` placeholders filled from parameters. A parameter may itself be a
``Msg`` (a game term such as an energy type), so it is translated too.
Translations are gettext catalogues (``.po`` files) that each game registers
for its domain; rendering is lazy, so rules code never does I/O.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEFAULT_DOMAIN = "aetherlink"

# domain -> lang -> msgid -> translated text
_catalogues: dict[str, dict[str, dict[str, str]]] = {}
# domain -> loader(lang) returning a msgid->text mapping (loaded on first use)
_loaders: dict[str, Callable[[str], dict[str, str]]] = {}
_lock = threading.Lock()

SUPPORTED_LANGS = ("en", "fr")


class Msg:
    """A translatable message: English text as id, plus parameters."""

    __slots__ = ("domain", "params", "text")

    def __init__(self, text: str, domain: str = DEFAULT_DOMAIN, **params: Any):
        self.text = text
        self.domain = domain
        self.params = params

    def render(self, lang: str = "en") -> str:
        template = translate(self.text, lang, self.domain)
        if not self.params:
            return template
        values = {k: (v.render(lang) if isinstance(v, Msg) else v) for k, v in self.params.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return self.text.format(**{k: (v.render("en") if isinstance(v, Msg) else v)
                                       for k, v in self.params.items()})

    def __str__(self) -> str:
        return self.render("en")

    def __repr__(self) -> str:
        return f"Msg({self.render('en')!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.text, self.domain, self.params) == (
            other.text, other.domain, other.params)

    def __hash__(self) -> int:
        return hash((self.text, self.domain))

    @staticmethod
    def join(parts: list[Msg], sep: str = "; ") -> Msg:
        """Several messages shown as one, each translated on its own."""
        if len(parts) == 1:
            return parts[0]
        template = sep.join(f"{{p{i}}}" for i in range(len(parts)))
        return Msg(template, DEFAULT_DOMAIN, **{f"p{i}": m for i, m in enumerate(parts)})

    def to_json(self, langs: tuple[str, ...] = SUPPORTED_LANGS) -> dict[str, str]:
        return {lang: self.render(lang) for lang in langs}


_locale_dirs: list[Path] = []


def add_locale_dir(path: Path) -> None:
    """Add a ``locale`` directory (``<lang>/LC_MESSAGES/*.po``) to the default domain."""
    with _lock:
        if path not in _locale_dirs:
            _locale_dirs.append(path)
            _catalogues.pop(DEFAULT_DOMAIN, None)


def _package_locale_dirs() -> list[Path]:
    """The ``locale`` directories of every package under ``rules`` (static data, read lazily)."""
    import rules

    out = []
    for root in rules.__path__:
        base = Path(root)
        out.extend(sorted(p for p in base.glob("*/locale") if p.is_dir()))
    return out


def load_po_catalogues(lang: str) -> dict[str, str]:
    """All translations for ``lang`` from the gettext ``.po`` files of the registered locale directories."""
    from babel.messages.pofile import read_po

    table: dict[str, str] = {}
    for directory in [*_package_locale_dirs(), *_locale_dirs]:
        for po in sorted((directory / lang / "LC_MESSAGES").glob("*.po")):
            with po.open("rb") as fh:
                catalog = read_po(fh, locale=lang)
            for message in catalog:
                if message.id and message.string and not message.fuzzy and isinstance(message.id, str):
                    table[message.id] = str(message.string)
    return table


def register_domain(domain: str, loader: Callable[[str], dict[str, str]]) -> None:
    """Register how to load a domain's translations for a language."""
    with _lock:
        _loaders[domain] = loader
        _catalogues.pop(domain, None)


def translate(text: str, lang: str, domain: str = DEFAULT_DOMAIN) -> str:
    if lang == "en":
        return text
    by_lang = _catalogues.get(domain)
    if by_lang is None or lang not in by_lang:
        loader = _loaders.get(domain) or (load_po_catalogues if domain == DEFAULT_DOMAIN else None)
        table = loader(lang) if loader else {}
        with _lock:
            _catalogues.setdefault(domain, {})[lang] = table
        by_lang = _catalogues[domain]
    return by_lang[lang].get(text) or text


def N_(text: str) -> str:
    """Mark a string as a message id for extraction, where it is wrapped in ``Msg`` later."""
    return text


def render(value: Msg | str, lang: str = "en") -> str:
    return value.render(lang) if isinstance(value, Msg) else value
