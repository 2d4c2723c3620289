// Each player's side of the table: the Transmutation Device (inactive tiles, 5 positions with
// their tiles and energy, action tokens, conduit tokens), the channel marker, tracks, exhausted
// pool, reserve, energy in the tile pool, bridge tokens left, patron token and bound energy.

import { actionText } from "./board.js";
import { TILE_H, TILE_W, counts, energy, esc, icon, tile } from "./svg.js";

const ROMAN = ["", "I", "II", "III"];
const STEP = TILE_W + 10;
const FIRST = 2 * STEP + 18; // x of position 1, after the two inactive tiles and the Device's edge

function conduit(m, value, x) {
  const cx = x + TILE_W / 2;
  if (!value) {
    return `<g class="conduit-space"><title>${esc(m.t("conduits"))}: ${esc(m.t("empty"))}</title>
      <rect x="${cx - 16}" y="4" width="32" height="26" rx="5" class="conduit-empty"/></g>`;
  }
  const [kind, count] = value;
  return `<g class="conduit" data-conduit="${esc(kind)}" data-count="${count}">
    <title>${esc(m.t("conduits"))}: ${esc(m.t(`icon.${kind}`))} ×${count}</title>
    <path d="M${cx - 18},17 l8,-13 h20 l8,13 l-8,13 h-20 z" class="conduit-token"/>
    ${count > 1 ? icon(kind, cx - 7, 17, 14) + icon(kind, cx + 7, 17, 14) : icon(kind, cx, 17, 16)}</g>`;
}

function actionToken(m, id, position, x, colour) {
  const token = m.cat.actionTokens[id];
  const lines = actionText(m, token, true);
  const full = actionText(m, token, false).join(` ${m.t(`mode.${token?.mode || "either"}`)} `);
  const joiner = token?.mode === "all" ? "+ " : "| ";
  const upgraded = m.cat.upgradedTokenIds.has(id);
  const text = lines.slice(0, 2).map((line, i) => `<text x="${x + TILE_W / 2}" y="${TILE_H + 76 + i * 13}" text-anchor="middle"
      class="action-text">${esc((i ? joiner : "") + line)}</text>`).join("");
  return `<g class="action-token${upgraded ? " upgraded" : ""}" data-token="${esc(id)}" data-position="${position}">
    <title>${esc(id)}: ${esc(full)}</title>
    <rect x="${x + 2}" y="${TILE_H + 46}" width="${TILE_W - 4}" height="48" rx="10" style="stroke:${colour}"/>
    <text x="${x + 12}" y="${TILE_H + 60}" class="action-number">${position}${upgraded ? "★" : ""}</text>${text}</g>`;
}

function deviceSvg(m, p, seat) {
  const colour = m.colour(seat);
  let out = "";
  p.inactive.forEach((id, i) => {
    out += tile(m.cat.tile(id), p.rows[id], 4 + i * STEP, 40, colour, m.t, { dim: true, attrs: `data-inactive="${i + 1}"` });
  });
  out += `<text x="${4 + STEP}" y="${TILE_H + 60}" text-anchor="middle" class="muted-text">${esc(m.t("inactive"))}</text>`;
  out += `<rect x="${FIRST - 8}" y="36" width="${5 * STEP + 6}" height="${TILE_H + 8}" rx="8" class="device-frame" style="stroke:${colour}"/>`;
  for (let k = 0; k < 5; k += 1) {
    const x = FIRST + k * STEP;
    out += conduit(m, p.conduits[k], x);
    const id = p.device[k];
    out += id ? tile(m.cat.tile(id), p.rows[id], x, 40, colour, m.t, { attrs: `data-position="${k + 1}"` })
      : `<rect x="${x}" y="40" width="${TILE_W}" height="${TILE_H}" rx="6" class="empty-tile"/>`;
    if (p.action_tokens[k]) out += actionToken(m, p.action_tokens[k], k + 1, x, colour);
  }
  const width = FIRST + 5 * STEP;
  return `<svg viewBox="0 0 ${width} ${TILE_H + 100}" class="aac-device" role="img"
    aria-label="${esc(m.name(seat))}">${out}</svg>`;
}

function track(m, value, slots, colour, label, kind) {
  let out = "";
  for (let i = 1; i <= slots; i += 1) {
    const x = 14 + (i - 1) * 26;
    out += value && value[0] === i ? energy(x, 13, 10, colour, value[1], `${label} ${i}`)
      : `<circle cx="${x}" cy="13" r="10" class="slot-ring"><title>${esc(label)} ${i}</title></circle>`;
  }
  return `<svg viewBox="0 0 ${slots * 26 + 2} 26" class="track" data-track="${kind}" data-slot="${value ? value[0] : 0}">${out}</svg>`;
}

function boundList(m, seat) {
  const board = m.table.board;
  const out = [];
  for (const mon of board.monuments) {
    for (const [s, type] of mon.bound) if (s === seat) out.push([type, m.monumentName(mon.id)]);
  }
  for (const [id, spaces] of Object.entries(board.pillars)) {
    for (const item of spaces) if (item && item[0] === seat) out.push([item[1], m.pillarName(id)]);
  }
  for (const a of board.achievements) {
    for (const item of a.spaces) if (item && item[0] === seat) out.push([item[1], m.t(`ach.${a.id}`)]);
  }
  return out;
}

/** Energy the player holds while placing it (ejected in front of the Device, in transit). */
function inHand(m, seat) {
  const out = [];
  for (const frame of m.table.frames || []) {
    if (frame.p !== seat || !frame.hand || typeof frame.hand !== "object") continue;
    for (const [type, n] of Object.entries(frame.hand)) for (let i = 0; i < n; i += 1) out.push(type);
  }
  return out;
}

function row(label, body) {
  return `<div class="info-row"><span class="info-label">${esc(label)}</span><span class="info-body">${body}</span></div>`;
}

function playerCard(m, p, seat) {
  const colour = m.colour(seat);
  const ch = m.cat.characters[p.character] || {};
  const seatDoc = m.doc.seats?.[seat] || {};
  const rules = m.cat.rules;
  const bound = boundList(m, seat);
  const boundHtml = bound.length
    ? bound.map(([type, where]) => `<svg viewBox="-12 -12 24 24" class="mini">${energy(0, 0, 11, colour, type, `${m.t(`energy.${type}`)} (${where})`)}</svg>`).join("")
    : `<span class="muted">${esc(m.t("none"))}</span>`;
  const bridges = [1, 2, 3].map((tier) => `<span class="bridge-chip${p.bridges_on_board.includes(tier) ? "" : " gone"}"
    style="--seat:${colour}">${ROMAN[tier]}</span>`).join("");
  const region = m.regionOf(p.space);
  const patron = p.patron ? esc(m.monumentName(p.patron)) : `<span class="muted">${esc(m.t("none"))}</span>`;
  const winds = m.table.options?.divine_winds ? row(m.t("winds"), `<b>${esc(p.divine_winds)}</b>`) : "";
  const hand = inHand(m, seat);
  return `<article class="aac-player${seatDoc.active ? " active" : ""}" data-seat="${seat}" data-character="${esc(p.character)}"
      style="--seat:${colour}">
    <header class="player-head">
      <span class="player-swatch"></span>
      <span class="player-name"><b>${esc(ch.name || p.character)}</b> <span class="muted">${esc(ch.title || "")}</span></span>
      ${seatDoc.active ? `<span class="to-play">${esc(m.t("to_play"))}</span>` : ""}
      <span class="player-score">${esc(seatDoc.score ?? "")}</span>
    </header>
    ${deviceSvg(m, p, seat)}
    <div class="player-info">
      ${hand.length ? row(m.t("in_hand"), hand.map((type) => `<svg viewBox="-12 -12 24 24" class="mini hand">${energy(0, 0, 11, colour, type, `${m.t("in_hand")}: ${m.t(`energy.${type}`)}`)}</svg>`).join("")) : ""}
      ${row(m.t("channel"), `<span class="channel ${p.channel_charged ? "charged" : "exhausted"}" data-charged="${p.channel_charged}">
        ${p.channel_charged ? "⚡" : "○"} ${esc(m.t(p.channel_charged ? "channel.charged" : "channel.exhausted"))}</span>`)}
      ${row(m.t("position"), `${esc(m.t(`region.${region}`))} · <code>${esc(p.space)}</code>`)}
      ${row(m.t("exhausted"), counts(p.exhausted, colour, m.t))}
      ${row(m.t("reserve"), counts(p.reserve, colour, m.t))}
      ${row(m.t("in_pool"), counts(p.pool, colour, m.t))}
      ${row(m.t("mtrack"), track(m, p.monument_track, rules.monument_track_slots ?? 4, colour, m.t("mtrack"), "monument"))}
      ${row(m.t("ptrack"), track(m, p.pillar_track, rules.pillar_track_slots ?? 4, colour, m.t("ptrack"), "pillar"))}
      ${row(m.t("bridges_left"), bridges)}
      ${row(m.t("patron"), patron)}
      ${winds}
      ${row(m.t("bound"), boundHtml)}
    </div>
  </article>`;
}

export function playersHtml(m) {
  return m.table.players.map((p, seat) => playerCard(m, p, seat)).join("");
}

