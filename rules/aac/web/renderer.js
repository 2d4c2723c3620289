// The web renderer of An Age Contrived: draws the whole table from the state document's
// "table" (the engine's to_json()) with the catalogue's component data.
//
// Contract with the generic page (firmware_bridge/web/static/app.js):
//   createRenderer({root, base, lang}) -> {render(doc, leds), setLang(lang), seat(name, index), category(id)}

import { achievementsHtml, mapSvg, monumentsHtml, pillarsHtml, poolSvg, supplyHtml } from "./board.js";
import { loadCatalogues } from "./catalogue.js";
import { playersHtml } from "./device.js";
import { CHARACTER_COLOURS, esc, sprite } from "./svg.js";

const PARTS = [
  ["map", "aac-map-panel", mapSvg],
  ["monuments", "aac-monuments-panel", monumentsHtml],
  ["pool", "aac-pool-panel", poolSvg],
  ["achievements", "aac-achievements-panel", achievementsHtml],
  ["pillars", "aac-pillars-panel", pillarsHtml],
  ["supply", "aac-supply-panel", supplyHtml],
  ["players", "aac-players-panel", playersHtml],
];

export async function createRenderer({ root, base, lang }) {
  const getJson = async (file) => {
    const response = await fetch(`${base}${file}`);
    if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
    return response.json();
  };
  const [catalogues, layout, strings] = await Promise.all([loadCatalogues(base), getJson("layout.json"),
    getJson("i18n.json")]);
  if (!document.querySelector(`link[data-renderer="aac"]`)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = `${base}aac.css`;
    link.dataset.renderer = "aac";
    // drawn before its stylesheet has loaded, the board shows unstyled for a moment (a 1920x1080 screen saw
    // the map 1494 px tall before the large-screen layout applied): wait for it (a failed load is the
    // browser's console error; the page is drawn anyway)
    const loaded = new Promise((resolve) => {
      link.addEventListener("load", resolve, { once: true });
      link.addEventListener("error", resolve, { once: true });
    });
    document.head.append(link);
    await loaded;
  }
  return new AacRenderer(root, catalogues, layout, strings, lang);
}

class AacRenderer {
  constructor(root, catalogues, layout, strings, lang) {
    this.root = root;
    this.catalogues = catalogues;
    this.layout = layout;
    this.strings = strings;
    this.lang = lang in strings ? lang : "en";
    this.doc = null;
    this.build();
  }

  t(key, params = {}) {
    const text = this.strings[this.lang]?.[key] ?? this.strings.en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }

  /** The catalogue of the game's rules edition; names in the page's language. */
  catalogue(doc) {
    return this.catalogues.edition(doc?.table?.edition || "en");
  }

  names() {
    return this.catalogues.edition(this.lang === "fr" ? "fr" : "en");
  }

  build() {
    this.root.innerHTML = `${sprite()}<div class="aac">${PARTS.map(([key, cls]) => `
      <section class="aac-panel ${cls}"><h3>${esc(this.t(key))}</h3><div class="aac-part" data-part="${key}"></div></section>`).join("")}</div>`;
    this.parts = Object.fromEntries(PARTS.map(([key]) => [key, this.root.querySelector(`[data-part="${key}"]`)]));
    this.cache = {};
  }

  setLang(lang) {
    this.lang = lang in this.strings ? lang : "en";
    this.build();
    if (this.doc) this.render(this.doc);
  }

  /** A seat's character name and colour (the generic page shows seats with them). */
  seat(name) {
    const ch = this.names().characters[name];
    return ch ? { label: ch.name, colour: CHARACTER_COLOURS[ch.colour] || "#888" } : null;
  }

  category(id) {
    const key = `category.${id}`;
    return this.strings[this.lang]?.[key] ?? this.strings.en[key] ?? null;
  }

  model(doc) {
    const table = doc.table;
    const cat = this.catalogue(doc);
    const names = this.names();
    const players = table.players;
    const regionOfSpace = Object.fromEntries(cat.map.spaces.map((s) => [s.id, s.region]));
    return {
      doc,
      table,
      cat,
      layout: this.layout,
      t: (key, params) => this.t(key, params),
      colour: (seat) => CHARACTER_COLOURS[cat.characters[players[seat]?.character]?.colour] || "#888",
      name: (seat) => names.characters[players[seat]?.character]?.name || players[seat]?.character || `#${seat}`,
      monumentName: (id) => names.monuments[id]?.name || cat.monuments[id]?.name || id,
      pillarName: (id) => names.pillars[id]?.name || cat.pillars[id]?.name || id,
      regionOf: (space) => regionOfSpace[space] || (space.startsWith("bp.") ? space.slice(3).split("-")[0] : ""),
    };
  }

  render(doc) {
    this.doc = doc;
    if (doc?.game?.name !== "aac" || !doc.table) return;
    const model = this.model(doc);
    for (const [key, , draw] of PARTS) {
      const html = draw(model);
      if (this.cache[key] !== html) {
        this.cache[key] = html;
        this.parts[key].innerHTML = html;
      }
    }
    this.root.dataset.seq = doc.seq;
  }
}
