// The generic parts of the page, as HTML built from the state document (docs/mqtt.md):
// whose turn, seats and their LEDs, prompts, refusals, sync, scores, the final table, the log.
// Every function takes the document and a context:
//   ctx.t(key, params), ctx.seat(index) -> {label, colour}, ctx.category(id) -> label,
//   ctx.leds (LED frame), ctx.canCommand, ctx.commands (allowed names), ctx.localError.

import { esc, humanise } from "./util.js";

const LED_COLOURS = {
  off: "#3a3f4b", white: "#f4f4f4", green: "#34c759", amber: "#ffb020", red: "#ff3b30",
  blue: "#2f7fff", purple: "#b05cff", cyan: "#2ad4e6",
};

export function chip(ctx, seat, size = "") {
  const info = ctx.seat(seat);
  const label = size === "short" ? info.label.slice(0, 3) : info.label;
  return `<span class="chip${size ? ` ${size}` : ""}" style="--seat:${esc(info.colour)}" title="${esc(info.label)}">${esc(label)}</span>`;
}

function led(ctx, name) {
  const state = ctx.leds?.leds?.[`seat:${name}`] || { colour: "off", mode: "solid" };
  const colour = LED_COLOURS[state.colour] || LED_COLOURS.off;
  return `<span class="led led-${esc(state.mode)}" data-colour="${esc(state.colour)}" data-mode="${esc(state.mode)}"
    style="--led:${colour}" title="${esc(ctx.t(`led.${state.colour}`))}"></span>`;
}

export function statusHtml(doc, ctx) {
  if (!doc || !doc.game) return `<h2>${esc(ctx.t("turn.none"))}</h2>`;
  const title = `<div class="game-title">${esc(doc.game.title)} · ${esc(ctx.t("game.number", { n: doc.game.number }))}</div>`;
  if (doc.terminal) return `${title}<h2>${esc(ctx.t("turn.over"))}</h2>`;
  const turn = doc.turn || {};
  const number = `<span class="turn-number">${esc(ctx.t("turn.number", { n: (turn.number ?? 0) + 1 }))}</span>`;
  const who = turn.chance ? esc(ctx.t("turn.chance"))
    : turn.seat != null ? ctx.t("turn.of", { name: chip(ctx, turn.seat) }) : "";
  const others = (turn.active || []).filter((s) => s !== turn.seat);
  const finishing = others.length
    ? `<div class="finishing">${esc(ctx.t("turn.finishing"))} ${others.map((s) => chip(ctx, s)).join(" ")}</div>` : "";
  const question = turn.question ? `<p class="question">${esc(turn.question)}</p>` : "";
  return `${title}<h2>${number} ${who}</h2>${question}${finishing}`;
}

export function seatsHtml(doc, ctx) {
  if (!doc || !doc.seats?.length) return "";
  return doc.seats.map((seat) => {
    const info = ctx.seat(seat.seat);
    const classes = ["seat", seat.active ? "active" : "", seat.winner ? "winner" : ""].join(" ");
    return `<div class="${classes}" data-seat="${seat.seat}" style="--seat:${esc(info.colour)}">
      ${led(ctx, seat.name)}
      <span class="seat-name">${esc(info.label)}</span>
      ${seat.winner ? `<span class="crown" title="${esc(ctx.t("seat.winner"))}">★</span>` : ""}
      <span class="seat-score" title="${esc(ctx.t("scores.total"))}">${esc(seat.score ?? "–")}</span>
    </div>`;
  }).join("");
}

export function promptsHtml(doc, ctx) {
  const prompts = doc?.prompts || [];
  if (!prompts.length) {
    return `<p class="muted">${esc(ctx.t(doc?.terminal ? "prompts.over" : "prompts.none"))}</p>`;
  }
  const locked = !ctx.canCommand || !ctx.commands.includes("answer");
  const note = locked ? `<p class="muted">${esc(ctx.t(ctx.commands.includes("answer") ? "prompts.token" : "prompts.disabled"))}</p>` : "";
  return note + prompts.map((prompt) => `
    <div class="prompt" data-prompt="${esc(prompt.id)}">
      <div class="prompt-head">${chip(ctx, prompt.seat)} <span class="question">${esc(prompt.question)}</span></div>
      <div class="options">${prompt.options.map((option) => `
        <button type="button" class="option" data-prompt="${esc(prompt.id)}" data-key="${esc(option.key)}"
          data-seat="${esc(prompt.seat)}" ${locked ? "disabled" : ""}>${esc(option.label)}</button>`).join("")}
      </div>
    </div>`).join("");
}

function fixesHtml(ctx, fixes) {
  if (!fixes?.length) return "";
  return `<div class="fix-title">${esc(ctx.t("refusal.fix"))}</div><ul class="fixes">${fixes.map((f) => `
    <li data-location="${esc(f.location)}"><strong>${esc(f.message)}</strong>
      <span class="muted">${esc(f.location)}: ${esc(ctx.t("sync.expected"))} ${esc(show(f.expected))},
      ${esc(ctx.t("sync.actual"))} ${esc(show(f.actual))}</span></li>`).join("")}</ul>`;
}

function show(reading) {
  if (Array.isArray(reading)) return reading.length ? reading.join(", ") : "—";
  return reading ?? "—";
}

/** What to do about a refused command, by its error code. */
function commandFix(ctx, error) {
  const code = error.response.code;
  if (code === "invalid" && error.response.field) return ctx.t("fix.invalid", { field: error.response.field });
  return ctx.t(`fix.${code}`) === `fix.${code}` ? ctx.t("fix.other") : ctx.t(`fix.${code}`);
}

export function refusalHtml(doc, ctx) {
  const parts = [];
  const refusal = doc?.refusal;
  if (refusal) {
    parts.push(`<div class="refusal table-refusal" data-kind="table">
      <div class="refusal-head">✗ ${refusal.seat != null ? chip(ctx, refusal.seat) : ""} ${esc(refusal.reason)}</div>
      ${refusal.locations?.length ? `<div class="muted">${esc(ctx.t("refusal.where"))}: ${refusal.locations.map(esc).join(", ")}</div>` : ""}
      ${fixesHtml(ctx, refusal.fixes)}
    </div>`);
  }
  const error = ctx.localError;
  if (error) {
    const what = error.text ? `<code>${esc(error.text)}</code> — ` : "";
    parts.push(`<div class="refusal command-refusal" data-kind="command" data-code="${esc(error.response.code)}">
      <div class="refusal-head">✗ ${what}${esc(error.response.error)}</div>
      <div class="fix-title">${esc(ctx.t("refusal.fix"))}</div>
      <p class="fix">${esc(commandFix(ctx, error))}</p>
    </div>`);
  }
  return parts.join("");
}

export function syncHtml(doc, ctx) {
  const sync = doc?.sync;
  if (!sync || !doc.game?.sensed) return "";
  if (sync.pending) return `<p class="pending">${esc(ctx.t("sync.pending"))}</p>`;
  if (sync.in_sync) return `<p class="ok">✓ ${esc(ctx.t("sync.ok"))}</p>`;
  return `<p class="out">⚠ ${esc(ctx.t("sync.out"))}</p>${fixesHtml(ctx, sync.differences).replace(/^<div class="fix-title">.*?<\/div>/, "")}`;
}

export function scoresHtml(doc, ctx, final = false) {
  const scores = doc?.scores;
  if (!scores?.players?.length) return "";
  const players = scores.players;
  const head = players.map((p) => `<th scope="col">${chip(ctx, p.seat, "short")}</th>`).join("");
  const rows = (scores.categories || []).map((category) => `<tr><th scope="row">${esc(ctx.category(category))}</th>
    ${players.map((p) => `<td>${esc(p.categories?.[category] ?? 0)}</td>`).join("")}</tr>`).join("");
  const winners = new Set(scores.winners || []);
  const total = `<tr class="total"><th scope="row">${esc(ctx.t("scores.total"))}</th>${players.map((p) =>
    `<td class="${final && winners.has(p.seat) ? "win" : ""}">${esc(p.total)}</td>`).join("")}</tr>`;
  let tiebreaks = "";
  if (final) {
    const keys = Object.keys(players[0].tiebreak || {});
    tiebreaks = keys.map((key) => `<tr class="tiebreak"><th scope="row">${esc(ctx.t("scores.tiebreak"))}: ${esc(ctx.category(key))}</th>
      ${players.map((p) => `<td>${esc(p.tiebreak?.[key] ?? "")}</td>`).join("")}</tr>`).join("");
  }
  return `<div class="table-scroll"><table class="scores${final ? " final" : ""}">
    <thead><tr><th></th>${head}</tr></thead><tbody>${rows}${total}${tiebreaks}</tbody></table></div>`;
}

export function finalHtml(doc, ctx) {
  if (!doc?.terminal || !doc.scores) return "";
  const winners = doc.scores.winners || [];
  const key = winners.length > 1 ? "final.winners" : "final.winner";
  return `<h2>${esc(ctx.t("final"))}</h2>
    <p class="winner-line" data-winners="${winners.join(",")}">★ ${esc(ctx.t(key))}: ${winners.map((s) => chip(ctx, s)).join(" ")}</p>
    ${scoresHtml(doc, ctx, true)}`;
}

/** One log line for a service event (null: not shown). */
export function logLine(entry, ctx) {
  const { kind, data } = entry;
  const seat = data.seat != null ? chip(ctx, data.seat, "small") : "";
  switch (kind) {
    case "move":
      return `<li class="log-move${data.chance ? " chance" : ""}" data-kind="move" data-seq="${esc(data.seq)}">
        <span class="log-turn">${esc(ctx.t("log.turn", { n: (data.turn ?? 0) + 1 }))}</span>
        ${data.chance ? `<span class="muted">${esc(ctx.t("log.chance"))}</span>` : seat}
        <code>${esc(data.notation)}</code></li>`;
    case "undo":
      return `<li data-kind="undo">↶ ${esc(ctx.t("log.undo", { count: data.count }))}</li>`;
    case "refusal":
      return `<li class="log-refusal" data-kind="refusal">✗ ${seat} ${esc(data.reason)}</li>`;
    case "sync":
      return `<li data-kind="sync">${data.in_sync ? "✓ " + esc(ctx.t("log.sync.in"))
        : "⚠ " + esc(ctx.t("log.sync.out", { n: (data.differences || []).length }))}</li>`;
    case "game_start":
      return `<li class="log-start" data-kind="game_start">▶ ${esc(ctx.t("log.start", {
        number: data.number, title: data.title, players: data.players }))}</li>`;
    case "game_end": {
      const winners = (data.scores?.winners || []).map((s) => chip(ctx, s)).join(" ");
      return `<li class="log-end" data-kind="game_end">★ ${esc(ctx.t("log.end"))} ${winners}</li>`;
    }
    case "error":
      return `<li class="log-error" data-kind="error">⚠ ${esc(ctx.t("log.error", { message: data.message }))}</li>`;
    default:
      return null;
  }
}

export function logHtml(entries, ctx) {
  const lines = [];
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const line = logLine(entries[i], ctx);
    if (line) lines.push(line);
  }
  return lines.length ? lines.join("") : `<li class="muted">${esc(ctx.t("log.empty"))}</li>`;
}

export function categoryFallback(id) {
  return humanise(id);
}
