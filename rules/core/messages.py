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

    def to_json(self, langs: tuple[str, ...] = SUPPORTED_LANGS) -> dict[str, str]:
        return {lang: self.render(lang) for lang in langs}


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
        loader = _loaders.get(domain)
        table = loader(lang) if loader else {}
        with _lock:
            _catalogues.setdefault(domain, {})[lang] = table
        by_lang = _catalogues[domain]
    return by_lang[lang].get(text) or text


def render(value: Msg | str, lang: str = "en") -> str:
    return value.render(lang) if isinstance(value, Msg) else value
