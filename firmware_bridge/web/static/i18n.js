// UI strings in small JSON catalogues (i18n/<lang>.json). Game messages (questions, reasons)
// arrive already rendered in the board's language (game.lang).

export const LANGUAGES = ["en", "fr"];

export class I18n {
  constructor() {
    this.lang = "en";
    this.strings = {};
    this.fallback = {};
  }

  async load(lang) {
    const wanted = LANGUAGES.includes(lang) ? lang : "en";
    const fetchStrings = async (code) => (await fetch(`/static/i18n/${code}.json`)).json();
    if (!Object.keys(this.fallback).length) this.fallback = await fetchStrings("en");
    this.strings = wanted === "en" ? this.fallback : await fetchStrings(wanted);
    this.lang = wanted;
    document.documentElement.lang = wanted;
  }

  /** The string for key with {placeholders} filled in. */
  t(key, params = {}) {
    const text = this.strings[key] ?? this.fallback[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }
}

/** The language to start with: ?lang=, then the last choice, then the browser's. */
export function initialLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(asked)) return asked;
  const saved = localStorage.getItem("aetherlink.lang");
  if (LANGUAGES.includes(saved)) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}
