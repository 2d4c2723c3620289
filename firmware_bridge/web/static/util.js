// Small helpers shared by the page's modules.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for HTML (every string from the board goes through this). */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Replace an element's content only when it changed (keeps scroll positions and focus). */
export function setHtml(element, html) {
  if (element && element.__html !== html) {
    element.__html = html;
    element.innerHTML = html;
  }
}

/** Show or hide an element. */
export function show(element, visible) {
  if (element) element.hidden = !visible;
}

/** "some_id" -> "Some id" (labels for things no catalogue names). */
export function humanise(id) {
  const text = String(id ?? "").replace(/[_-]+/g, " ").trim();
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

/** Fetch JSON; throws with the HTTP status on failure. */
export async function getJson(url) {
  const response = await fetch(url, { cache: "no-store" });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

// Fallback seat colours when the game has no renderer to name them.
const SEAT_COLOURS = ["#d64541", "#2f7fd1", "#3f9b48", "#e8862a", "#8e5bb5", "#1a9e9a", "#b8860b", "#c2185b"];

export function fallbackColour(seat) {
  return SEAT_COLOURS[((seat ?? 0) % SEAT_COLOURS.length + SEAT_COLOURS.length) % SEAT_COLOURS.length];
}
