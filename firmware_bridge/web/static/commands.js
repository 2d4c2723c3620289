// Commands from the page: the same JSON payloads and responses as the MQTT request topics.
// A board with a command token needs it in every payload ("token"), like MQTT with
// commands.require_token; the page keeps it in this browser only.

const TOKEN_KEY = "aetherlink.token";

export function savedToken() {
  return localStorage.getItem(TOKEN_KEY) || "";
}

export function saveToken(token) {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/** A token given as ?token= is saved and removed from the address bar (and history). */
export function adoptTokenFromUrl() {
  const url = new URL(location.href);
  const token = url.searchParams.get("token");
  if (token === null) return;
  saveToken(token);
  url.searchParams.delete("token");
  history.replaceState(null, "", url.pathname + url.search + url.hash);
}

let counter = 0;

/** Send one command; resolves to the board's response (never throws). */
export async function send(name, payload = {}) {
  const body = { ...payload, transaction: `web-${Date.now().toString(36)}-${++counter}` };
  const token = savedToken();
  if (token) body.token = token;
  try {
    const response = await fetch(`/api/command/${encodeURIComponent(name)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return await response.json();
  } catch (error) {
    return { status: "error", code: "network", error: String(error.message || error), data: {} };
  }
}
