"""The central board: where terrain tiles lie, which places touch, and their ids.

Built from the catalogue's layout for the player count, the seats' colours and
each tile's orientation (random at setup). Ids, stable whatever the orientation:

- territory ``{tile}.{t}`` (``red2.b``), its construction sites ``{tile}.{t}.{n}`` (1-based);
- a tile's centre ``{tile}.capital`` or ``{tile}.city``.

Tiles are triangles on a triangular grid; territory k of a tile borders the
tile's edge k (clockwise). Territories of one tile touch each other and their
centre; territories of two tiles touch where the tiles share an edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.toe.catalogue import Catalogue


@dataclass(frozen=True)
class CentralBoard:
    territories: tuple[str, ...]
    centres: tuple[str, ...]
    cities: tuple[str, ...]  # centres that are cities (capitals excluded)
    capital_of: tuple[str, ...]  # per seat
    capital_owner: dict[str, int]
    neighbours: dict[str, tuple[str, ...]]  # territory -> adjacent territories
    centre_of: dict[str, str]  # territory -> its tile's centre
    around: dict[str, tuple[str, ...]]  # centre -> the territories of its tile
    sites: dict[str, tuple[str, ...]]  # territory -> its available construction sites
    site_territory: dict[str, str]
    terrain: dict[str, str]
    tiles: tuple[str, ...]  # tile ids in layout order

    def is_centre(self, place: str) -> bool:
        return place in self.around

    def is_territory(self, place: str) -> bool:
        return place in self.neighbours


def _frame_neighbours(row: int, col: int) -> tuple[tuple[int, int], ...]:
    """The cells across each edge of a cell, clockwise (the cell's frame edges 0, 1, 2)."""
    if (row + col) % 2 == 0:  # points up: right, bottom, left
        return ((row, col + 1), (row + 1, col), (row, col - 1))
    return ((row - 1, col), (row, col + 1), (row, col - 1))  # points down: top, right, left


def tile_ids_for(cat: Catalogue, players: int, colours: Sequence[str]) -> list[str]:
    """Tile id at each layout position, in layout order."""
    layout = cat.layout(players)
    return [cat.tiles_of(colours[p.seat])[p.tile].id for p in layout.positions]


def build_board(cat: Catalogue, colours: Sequence[str], orientations: Sequence[int]) -> CentralBoard:
    players = len(colours)
    layout = cat.layout(players)
    tile_ids = tile_ids_for(cat, players, colours)
    cell_tile = {(p.row, p.col): tile_ids[i] for i, p in enumerate(layout.positions)}
    cell_rot = {(p.row, p.col): orientations[i] % 3 for i, p in enumerate(layout.positions)}

    territories: list[str] = []
    centres: list[str] = []
    cities: list[str] = []
    capital_of = [""] * players
    capital_owner: dict[str, int] = {}
    neighbours: dict[str, set[str]] = {}
    centre_of: dict[str, str] = {}
    around: dict[str, tuple[str, ...]] = {}
    sites: dict[str, tuple[str, ...]] = {}
    site_territory: dict[str, str] = {}
    terrain: dict[str, str] = {}

    def territory_at(cell: tuple[int, int], frame_edge: int) -> str:
        tile = cat.tile[cell_tile[cell]]
        k = (frame_edge - cell_rot[cell]) % 3
        return f"{tile.id}.{tile.territories[k].id}"

    for i, p in enumerate(layout.positions):
        tile = cat.tile[tile_ids[i]]
        names = [f"{tile.id}.{t.id}" for t in tile.territories]
        centre = f"{tile.id}.{tile.centre}" if tile.centre != "none" else ""
        for t, name in zip(tile.territories, names):
            territories.append(name)
            terrain[name] = t.terrain
            neighbours[name] = {n for n in names if n != name}
            site_ids = tuple(f"{name}.{j + 1}" for j, s in enumerate(t.sites) if s.available)
            sites[name] = site_ids
            for s in site_ids:
                site_territory[s] = name
            if centre:
                centre_of[name] = centre
        if centre:
            centres.append(centre)
            around[centre] = tuple(names)
            if tile.centre == "capital":
                capital_of[p.seat] = centre
                capital_owner[centre] = p.seat
            else:
                cities.append(centre)
        for edge, cell in enumerate(_frame_neighbours(p.row, p.col)):
            if cell not in cell_tile:
                continue
            back = _frame_neighbours(*cell).index((p.row, p.col))
            neighbours[territory_at((p.row, p.col), edge)].add(territory_at(cell, back))

    return CentralBoard(
        territories=tuple(territories),
        centres=tuple(centres),
        cities=tuple(cities),
        capital_of=tuple(capital_of),
        capital_owner=capital_owner,
        neighbours={k: tuple(sorted(v)) for k, v in neighbours.items()},
        centre_of=centre_of,
        around=around,
        sites=sites,
        site_territory=site_territory,
        terrain=terrain,
        tiles=tuple(tile_ids),
    )
