// SVG pieces of An Age Contrived: energy tokens with their type symbols, tiles, icons.
// Hand-drawn shapes; one hidden sprite holds the symbols every picture uses.

export const CHARACTER_COLOURS = {
  red: "#d9483f", orange: "#ef8a24", teal: "#16a3a0", green: "#4aa64a", purple: "#9b5fcf",
};
export const NEUTRAL = "#9c8456";
export const BLOCKED = "#6c7280";

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function star(points, outer, inner) {
  const out = [];
  for (let i = 0; i < points * 2; i += 1) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI * i) / points - Math.PI / 2;
    out.push(`${(r * Math.cos(a)).toFixed(2)},${(r * Math.sin(a)).toFixed(2)}`);
  }
  return `M${out.join(" L")} Z`;
}

function petals() {
  let out = "";
  for (let i = 0; i < 5; i += 1) {
    const a = (2 * Math.PI * i) / 5 - Math.PI / 2;
    out += `<circle cx="${(4.3 * Math.cos(a)).toFixed(2)}" cy="${(4.3 * Math.sin(a)).toFixed(2)}" r="3.4"/>`;
  }
  return out + '<circle r="2.2" fill-opacity="0.55"/>';
}

const SYMBOLS = {
  "e-compass": `<path d="${star(4, 8.5, 2.4)}"/>`,
  "e-magnet": '<path d="M-7,-8 h5 v7 a2,2 0 0 0 4,0 v-7 h5 v7 a7,7 0 0 1 -14,0 z"/>',
  "e-rose": petals(),
  "e-wild": `<path d="${star(8, 8.5, 3.6)}"/>`,
  "e-any": '<text y="5" text-anchor="middle" font-size="15" font-weight="700">?</text>',
  "i-boot": '<path d="M-6,-8 h6 v8 h4 a3,3 0 0 1 3,3 v4 h-13 z"/>',
  "i-monument": '<path d="M-3,-9 h6 l1.2,13 h3 v5 h-14.4 v-5 h3 z"/>',
  "i-pillar": '<path d="M-7,-9 h14 v3 h-2.5 v10 h2.5 v5 h-14 v-5 h2.5 v-10 h-2.5 z"/>',
};

/** The hidden sprite with every symbol (put once in the page). */
export function sprite() {
  const symbols = Object.entries(SYMBOLS)
    .map(([id, body]) => `<symbol id="aac-${id}" viewBox="-10 -10 20 20">${body}</symbol>`).join("");
  return `<svg class="aac-sprite" aria-hidden="true" width="0" height="0" style="position:absolute">${symbols}</svg>`;
}

export function use(symbol, x, y, size, cls = "") {
  return `<use href="#aac-${symbol}" x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}"${cls ? ` class="${cls}"` : ""}/>`;
}

/** An energy token: the owner's colour, the type's symbol. */
export function energy(x, y, r, colour, type, title, attrs = "") {
  return `<g class="energy" data-type="${esc(type)}" ${attrs}><title>${esc(title)}</title>
    <circle cx="${x}" cy="${y}" r="${r}" fill="${colour}" stroke="#0008" stroke-width="1.2"/>
    ${use(`e-${type}`, x, y, r * 1.45, "glyph")}</g>`;
}

/** An empty space that takes energy (optionally of a given type). */
export function space(x, y, r, type, title, attrs = "") {
  const glyph = type ? use(`e-${type}`, x, y, r * 1.35, "hint") : "";
  return `<g class="slot" ${attrs}><title>${esc(title)}</title>
    <circle cx="${x}" cy="${y}" r="${r}" class="slot-ring"/>${glyph}</g>`;
}

export function icon(kind, x, y, size, title = "") {
  return `<g class="icon icon-${esc(kind)}">${title ? `<title>${esc(title)}</title>` : ""}${use(`i-${kind}`, x, y, size)}</g>`;
}

export const TILE_W = 70;
export const TILE_H = 104;

/**
 * A transmuter tile at (x, y): gold strip on top, top-row slots, icons, bottom-row slots.
 * ``rows`` = {top: [types], bottom: [types]}; ``colour`` of the energy's owner; ``t`` translates.
 */
export function tile(info, rows, x, y, colour, t, extra = {}) {
  const w = TILE_W;
  const h = TILE_H;
  const slotRow = (count, types, cy, row) => {
    const n = Math.max(count, types.length);
    let out = "";
    for (let i = 0; i < n; i += 1) {
      const cx = w / 2 + (i - (n - 1) / 2) * 21;
      const type = types[i];
      const label = `${t("tile", { id: info.label })}, ${t(`slot.${row}`)} ${i + 1}`;
      out += type ? energy(cx, cy, 9, colour, type, `${label}: ${t(`energy.${type}`)}`, `data-row="${row}"`)
        : space(cx, cy, 9, null, `${label}: ${t("empty")}`, `data-row="${row}"`);
    }
    return out;
  };
  const icons = [];
  for (const [kind, count] of Object.entries(info.icons || {})) for (let i = 0; i < count; i += 1) icons.push(kind);
  const iconRow = icons.map((kind, i) => icon(kind, w / 2 + (i - (icons.length - 1) / 2) * 16, 53, 14, t(`icon.${kind}`))).join("");
  const tier = info.tier ? ["", "I", "II", "III"][info.tier] : "";
  return `<g class="tile${extra.dim ? " dim" : ""}" transform="translate(${x},${y})" data-tile="${esc(info.id)}" ${extra.attrs || ""}>
    <title>${esc(t("tile", { id: info.id }))}</title>
    <rect width="${w}" height="${h}" rx="6" class="tile-face${tier ? " upgraded" : ""}"/>
    <path d="M0,6 a6,6 0 0 1 6,-6 h${w - 12} a6,6 0 0 1 6,6 v3 h-${w} z" class="tile-strip"/>
    ${slotRow(info.top, rows?.top || [], 27, "top")}
    ${iconRow}
    ${slotRow(info.bottom, rows?.bottom || [], 79, "bottom")}
    <text x="${w - 5}" y="${h - 5}" text-anchor="end" class="tile-label">${esc(tier ? info.id : info.label)}</text>
  </g>`;
}

/** A small labelled box of energy counts by type (exhausted pool, reserve, tile pool share). */
export function counts(values, colour, t, size = 11) {
  const out = [];
  for (const type of ["compass", "magnet", "rose", "wild"]) {
    const n = values?.[type] ?? 0;
    out.push(`<span class="count${n ? "" : " zero"}" title="${esc(t(`energy.${type}`))}: ${n}">
      <svg viewBox="-12 -12 24 24" width="${size * 2}" height="${size * 2}">${energy(0, 0, 11, n ? colour : "#555b66", type, t(`energy.${type}`))}</svg>
      <b>${n}</b></span>`);
  }
  return out.join("");
}
