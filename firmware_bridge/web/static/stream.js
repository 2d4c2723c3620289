// Live updates: server-sent events from /api/events, reconnecting by itself.
// The server sends the current state and LED frame on every (re)connection, then
// the events missed since the last id seen, then everything live.

const KINDS = ["state", "leds", "game_start", "move", "undo", "refusal", "sync", "prompt", "game_end", "error"];
const BACKOFF_MS = [1000, 2000, 4000, 8000];

export class Stream {
  /** onMessage(kind, data, id); onStatus("connecting" | "live" | "lost"). */
  constructor(onMessage, onStatus) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.lastId = null;
    this.failures = 0;
    this.source = null;
    this.timer = null;
  }

  open() {
    clearTimeout(this.timer);
    const query = this.lastId ? `?last_event_id=${encodeURIComponent(this.lastId)}` : "";
    const source = new EventSource(`/api/events${query}`);
    this.source = source;
    this.onStatus(this.failures ? "lost" : "connecting");
    source.onopen = () => {
      this.failures = 0;
      this.onStatus("live");
    };
    source.onerror = () => {
      this.onStatus("lost");
      if (source.readyState === EventSource.CLOSED) this.retry();
    };
    for (const kind of KINDS) {
      source.addEventListener(kind, (message) => {
        if (message.lastEventId) this.lastId = message.lastEventId;
        let data;
        try {
          data = JSON.parse(message.data);
        } catch {
          return; // never happens with this server; a broken message must not stop the page
        }
        this.onMessage(kind, data, message.lastEventId || null);
      });
    }
  }

  retry() {
    this.source?.close();
    const delay = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)];
    this.failures += 1;
    this.timer = setTimeout(() => this.open(), delay);
  }
}
