"""A Python bot class, loaded with ``--players examples/bots/tile_lover.py`` (or ``module:Class``).

A bot gets the game as its seat may know it (other players' finish cards read "?"), the legal actions and a
seeded random generator; it returns a legal action or ``DRAW`` for a pyramid ticket.

It puts its tile on the free space just ahead of the leading camel when its tile is not already on the
track, and otherwise takes a pyramid ticket.
"""

import random

from companion.rules import GameState, LegalActions, PlaceTile
from companion.sim.bots import DRAW


class TileLover:
    name = "tile_lover"

    def choose(self, view: GameState, legal: LegalActions, rng: random.Random):
        player = legal.player
        if view.tile_of(player) is None:
            leader_space = view.track.position_of(view.ranking()[0])
            for space, side in legal.tile_spots:
                if space > leader_space and side == view.edition.plus_side:
                    return PlaceTile(player, space, side)
        return DRAW
