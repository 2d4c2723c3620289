// The game board of An Age Contrived: the map (regions, spaces, bridges, characters and their
// facing), the monuments, the tile pool and deck, achievements, pillars and the supply.
// Every function takes the model built by renderer.js and returns markup.

import { BLOCKED, NEUTRAL, TILE_H, TILE_W, energy, esc, icon, space, tile, use } from "./svg.js";

const ROMAN = ["", "I", "II", "III", "IV", "V"];

/** Text of a benefit (monument benefit tokens, bridge token faces). */
export function benefitText(m, benefit, short = false) {
  if (!benefit) return "";
  const energyName = benefit.energy ? m.t(`energy.${benefit.energy}`) : m.t("energy.any");
  return m.t(`${short ? "short" : "benefit"}.${benefit.kind}`, { count: benefit.count ?? 1, energy: energyName });
}

function owner(m, seat) {
  if (seat == null || seat < 0) return { colour: NEUTRAL, name: m.t("neutral_bridge") };
  if (seat >= m.table.players.length) return { colour: BLOCKED, name: m.t("blocked") };
  return { colour: m.colour(seat), name: m.name(seat) };
}

function ownedEnergy(m, x, y, r, item, where) {
  const [seat, type] = item;
  const who = owner(m, seat);
  return energy(x, y, r, who.colour, type, `${who.name}: ${m.t(`energy.${type}`)}${where ? ` (${where})` : ""}`,
    `data-owner="${esc(seat)}"`);
}

// -- the map -------------------------------------------------------------------------------------

function regionOfMonument(m) {
  const out = {};
  for (const id of m.table.board.monuments.map((x) => x.id)) out[m.cat.monuments[id]?.region ?? id] = id;
  return out;
}

function bridgeToken(m, id, value, x, y) {
  const [seat, tier, face] = value;
  const who = owner(m, seat);
  let label;
  let title;
  if (seat < 0) {
    const benefit = m.cat.neutralBridges[face]?.benefit;
    label = benefitText(m, benefit, true);
    title = `${m.t("neutral_bridge")} ${face}: ${benefitText(m, benefit)}`;
  } else {
    const benefit = m.cat.bridgeTokens[tier]?.[face]?.benefit;
    label = `${ROMAN[tier] || tier}${face}`;
    title = m.t("bridge_token", { name: who.name, tier: ROMAN[tier] || tier, face }) + (benefit ? `: ${benefitText(m, benefit)}` : "");
  }
  return `<g class="bridge-token" data-bridge="${esc(id)}" data-owner="${esc(seat)}" data-face="${esc(face)}">
    <title>${esc(title)}</title>
    <rect x="${x - 27}" y="${y - 15}" width="54" height="30" rx="6" fill="${who.colour}" stroke="#111a" stroke-width="1.5"/>
    <text x="${x}" y="${y + 5}" text-anchor="middle" class="bridge-label">${esc(label)}</text></g>`;
}

function pawns(m, spaces) {
  const bySpace = new Map();
  m.table.players.forEach((p, seat) => {
    if (!p.space) return;
    if (!bySpace.has(p.space)) bySpace.set(p.space, []);
    bySpace.get(p.space).push(seat);
  });
  let out = "";
  for (const [spaceId, seats] of bySpace) {
    const at = spaces[spaceId];
    if (!at) continue;
    seats.forEach((seat, i) => {
      const spread = seats.length > 1 ? 15 : 0;
      const angle = (2 * Math.PI * i) / seats.length - Math.PI / 2;
      const x = at[0] + spread * Math.cos(angle);
      const y = at[1] + spread * Math.sin(angle);
      out += pawn(m, seat, x, y, spaces);
    });
  }
  return out;
}

/** A character miniature with an arrow showing where it faces (away from where it came from). */
function pawn(m, seat, x, y, spaces) {
  const p = m.table.players[seat];
  const at = spaces[p.space];
  let from = p.came_from ? spaces[p.came_from] : null;
  if (!from && m.cat.startSpaces.has(p.space)) {
    const next = m.cat.neighbours(p.space)[0];
    from = next && spaces[next] ? [2 * at[0] - spaces[next][0], 2 * at[1] - spaces[next][1]] : null;
  }
  let arrow = "";
  let facing = "";
  if (from && (from[0] !== at[0] || from[1] !== at[1])) {
    const dx = at[0] - from[0];
    const dy = at[1] - from[1];
    const len = Math.hypot(dx, dy);
    const ux = dx / len;
    const uy = dy / len;
    const tip = [x + ux * 31, y + uy * 31];
    const base = [x + ux * 13, y + uy * 13];
    const side = [-uy * 10, ux * 10];
    arrow = `<path class="facing" d="M${tip[0].toFixed(1)},${tip[1].toFixed(1)} L${(base[0] + side[0]).toFixed(1)},${(base[1] + side[1]).toFixed(1)} L${(base[0] - side[0]).toFixed(1)},${(base[1] - side[1]).toFixed(1)} Z" stroke="${m.colour(seat)}"/>`;
    facing = `data-facing="${Math.round((Math.atan2(uy, ux) * 180) / Math.PI)}"`;
  }
  const name = m.name(seat);
  return `<g class="pawn" data-character="${esc(p.character)}" data-seat="${seat}" data-space="${esc(p.space)}" ${facing}>
    <title>${esc(name)}: ${esc(m.t("space", { id: p.space }))}</title>${arrow}
    <circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="14" fill="${m.colour(seat)}" stroke="#fff" stroke-width="2.5"/>
    <text x="${x.toFixed(1)}" y="${(y + 5).toFixed(1)}" text-anchor="middle" class="pawn-label">${esc(name.slice(0, 1))}</text></g>`;
}

export function mapSvg(m) {
  const layout = m.layout;
  const spaces = layout.spaces;
  const r = layout.space_radius;
  const inPlay = regionOfMonument(m);
  const board = m.table.board;
  const monuments = Object.fromEntries(board.monuments.map((x) => [x.id, x]));
  let regions = "";
  let labels = "";
  for (const region of m.cat.map.regions) {
    const place = layout.regions[region.id];
    if (!place) continue;
    const active = region.id in inPlay;
    const shape = place.shape.circle
      ? `<circle cx="${place.shape.circle[0]}" cy="${place.shape.circle[1]}" r="${place.shape.circle[2]}"`
      : `<path d="${place.shape.path}"`;
    regions += `${shape} class="region region-${esc(region.id)}${active ? "" : " idle"}" data-region="${esc(region.id)}"/>`;
    labels += `<text x="${place.label[0]}" y="${place.label[1]}" text-anchor="middle" class="region-label">${esc(m.t(`region.${region.id}`))}</text>`;
    if (!active) {
      labels += `<text x="${place.label[0]}" y="${place.label[1] + 18}" text-anchor="middle" class="region-note">${esc(m.t("not_in_play"))}</text>`;
    } else {
      const mon = monuments[inPlay[region.id]];
      const total = m.cat.monuments[mon.id]?.sections.length ?? 0;
      const [mx, my] = place.monument;
      labels += `<g class="map-monument" data-monument="${esc(mon.id)}"><title>${esc(m.monumentName(mon.id))}</title>
        ${icon("monument", mx - 10, my, 22)}<text x="${mx + 4}" y="${my + 6}" class="map-count">${Math.min(mon.section, total)}/${total}</text></g>`;
    }
    const pillar = Object.values(m.cat.pillars).find((p) => p.region === region.id);
    if (pillar && place.pillar) {
      const filled = board.pillars[pillar.id] || [];
      const [px, py] = place.pillar;
      const dots = filled.map((item, i) => `<circle cx="${px + 14 + i * 13}" cy="${py}" r="5" fill="${item ? owner(m, item[0]).colour : "none"}" class="pillar-dot"/>`).join("");
      labels += `<g class="map-pillar" data-pillar="${esc(pillar.id)}"><title>${esc(m.pillarName(pillar.id))}</title>
        ${icon("pillar", px - 4, py, 18)}${dots}</g>`;
    }
  }
  let paths = "";
  for (const [a, b] of m.cat.map.paths) {
    if (!spaces[a] || !spaces[b]) continue;
    const broken = m.cat.bridgeSpaces.has(a) || m.cat.bridgeSpaces.has(b);
    paths += `<line x1="${spaces[a][0]}" y1="${spaces[a][1]}" x2="${spaces[b][0]}" y2="${spaces[b][1]}" class="path${broken ? " broken" : ""}"/>`;
  }
  let nodes = "";
  for (const s of m.cat.map.spaces) {
    const at = spaces[s.id];
    if (!at) continue;
    nodes += `<g class="space${s.start ? " start" : ""}" data-space="${esc(s.id)}"><title>${esc(m.t("space", { id: s.id }))}</title>
      <circle cx="${at[0]}" cy="${at[1]}" r="${r}"/>${s.start ? `<circle cx="${at[0]}" cy="${at[1]}" r="${r - 6}" class="inner"/>` : ""}</g>`;
  }
  for (const b of m.cat.map.bridges) {
    const at = spaces[b.id];
    if (!at) continue;
    const value = board.bridges[b.id];
    nodes += value ? bridgeToken(m, b.id, value, at[0], at[1])
      : `<g class="bridge-space" data-bridge="${esc(b.id)}"><title>${esc(m.t("broken_path"))}</title>
        <rect x="${at[0] - 24}" y="${at[1] - 13}" width="48" height="26" rx="5"/>
        <path d="M${at[0] - 6},${at[1] - 13} l5,9 l-6,6 l5,11" class="crack"/></g>`;
  }
  const [x0, y0, w, h] = layout.viewBox;
  return `<svg class="aac-map" viewBox="${x0} ${y0} ${w} ${h}" role="img" aria-label="${esc(m.t("map"))}">
    <g class="regions">${regions}</g><g class="paths">${paths}</g><g class="nodes">${nodes}</g>
    <g class="labels">${labels}</g><g class="pawns">${pawns(m, spaces)}</g></svg>`;
}

// -- monuments -----------------------------------------------------------------------------------

function rewardGlyphs(types, x, y) {
  if (!types.length) return `<text x="${x}" y="${y + 4}" class="reward-none">—</text>`;
  return types.map((type, i) => `<g class="reward">${use(`e-${type}`, x + i * 15, y, 13, "reward-glyph")}</g>`).join("");
}

function monumentCard(m, mon) {
  const spec = m.cat.monuments[mon.id];
  const sections = spec?.sections ?? [];
  const total = sections.length;
  const done = Math.min(mon.section, total);
  const rowH = 34;
  let rows = "";
  sections.forEach((section, i) => {
    const y = 6 + i * rowH;
    const state = i < mon.section ? "built" : i === mon.section ? "exposed" : "waiting";
    let body = "";
    section.spaces.forEach((type, j) => {
      const cx = 72 + j * 30;
      const cy = y + rowH / 2 - 2;
      const title = `${m.t("section", { n: i + 1 })}: ${m.t(`energy.${type}`)}`;
      const item = state === "exposed" ? mon.spaces[j] : null;
      body += item ? ownedEnergy(m, cx, cy, 11, item, title) : space(cx, cy, 11, type, title, `data-space="${j + 1}"`);
    });
    const reward = section.reward || [];
    rows += `<g class="section ${state}" data-section="${i + 1}">
      <rect x="4" y="${y}" width="232" height="${rowH - 4}" rx="5" class="section-box"/>
      <text x="12" y="${y + 20}" class="section-label">${ROMAN[i + 1] || i + 1}</text>
      ${state === "built" ? `<text x="40" y="${y + 20}" class="built-mark">✓</text>` : ""}
      ${body}
      <text x="172" y="${y + 20}" class="reward-label"><title>${esc(m.t("reward"))}</title>→</text>
      ${rewardGlyphs(reward, 194, y + rowH / 2 - 2)}</g>`;
  });
  const height = 8 + total * rowH;
  const bound = mon.bound.map((item) => `<svg viewBox="-12 -12 24 24" class="mini">${ownedEnergy(m, 0, 0, 11, item, m.t("bound"))}</svg>`).join("");
  const benefit = m.cat.benefitTokens[mon.benefit]?.benefit;
  const status = done >= total ? m.t("complete") : m.t("sections", { done, total });
  const completed = mon.completed_by != null
    ? `<div class="mon-note">${esc(m.t("completed_by", { name: m.name(mon.completed_by) }))}</div>` : "";
  return `<div class="aac-monument${done >= total ? " complete" : ""}" data-monument="${esc(mon.id)}" data-section="${mon.section}">
    <div class="mon-head"><b>${esc(m.monumentName(mon.id))}</b><span class="muted">${esc(status)}</span></div>
    <svg viewBox="0 0 240 ${height}" class="mon-svg">${rows}</svg>${completed}
    <div class="mon-foot">
      <div class="mon-bound" title="${esc(m.t("bound"))}"><span class="muted">${esc(m.t("bound"))}:</span> ${bound || `<span class="muted">${esc(m.t("none"))}</span>`}</div>
      <div class="mon-tokens">
        <span class="token-badge${mon.patron_available ? "" : " gone"}" title="${esc(m.t(mon.patron_available ? "patron" : "patron_taken"))}">P</span>
        <span class="token-badge benefit" title="${esc(m.t("benefit_token"))}: ${esc(benefitText(m, benefit))}">${esc(benefitText(m, benefit, true))}</span>
      </div>
    </div></div>`;
}

export function monumentsHtml(m) {
  return m.table.board.monuments.map((mon) => monumentCard(m, mon)).join("");
}

// -- tile pool and deck --------------------------------------------------------------------------

export function poolSvg(m) {
  const board = m.table.board;
  const costs = m.cat.rules.tile_pool_costs || [];
  let out = "";
  board.pool_tiles.forEach((id, i) => {
    const x = 8 + i * (TILE_W + 12);
    out += `<g class="pool-slot" data-pool="${i + 1}"><circle cx="${x + TILE_W / 2}" cy="12" r="10" class="cost"/>
      <text x="${x + TILE_W / 2}" y="16" text-anchor="middle" class="cost-label">${esc(costs[i] ?? "")}</text>
      <title>${esc(m.t("cost", { n: costs[i] ?? "?" }))}</title></g>`;
    out += id ? tile(m.cat.tile(id), null, x, 26, NEUTRAL, m.t, { attrs: `data-pool-tile="${i + 1}"` })
      : `<rect x="${x}" y="26" width="${TILE_W}" height="${TILE_H}" rx="6" class="empty-tile"/>`;
  });
  const dx = 8 + 4 * (TILE_W + 12) + 6;
  board.deck.forEach((tier, i) => {
    const y = 26 + i * 36;
    out += `<g class="deck" data-tier="${i + 1}"><title>${esc(m.t("tier", { n: ROMAN[i + 1] }))}: ${esc(m.t("deck_count", { n: tier.length }))}</title>
      <rect x="${dx + 4}" y="${y + 3}" width="62" height="30" rx="4" class="deck-back shadow"/>
      <rect x="${dx}" y="${y}" width="62" height="30" rx="4" class="deck-back${tier.length ? "" : " empty"}"/>
      <text x="${dx + 31}" y="${y + 20}" text-anchor="middle" class="deck-label">${ROMAN[i + 1]} · ${tier.length}</text></g>`;
  });
  let tokens = "";
  let n = 0;
  m.table.players.forEach((p, seat) => {
    for (const type of ["compass", "magnet", "rose", "wild"]) {
      for (let k = 0; k < (p.pool?.[type] ?? 0); k += 1) {
        tokens += ownedEnergy(m, 18 + (n % 16) * 24, 150 + Math.floor(n / 16) * 24, 10, [seat, type], m.t("in_pool"));
        n += 1;
      }
    }
  });
  const height = 150 + Math.max(1, Math.ceil(n / 16)) * 24;
  return `<svg viewBox="0 0 ${dx + 76} ${height}" class="aac-pool" role="img" aria-label="${esc(m.t("pool"))}">
    ${out}<line x1="4" x2="${dx + 70}" y1="136" y2="136" class="pool-line"/>${tokens}</svg>`;
}

// -- achievements and pillars --------------------------------------------------------------------

function placeSvg(m, item, available, hint, attrs) {
  const inside = item ? ownedEnergy(m, 0, 0, 11, item, hint)
    : space(0, 0, 11, null, available ? hint : `${hint} (${m.t("blocked")})`);
  return `<svg viewBox="-13 -13 26 26" class="place${available ? "" : " unavailable"}" ${attrs}>${inside}</svg>`;
}

export function achievementsHtml(m) {
  const players = m.table.players.length;
  const minRight = m.cat.rules.achievement_right_min_players ?? 3;
  return m.table.board.achievements.map((a) => {
    const spec = m.cat.achievements[a.id] || {};
    const [left, right] = a.spaces;
    return `<div class="aac-card achievement" data-achievement="${esc(a.id)}">
      <div class="card-title">${esc(m.t(`ach.${a.id}`))}</div>
      <div class="card-sub muted">${esc(m.t(spec.printed ? "ach.printed" : "ach.token"))}</div>
      <div class="places">
        <span class="place-wrap" title="${esc(m.t("ach.left"))}">${placeSvg(m, left, true, m.t("ach.left"), 'data-side="left"')}<small>${esc(m.t("ach.left_short"))}</small></span>
        <span class="place-wrap" title="${esc(m.t("ach.right"))}">${placeSvg(m, right, players >= minRight, m.t("ach.right"), 'data-side="right"')}<small>${esc(m.t("ach.right"))}</small></span>
      </div></div>`;
  }).join("");
}

export function pillarsHtml(m) {
  const players = m.table.players.length;
  const minRight = m.cat.rules.pillar_right_min_players ?? 4;
  return Object.entries(m.table.board.pillars).map(([id, spaces]) => {
    const spec = m.cat.pillars[id] || {};
    const places = spaces.map((item, i) => {
      const available = i < spaces.length - 1 || players >= minRight;
      return placeSvg(m, item, available, `${m.pillarName(id)} ${i + 1}`, `data-space="${i + 1}"`);
    }).join("");
    return `<div class="aac-card pillar" data-pillar="${esc(id)}">
      <div class="card-title">${esc(m.pillarName(id))}</div>
      <div class="card-sub muted">${esc(m.t(`region.${spec.region}`))}</div>
      <div class="places">${places}</div></div>`;
  }).join("");
}

// -- the supply ------------------------------------------------------------------------------------

export function actionText(m, token, short) {
  if (!token) return [];
  return token.actions.map((a) => {
    const key = a.kind === "claim" && a.upgraded ? "claim_upgraded" : a.kind;
    return m.t(`${short ? "act" : "action"}.${key}`, { count: a.count ?? 1, positions: (a.positions || []).join("·") });
  });
}

export function supplyHtml(m) {
  const board = m.table.board;
  const conduits = Object.entries(board.conduit_supply).map(([kind, n]) => `<span class="supply-item" data-conduit="${esc(kind)}"
      title="${esc(m.t(`icon.${kind}`))}${board.conduit_double[kind] ? ` (${esc(m.t("conduit_double"))})` : ""}">
      <svg viewBox="-12 -12 24 24" class="mini">${icon(kind, 0, 0, 18)}</svg><b>${n}</b>${board.conduit_double[kind] ? "<sup>×2</sup>" : ""}</span>`).join("");
  const upgrades = Object.entries(board.upgrade_supply).map(([id, n]) => {
    const token = m.cat.actionTokens[id];
    const text = actionText(m, token, false).join(` ${m.t(`mode.${token?.mode || "either"}`)} `);
    return `<span class="supply-item action-chip${n ? "" : " gone"}" data-upgrade="${esc(id)}" title="${esc(text)}">
      <b>${esc(token?.position ?? "?")}</b> ${esc(actionText(m, token, true).join(token?.mode === "all" ? " + " : " | "))} <small>×${n}</small></span>`;
  }).join("");
  return `<div class="supply-row"><span class="muted">${esc(m.t("conduits"))}</span> ${conduits}</div>
    <div class="supply-row wrap"><span class="muted">${esc(m.t("upgrades"))}</span> ${upgrades}</div>`;
}
