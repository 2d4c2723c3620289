"""Recognition soaks: one game per task, in this process or in workers, merged as each ends.

A long run stopped part-way (Ctrl-C, or SIGTERM with ``stopping.stop_on_sigterm``)
keeps the figures of every game that ended and says it was stopped; the games
under way are abandoned, since nobody will read them. With a results file
(``sim.soak.results``) each game is kept on disk as it ends, and a run started
again plays only the games it does not have.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from sim.soak.results import ResultsFile


class Totals(Protocol):
    games: int
    stopped: bool

    def merge(self, other: Any) -> None: ...


T = TypeVar("T", bound=Totals)


def play_games(totals: T, game: Callable[..., T], tasks: Sequence[tuple[Any, ...]],
               progress: Callable[[int, T], None] | None, workers: int, results: ResultsFile | None = None) -> T:
    """``game(*task)`` for each task (in ``workers`` processes when more than 1), each result merged into
    ``totals``; ``totals.stopped`` when interrupted. Tasks already in ``results`` are merged from it, not
    played; each game played is recorded there as it ends."""
    todo = list(enumerate(tasks))
    if results is not None:
        from sim.soak.results import totals_from

        for index in sorted(i for i in results.done if i < len(tasks)):
            totals.merge(totals_from(type(totals), results.done[index]))
        todo = [(i, task) for i, task in todo if i not in results.done]
        if progress is not None and len(todo) < len(tasks):
            progress(totals.games, totals)
    try:
        if workers <= 1:
            for index, task in todo:
                _merge(totals, index, game(*task), progress, results)
        else:
            _in_workers(totals, game, todo, progress, workers, results)
    except KeyboardInterrupt:
        totals.stopped = True
    return totals


def _merge(totals: T, index: int, one: T, progress: Callable[[int, T], None] | None,
           results: ResultsFile | None) -> None:
    if results is not None:
        results.record(index, one)
    totals.merge(one)
    if progress is not None:
        progress(totals.games, totals)


def _in_workers(totals: T, game: Callable[..., T], todo: list[tuple[int, tuple[Any, ...]]],
                progress: Callable[[int, T], None] | None, workers: int, results: ResultsFile | None) -> None:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from sim.soak.stopping import stop_workers, worker_exits_with_parent

    pool = ProcessPoolExecutor(max_workers=workers, initializer=worker_exits_with_parent)
    try:
        futures = {pool.submit(game, *task): index for index, task in todo}
        for future in as_completed(futures):
            _merge(totals, futures[future], future.result(), progress, results)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        stop_workers(timeout=5.0)
        raise
    pool.shutdown()
