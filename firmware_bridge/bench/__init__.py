"""Benchmark machinery behind ``aetherlink bench e2e`` and ``aetherlink bench footprint``.

Nothing here is used by the running service; see ``docs/performance.md``.
"""
