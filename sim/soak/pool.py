"""Recognition soaks in worker processes: one game per task, merged as each ends.

A long run stopped part-way (Ctrl-C, or SIGTERM with ``stopping.stop_on_sigterm``)
keeps the figures of every game that ended; the games under way are abandoned,
since nobody will read them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar


class Mergeable(Protocol):
    games: int

    def merge(self, other: Any) -> None: ...


T = TypeVar("T", bound=Mergeable)


def play_in_workers(totals: T, run: Callable[..., Any], tasks: Sequence[tuple[Any, ...]],
                    progress: Callable[[int, T], None] | None, workers: int) -> None:
    """``run(*task)`` for each task in ``workers`` processes; each result merged into ``totals``."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from sim.soak.stopping import compute_worker_setup, stop_workers

    pool = ProcessPoolExecutor(max_workers=workers, initializer=compute_worker_setup)
    try:
        futures = [pool.submit(run, *task) for task in tasks]
        for future in as_completed(futures):
            totals.merge(future.result())
            if progress is not None:
                progress(totals.games, totals)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        stop_workers(timeout=5.0)
        raise
    pool.shutdown()
