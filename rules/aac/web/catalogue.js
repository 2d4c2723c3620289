// The An Age Contrived component data for drawing, straight from the catalogue files
// (data/aac.yaml and its edition overlays, served as JSON by the web server): tiles' slots
// and icons, action token faces, monument sections, benefits, the map. Nothing is copied here.

/** Overlay catalogue data on a base, as rules/aac/catalogue.py merge() does. */
export function merge(base, overlay) {
  if (isObject(base) && isObject(overlay)) {
    const out = { ...base };
    for (const [key, value] of Object.entries(overlay)) out[key] = key in base ? merge(base[key], value) : value;
    return out;
  }
  const records = (list) => list.every((item) => isObject(item) && "id" in item);
  if (Array.isArray(base) && Array.isArray(overlay) && overlay.length && records(base) && records(overlay)) {
    const byId = new Map(overlay.map((item) => [item.id, item]));
    const merged = [];
    for (const item of base) {
      if (!byId.has(item.id)) {
        merged.push(item);
        continue;
      }
      const update = byId.get(item.id);
      byId.delete(item.id);
      if (!update.remove) merged.push(merge(item, update));
    }
    for (const item of byId.values()) if (!item.remove) merged.push(item);
    return merged;
  }
  return overlay;
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function byId(list, key = "id") {
  return Object.fromEntries((list || []).map((item) => [item[key], item]));
}

/** Lookups over one edition's data. */
export class Catalogue {
  constructor(data) {
    this.data = data;
    this.characters = byId(data.characters);
    this.startingTiles = byId(data.starting_tiles, "number");
    this.upgradedTiles = byId(data.upgraded_tiles);
    this.actionTokens = byId([...(data.action_tokens || []), ...(data.upgraded_action_tokens || [])]);
    this.upgradedTokenIds = new Set((data.upgraded_action_tokens || []).map((t) => t.id));
    this.benefitTokens = byId(data.monument_benefit_tokens);
    this.neutralBridges = byId(data.neutral_bridges);
    this.bridgeTokens = Object.fromEntries((data.bridge_tokens || []).map((t) => [t.tier, byId(t.faces)]));
    this.monuments = byId(data.monuments);
    this.pillars = byId(data.pillars);
    this.achievements = byId(data.achievements);
    this.map = data.map || { regions: [], spaces: [], bridges: [], paths: [] };
    this.startSpaces = new Set(this.map.spaces.filter((s) => s.start).map((s) => s.id));
    this.bridgeSpaces = new Set(this.map.bridges.map((b) => b.id));
    this.rules = data.rules || {};
  }

  /** A transmuter tile by id: a character's starting tile ("aureon.3") or an upgraded one ("II.4"). */
  tile(id) {
    const upgraded = this.upgradedTiles[id];
    if (upgraded) return { id, label: id, top: upgraded.top, bottom: upgraded.bottom, icons: upgraded.icons || {}, tier: upgraded.tier };
    const dot = id.indexOf(".");
    const number = dot >= 0 ? id.slice(dot + 1) : id;
    const start = this.startingTiles[number];
    if (start) return { id, label: number, top: start.top, bottom: start.bottom, icons: start.icons || {}, tier: 0 };
    return { id, label: id, top: 1, bottom: 1, icons: {}, tier: 0 };
  }

  /** The neighbours of a map space. */
  neighbours(space) {
    const out = [];
    for (const [a, b] of this.map.paths) {
      if (a === space) out.push(b);
      else if (b === space) out.push(a);
    }
    return out;
  }
}

/** Load the English data and the overlays; ``edition(name)`` gives a merged Catalogue. */
export async function loadCatalogues(base) {
  const get = async (file) => {
    const response = await fetch(`${base}data/${file}.json`);
    if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
    return response.json();
  };
  const english = await get("aac");
  const overlays = { fr: await get("aac.fr") };
  const cache = new Map();
  return {
    english,
    overlays,
    edition(name) {
      if (!cache.has(name)) {
        const overlay = overlays[name];
        const data = overlay ? merge(english, Object.fromEntries(Object.entries(overlay).filter(([k]) => k !== "base"))) : english;
        cache.set(name, new Catalogue(data));
      }
      return cache.get(name);
    },
  };
}
