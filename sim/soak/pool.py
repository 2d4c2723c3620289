"""Recognition soaks: one game per task, in this process or in workers, merged as each ends.

A long run stopped part-way (Ctrl-C, or SIGTERM with ``stopping.stop_on_sigterm``)
keeps the figures of every game that ended and says it was stopped; the games
under way are abandoned, since nobody will read them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar


class Totals(Protocol):
    games: int
    stopped: bool

    def merge(self, other: Any) -> None: ...


T = TypeVar("T", bound=Totals)


def play_games(totals: T, game: Callable[..., T], tasks: Sequence[tuple[Any, ...]],
               progress: Callable[[int, T], None] | None, workers: int) -> T:
    """``game(*task)`` for each task (in ``workers`` processes when more than 1), each result merged into
    ``totals``; ``totals.stopped`` when interrupted."""
    try:
        if workers <= 1:
            for task in tasks:
                _merge(totals, game(*task), progress)
        else:
            _in_workers(totals, game, tasks, progress, workers)
    except KeyboardInterrupt:
        totals.stopped = True
    return totals


def _merge(totals: T, one: T, progress: Callable[[int, T], None] | None) -> None:
    totals.merge(one)
    if progress is not None:
        progress(totals.games, totals)


def _in_workers(totals: T, game: Callable[..., T], tasks: Sequence[tuple[Any, ...]],
                progress: Callable[[int, T], None] | None, workers: int) -> None:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from sim.soak.stopping import stop_workers, worker_exits_with_parent

    pool = ProcessPoolExecutor(max_workers=workers, initializer=worker_exits_with_parent)
    try:
        futures = [pool.submit(game, *task) for task in tasks]
        for future in as_completed(futures):
            _merge(totals, future.result(), progress)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        stop_workers(timeout=5.0)
        raise
    pool.shutdown()
