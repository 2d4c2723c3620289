"""The pipeline core: one thread, one input at a time, journal first, then tell the world.

Inputs (snapshots, momentary events, commands, ticks) come from adapter threads
through the ``Inbox``. For each one the core asks the interpreter for a
``Verdict``, checks it against the rules, appends what was accepted to the
journal in one durable transaction, and only then publishes events, the
retained state and the LED frame. A journal that cannot be written stops the
service (``JournalError``): better restarted by systemd than telling players
about moves that would be forgotten.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

import rules
from firmware_bridge import leds
from firmware_bridge.config import Config
from firmware_bridge.journal import GameSetup, Journal, Kind, action_body, replay
from firmware_bridge.memory import Releaser
from firmware_bridge.service import views
from firmware_bridge.service.commands import handle_command
from firmware_bridge.service.holding import TableWait
from firmware_bridge.service.inputs import CommandInput, EventInput, Inbox, Input, SnapshotInput, Stop, Tick
from firmware_bridge.service.seams import Flushing, InterpreterFactory, LedSink, Publisher, WorkKeeper
from firmware_bridge.service.session import InterpreterFault, Session
from firmware_bridge.service.timekeeping import Clock, Sounds, TimeKeeping
from hal.collector import collection_deferred
from rules import CHANCE
from rules.core.physical import LedFrame, Snapshot
from rules.core.verdict import Verdict

log = logging.getLogger("aetherlink.core")


class Core:
    def __init__(
        self,
        config: Config,
        journal: Journal,
        *,
        publishers: Sequence[Publisher] = (),
        led_sinks: Sequence[LedSink] = (),
        interpreter_factory: InterpreterFactory | None = None,
        bridge_info: Callable[[], Mapping[str, Any]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        game_clock: Clock | None = None,
        sounds: Sounds | None = None,
    ):
        self.config = config
        self.journal = journal
        self.publishers = list(publishers)
        self._flushing: tuple[tuple[int, ...], list[Flushing]] = ((), [])  # (the publishers' ids, those that flush)
        self.led_sinks = list(led_sinks)
        self.interpreter_factory = interpreter_factory
        self.bridge_info = bridge_info or (lambda: {})
        self.clock = clock
        self.lang = config.game.lang
        self.session: Session | None = None
        self.heartbeat = clock()
        self.last_snapshot: Snapshot | None = None
        self.snapshots = 0  # stable snapshots of the table handled since start (0: the table is not read yet)
        # which inputs wait for the table (an end of turn before it is read or while its last change settles)
        self.wait = TableWait(lambda: self.clock())  # (the clock read each time: tests replace it)
        self._palette = leds.palette({str(k): str(v) for k, v in config.leds.palette.items()})
        self._frame: LedFrame | None = None
        self._published_state = b""
        # the engine-state part of the retained state, for the position it was computed from: a snapshot
        # that commits nothing (a hand at work) re-publishes without scoring the game again
        self._engine_part: tuple[object, int, str, dict[str, Any]] | None = None
        self._kept_work: tuple[int, int, object] | None = None  # (game, journal row, work) last kept
        self.time = TimeKeeping(self, game_clock, sounds)  # the timekeeper of games with time events

    # -- start --

    def boot(self) -> None:
        """Resume the journal's latest game, or start the configured one; then publish."""
        rebuilt = replay(self.journal)
        if rebuilt is not None:
            self.session = Session(rebuilt.number, rebuilt.setup, rebuilt.game, rebuilt.state,
                                   self.interpreter_factory, self.lang)
            self.session.last_move = views.last_move_of(rebuilt.steps)
            log.info("resumed game %d (%s) at journal row %d", rebuilt.number, rebuilt.setup.game,
                     rebuilt.last_seq)
            self.commit(self.session.interpreter.resync(), "resume")
            self._resume_work(rebuilt.number)
        elif self.config.game.name is not None:
            g = self.config.game
            seed = g.seed if g.seed is not None else secrets.randbelow(2**31)
            self.start_game(GameSetup(g.name or "", g.players, seed, dict(g.options)), "config")
        self.publish()

    def start_game(self, setup: GameSetup, source: str) -> Session:
        """Journal a new game's setup, then make it the game in play."""
        game = rules.load(setup.game)
        state = setup.new_state(game)
        entry = self.journal.append([("setup", setup.to_body(source))])[0]
        self.session = Session(entry.game, setup, game, state, self.interpreter_factory, self.lang)
        self.event("game_start", {"seq": entry.seq, "number": entry.game, **(self.game_json() or {})})
        self.commit(self.session.interpreter.resync(), source)
        if self.last_snapshot is not None:
            self.commit(self.session.interpreter.observe(self.last_snapshot), "table")
        return self.session

    # -- the loop --

    def run(self, inbox: Inbox, tick: float = 1.0) -> None:
        """Consume inputs until ``Stop``; the calling thread becomes the core thread."""
        releaser = Releaser(time.monotonic)
        while True:
            item = inbox.get(self.wait.wait_s(self.time.wait(tick))) or Tick()
            self.heartbeat = self.clock()
            if isinstance(item, Stop):
                return
            with collection_deferred():
                self.handle(item)
            self.heartbeat = self.clock()
            if not inbox.qsize():
                if self.session is not None:
                    self.session.interpreter.tidy()  # (after publishing: freeing delays no verdict)
                releaser.idle()  # (after publishing: the search's garbage goes back to the system)

    def handle(self, item: Input) -> None:
        """Handle ``item`` now, or keep it until the table it concerns is read (``holding``)."""
        if not isinstance(item, SnapshotInput):
            self._release()  # what waited came first
        if self.wait.hold(item, self._handled_seq()):
            return
        self._handle_now(item)
        if isinstance(item, SnapshotInput):
            self._release()

    def _handled_seq(self) -> int:
        return self.last_snapshot.seq if self.last_snapshot is not None else 0

    def _release(self) -> None:
        for held in self.wait.due(self._handled_seq()):
            self._handle_now(held)

    def _handle_now(self, item: Input) -> None:
        if isinstance(item, CommandInput):
            response = handle_command(self, item)
            self.time.run_due()
            self.publish()  # the new state is out before the response: a client reading it is current
            item.reply(response)
            self._flush()
            self._keep_work()
            return
        if isinstance(item, SnapshotInput):
            if log.isEnabledFor(logging.DEBUG):
                log.debug("snapshot %d: %s", item.snapshot.seq, _changes(self.last_snapshot, item.snapshot))
            self.last_snapshot = item.snapshot
            self.snapshots += 1
            if self.snapshots == 1:
                log.info("the table is read: first stable snapshot")
            elif item.snapshot.unwatched:
                log.info("snapshot %d comes after a time unwatched (a board out of reach, or a reading that went and "
                         "came back unseen): moves that left no trace are looked for", item.snapshot.seq)
            self.wait.table_read = True
            if self.session is not None:
                self._guarded(lambda s: s.interpreter.observe(item.snapshot), "table")
        elif isinstance(item, EventInput):
            if self.session is not None:
                self._guarded(lambda s: s.interpreter.event(item.event), "table")
        elif isinstance(item, Tick):
            if self.time.run_due():
                self.publish()
            return
        self.time.run_due()
        self.publish()
        self._flush()
        self._keep_work()  # (after publishing: no verdict waits for it)

    # -- work in progress across a restart --

    def _keep_work(self) -> None:
        """Keep the interpreter's work in progress beside the journal (moves still pending and the answers
        given to them): a restart in the middle of a long move goes on from it instead of having to
        explain the whole move from one snapshot, and asks no question the players answered already."""
        session = self.session
        if session is None or not isinstance(session.interpreter, WorkKeeper):
            return
        kept = (session.number, self.journal.last_seq, session.interpreter.pending_work())
        if kept != self._kept_work:  # (the same work is the same object: compared by identity first)
            self._kept_work = kept
            self.journal.save_pending(*kept)

    def _resume_work(self, game: int) -> None:
        session = self.session
        work = self.journal.load_pending(game, self.journal.last_seq)
        if session is not None and isinstance(session.interpreter, WorkKeeper) and work is not None:
            session.interpreter.resume_work(work)
            log.info("went on with the moves pending before the restart (%d line(s), %d answer(s))",
                     len(work.get("lines") or []), len(work.get("answers") or []))

    def _guarded(self, ask: Callable[[Session], Verdict], source: str) -> None:
        """Ask the interpreter; a bug in it is logged and it restarts from the journal; the game goes on."""
        session = self.session
        assert session is not None
        try:
            verdict = ask(session)
        except Exception as exc:  # an interpreter bug must not stop the table
            log.exception("interpreter failed; restarting it from the journal")
            self.event("error", {"message": f"interpreter failed: {exc}"})
            session.rebuild_interpreter()
            return
        self.commit(verdict, source)

    # -- verdicts --

    def commit(self, verdict: Verdict, source: str,
               before: Sequence[tuple[Kind, Mapping[str, Any]]] = ()) -> list[dict[str, Any]]:
        """Journal what ``verdict`` accepted (after ``before`` rows), then publish its events.

        Returns the accepted moves as JSON (with their journal ``seq``).
        """
        session = self.session
        assert session is not None
        try:
            new_state, steps = session.advance(verdict)
        except InterpreterFault as exc:
            log.error("refusing the interpreter's verdict: %s", exc)
            self.event("error", {"message": f"interpreter fault: {exc}"})
            session.rebuild_interpreter()
            return []
        rows: list[tuple[Kind, Mapping[str, Any]]] = list(before)
        if verdict.undone:
            rows.append(("undo", {"count": verdict.undone, "source": source}))
        for decider, action, state_before in steps:
            rows.append(("action", action_body(session.game, state_before, decider, action,
                                               "chance" if decider == CHANCE else source)))
        entries = self.journal.append(rows)  # JournalError propagates: the service must stop
        was_terminal = session.state.is_terminal()
        session.state = new_state
        self.time.committed([action for _, action, _ in steps])
        action_seqs = [e.seq for e in entries if e.kind == "action"]
        moves = [views.move_json(session.game, before_state, seq, decider, action)
                 for (decider, action, before_state), seq in zip(steps, action_seqs)]
        undo_seq = next((e.seq for e in entries if e.kind == "undo"), None)
        self._announce(session, verdict, moves, undo_seq, source)
        if not was_terminal and new_state.is_terminal():
            self.event("game_end", {"number": session.number, "seq": self.journal.last_seq,
                                    "scores": views.scores_json(new_state, self.lang)})
        return moves

    def _announce(self, session: Session, verdict: Verdict, moves: list[dict[str, Any]], undo_seq: int | None,
                  source: str) -> None:
        old = session.status
        session.update_status(verdict)
        if verdict.undone:
            log.info("undo: %d decision(s) rolled back (%s)", verdict.undone, source)
            self.event("undo", {"count": verdict.undone, "seq": undo_seq, "source": source})
            session.last_move = None  # the latest decision left is no longer the latest accepted one
        for move in moves:
            move_source = "chance" if move["chance"] else source
            log.info("accepted #%d, %s: %s (%s)", move["seq"], move["name"], move["notation"], move_source)
            self.event("move", {**move, "source": move_source})
            session.last_move = {key: move[key] for key in ("seq", "seat", "notation")}
        new = session.status
        state = session.state
        if new.refusal is not None and new.refusal != old.refusal:
            refusal = views.refusal_json(new.refusal, state, self.lang)
            log.info("refused, %s: %s", refusal["name"], refusal["reason"])
            self.event("refusal", refusal)
        if (new.in_sync, new.differences) != (old.in_sync, old.differences):
            if new.in_sync != old.in_sync:
                log.info("the table is %s", "in sync again" if new.in_sync else
                         f"out of sync ({len(new.differences)} difference(s))")
            self.event("sync", self.sync_json())
        old_ids = {p.id for p in old.prompts}
        for prompt in new.prompts:
            if prompt.id not in old_ids:
                shown = views.prompt_json(prompt, state, self.lang, session.game)
                log.info("prompt %s for %s: %s", shown["id"], shown["name"], shown["question"])
                self.event("prompt", shown)

    # -- publishing --

    def event(self, kind: str, payload: Mapping[str, Any]) -> None:
        body = {"board": self.config.board.id, "ts": round(time.time(), 3), **payload}
        for publisher in self.publishers:
            publisher.publish_event(kind, body)

    def _flush(self) -> None:
        """Let publishers that write on their own thread send the verdict before the core's housekeeping
        (saving the work in progress, freeing the search's positions) takes the GIL again."""
        ids = tuple(map(id, self.publishers))
        if self._flushing[0] != ids:  # (a runtime protocol check costs ~8 us: done when the list changes)
            self._flushing = (ids, [p for p in self.publishers if isinstance(p, Flushing)])
        for publisher in self._flushing[1]:
            publisher.flush()

    def publish(self) -> None:
        """Publish the retained state and the LED frame if they changed."""
        document = self.state_document()
        encoded = msgspec.json.encode(document, order="sorted")
        if encoded != self._published_state:
            self._published_state = encoded
            for publisher in self.publishers:
                publisher.publish_state(document)
        self._show_leds()

    def _show_leds(self) -> None:
        if not self.config.leds.enabled:
            return
        session = self.session
        status = session.status if session else leds.TableStatus()
        if session is not None and not session.sensed:
            # Without sensors every decision is a prompt; the seat shows "your turn", not "answer a prompt".
            status = dataclasses.replace(status, prompts=())
        if self.time.hints():
            status = dataclasses.replace(status, hints=status.hints + self.time.hints())
        seq = (self._frame.seq + 1) if self._frame else 1
        frame = leds.compute(session.state if session else None, status, self._palette, seq)
        if self._frame is not None and dict(self._frame.leds) == dict(frame.leds):
            return
        self._frame = frame
        for sink in self.led_sinks:
            sink.show(frame)
        payload = leds.frame_json(frame)
        for publisher in self.publishers:
            publisher.publish_leds(payload)

    @property
    def frame(self) -> LedFrame | None:
        return self._frame

    def game_json(self) -> dict[str, Any] | None:
        session = self.session
        if session is None:
            return None
        s = session.setup
        return {"name": s.game, "title": session.game.title, "number": session.number, "players": s.players,
                "seed": s.seed, "options": dict(s.options), "setup": dict(s.setup) if s.setup else None,
                "seat_names": session.state.seat_names(), "sensed": session.sensed}

    def sync_json(self) -> dict[str, Any]:
        session = self.session
        if session is None:
            return {"in_sync": True, "pending": False, "differences": []}
        return {"in_sync": session.status.in_sync, "pending": session.pending,
                "differences": [views.difference_json(d, self.lang) for d in session.status.differences]}

    def _engine_json(self, session: Session) -> dict[str, Any]:
        """``views.game_state_json`` of the session's state, computed once per position.

        Engine states change only by ``apply`` (which lengthens the history) or by being replaced;
        the cache holds the state itself, so its identity cannot be reused by another."""
        state = session.state
        cached = self._engine_part
        if cached is not None and cached[0] is state and cached[1] == len(state.history) and cached[2] == self.lang:
            return cached[3]
        part = views.game_state_json(session.game, state, self.lang)
        self._engine_part = (state, len(state.history), self.lang, part)
        return part

    def state_document(self) -> dict[str, Any]:
        """The retained state (documented field by field in ``docs/mqtt.md``)."""
        board = {"id": self.config.board.id, "name": self.config.board.name}
        session = self.session
        if session is None:
            return {"board": board, "seq": self.journal.last_seq, "game": None, "seats": [], "turn": None,
                    "terminal": False, "scores": None, "decision": None, "decisions": 0,
                    "sync": self.sync_json(), "refusal": None, "prompts": [], "last_move": None, "table": None}
        state = session.state
        refusal = session.status.refusal
        return {"board": board, "seq": self.journal.last_seq, "game": self.game_json(),
                **self._engine_json(session),
                "sync": self.sync_json(),
                "refusal": views.refusal_json(refusal, state, self.lang) if refusal else None,
                "prompts": [views.prompt_json(p, state, self.lang, session.game) for p in session.status.prompts],
                "last_move": session.last_move}


def _changes(before: Snapshot | None, after: Snapshot) -> str:
    """What a snapshot changed, for the debug log (where a table's reading went wrong)."""
    if before is None:
        return f"the first, {len(after.readings)} location(s)"
    changed = [f"{location} {before.readings.get(location)!r} -> {reading!r}"
               for location, reading in sorted(after.readings.items()) if before.readings.get(location) != reading]
    return "; ".join(changed) or "no change"
