// The page: follows the board live (server-sent events) and draws it. The generic parts
// come from view.js; the table itself is drawn by the renderer of the game in play
// (/game/<name>/renderer.js), when that game has one.

import { I18n, LANGUAGES, initialLanguage } from "./i18n.js";
import { Stream } from "./stream.js";
import { adoptTokenFromUrl, saveToken, savedToken, send } from "./commands.js";
import { esc, fallbackColour, getJson, setHtml, show } from "./util.js";
import * as view from "./view.js";

const LOG_LIMIT = 400;
const $ = (id) => document.getElementById(id);

const app = {
  info: { board: {}, commands: [], renderers: [], token_required: false },
  i18n: new I18n(),
  doc: null,
  leds: null,
  log: [],
  seen: new Set(),
  renderer: null,
  rendererGame: null,
  rendererLoading: null,
  localError: null,
  pending: false,
  pressing: false, // a finger or button is down on the prompt list: it is not redrawn under it
  frame: 0,
};

// -- context for the views ---------------------------------------------------------------------

function seatName(index) {
  return app.doc?.seats?.[index]?.name ?? app.doc?.game?.seat_names?.[index] ?? `#${index}`;
}

function context() {
  const t = (key, params) => app.i18n.t(key, params);
  return {
    t,
    lang: app.i18n.lang,
    leds: app.leds,
    commands: app.info.commands || [],
    canCommand: !app.info.token_required || Boolean(savedToken()),
    localError: app.localError,
    seat(index) {
      const name = seatName(index);
      const own = app.renderer?.seat?.(name, index);
      const named = typeof name === "string" && CSS.supports("color", name) ? name : null; // seats named by colour
      return { label: own?.label ?? name, colour: own?.colour ?? named ?? fallbackColour(index) };
    },
    category(id) {
      return app.renderer?.category?.(id) ?? (t(`category.${id}`) !== `category.${id}` ? t(`category.${id}`)
        : view.categoryFallback(id));
    },
  };
}

// -- drawing -------------------------------------------------------------------------------------

function schedule() {
  if (!app.frame) app.frame = requestAnimationFrame(draw);
}

function draw() {
  app.frame = 0;
  const doc = app.doc;
  const ctx = context();
  document.body.dataset.seq = doc?.seq ?? "";
  document.body.dataset.terminal = doc?.terminal ? "true" : "false";
  document.title = doc?.game ? `${doc.game.title} · ${app.info.board?.name || "Aetherlink"}` : "Aetherlink";
  setHtml($("board-name"), esc(app.info.board?.name || doc?.board?.name || "Aetherlink"));
  const status = $("status");
  status.dataset.seat = doc?.turn?.seat ?? "";
  setHtml(status, view.statusHtml(doc, ctx));
  setHtml($("seats"), view.seatsHtml(doc, ctx));
  // (a tap is a press and a release on the same button: redrawn in between, the release lands on a new
  // button and the browser sends the click to the list, so the answer is lost. The table's picture,
  // arriving a moment after the first options, recolours the seat chips and did just that.)
  if (!app.pressing) setHtml($("prompt-list"), view.promptsHtml(doc, ctx));
  const refusal = view.refusalHtml(doc, ctx);
  setHtml($("refusal-body"), refusal);
  show($("refusal"), Boolean(refusal));
  const sync = view.syncHtml(doc, ctx);
  setHtml($("sync-body"), sync);
  show($("sync"), Boolean(sync));
  const final = view.finalHtml(doc, ctx);
  setHtml($("final"), final);
  show($("final"), Boolean(final));
  setHtml($("scores-body"), view.scoresHtml(doc, ctx));
  setHtml($("log-list"), view.logHtml(app.log, ctx));
  show($("move-form"), Boolean(doc?.game) && !doc.terminal && app.info.commands.includes("move"));
  show($("undo"), Boolean(doc?.game) && app.info.commands.includes("undo"));
  show($("token-button"), Boolean(app.info.token_required));
  for (const code of LANGUAGES) $(`lang-${code}`).setAttribute("aria-pressed", String(code === app.i18n.lang));
  drawTable(doc);
}

function drawTable(doc) {
  const name = doc?.game?.name ?? null;
  if (name !== app.rendererGame) loadRenderer(name);
  const mount = $("table");
  if (app.renderer && doc) {
    try {
      app.renderer.render(doc, app.leds);
    } catch (error) {
      console.warn("renderer failed", error); // the generic parts go on
    }
  } else if (!app.rendererLoading) {
    setHtml(mount, doc?.game ? `<p class="muted">${esc(app.i18n.t("no_renderer"))}</p>` : "");
  }
}

async function loadRenderer(name) {
  app.rendererGame = name;
  app.renderer = null;
  const mount = $("table");
  setHtml(mount, "");
  if (!name || !(app.info.renderers || []).includes(name)) return;
  const loading = (async () => {
    const module = await import(`/game/${encodeURIComponent(name)}/renderer.js`);
    return module.createRenderer({ root: mount, base: `/game/${encodeURIComponent(name)}/`, lang: app.i18n.lang });
  })();
  app.rendererLoading = loading;
  try {
    const renderer = await loading;
    if (app.rendererGame === name) app.renderer = renderer;
  } catch (error) {
    console.warn(`no picture of the table for ${name} yet:`, error);
    setTimeout(() => { if (app.rendererGame === name && !app.renderer) app.rendererGame = undefined; schedule(); }, 3000);
  } finally {
    if (app.rendererLoading === loading) app.rendererLoading = null;
    schedule();
  }
}

// -- live updates --------------------------------------------------------------------------------

function onMessage(kind, data, id) {
  if (kind === "state") {
    if (app.localError && data.seq !== app.localError.seq) app.localError = null; // the game moved on
    app.doc = data;
  } else if (kind === "leds") {
    app.leds = data;
  } else {
    if (id && app.seen.has(id)) return;
    if (id) app.seen.add(id);
    app.log.push({ kind, data, id });
    if (app.log.length > LOG_LIMIT) app.log.splice(0, app.log.length - LOG_LIMIT);
  }
  schedule();
}

function onStatus(status) {
  const conn = $("conn");
  conn.dataset.state = status;
  conn.textContent = app.i18n.t(`conn.${status}`);
}

// -- commands ------------------------------------------------------------------------------------

async function command(name, payload, text = null) {
  if (app.pending) return null;
  app.pending = true;
  document.body.classList.add("busy");
  const seq = app.doc?.seq;
  try {
    const response = await send(name, payload);
    if (response.status === "ok") {
      app.localError = null;
    } else {
      app.localError = { command: name, text, response, seq: app.doc?.seq ?? seq };
    }
    return response;
  } finally {
    app.pending = false;
    document.body.classList.remove("busy");
    schedule();
  }
}

function wireCommands() {
  $("prompt-list").addEventListener("pointerdown", () => { app.pressing = true; });
  const released = () => {
    if (!app.pressing) return;
    app.pressing = false;
    schedule(); // (drawn in the next frame: after the click this release makes)
  };
  window.addEventListener("pointerup", released);
  window.addEventListener("pointercancel", released);
  $("prompt-list").addEventListener("click", (event) => {
    const button = event.target.closest("button.option");
    if (!button || button.disabled) return;
    const payload = { prompt: button.dataset.prompt, key: button.dataset.key };
    if (button.dataset.seat !== "" && button.dataset.seat !== "null") payload.seat = Number(button.dataset.seat);
    command("answer", payload, button.dataset.key);
  });
  $("move-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("move-input");
    const text = input.value.trim();
    if (!text) return;
    const response = await command("move", { move: text }, text);
    if (response?.status === "ok") input.value = "";
  });
  $("undo").addEventListener("click", () => command("undo", {}, null));
}

function wireToken() {
  const dialog = $("token-dialog");
  $("token-button").addEventListener("click", () => {
    $("token-input").value = savedToken();
    dialog.showModal();
  });
  $("token-form").addEventListener("submit", () => {
    saveToken($("token-input").value.trim());
    schedule();
  });
  $("token-clear").addEventListener("click", () => {
    saveToken("");
    dialog.close();
    schedule();
  });
}

// -- language ------------------------------------------------------------------------------------

function translateStatic() {
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = app.i18n.t(element.dataset.i18n);
  }
  for (const element of document.querySelectorAll("[data-i18n-placeholder]")) {
    element.placeholder = app.i18n.t(element.dataset.i18nPlaceholder);
  }
  for (const element of document.querySelectorAll("[data-i18n-title]")) {
    element.title = app.i18n.t(element.dataset.i18nTitle);
  }
  onStatus($("conn").dataset.state || "connecting");
}

async function setLanguage(lang) {
  await app.i18n.load(lang);
  localStorage.setItem("aetherlink.lang", app.i18n.lang);
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) {
    url.searchParams.set("lang", app.i18n.lang); // a reload keeps the choice
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  translateStatic();
  app.renderer?.setLang?.(app.i18n.lang);
  schedule();
}

// -- start ---------------------------------------------------------------------------------------

async function main() {
  adoptTokenFromUrl();
  await app.i18n.load(initialLanguage());
  translateStatic();
  try {
    app.info = { ...app.info, ...(await getJson("/api/info")) };
  } catch (error) {
    console.warn("board information unavailable:", error); // the live stream still works
  }
  for (const code of LANGUAGES) $(`lang-${code}`).addEventListener("click", () => setLanguage(code));
  wireCommands();
  wireToken();
  new Stream(onMessage, onStatus).open();
  schedule();
}

main();
