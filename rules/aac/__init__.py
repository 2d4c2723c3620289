"""An Age Contrived (Bellows Intent, 2023): rules engine, notation, catalogue, physical view."""

from rules.aac.game import AacGame


def make_game() -> AacGame:
    return AacGame()


__all__ = ["AacGame", "make_game"]
