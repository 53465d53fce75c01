"""Every bot by name: the built-in ones (:mod:`companion.sim.simple_bots`, :mod:`companion.sim.expert`) and those
loaded from a module, a file or another program (:mod:`companion.sim.plugins`). A bot sees the game as its player
may see it and returns one of the engine's legal actions, or :data:`DRAW` for a pyramid ticket
(:mod:`companion.sim.contract`).
"""

from __future__ import annotations

from companion.sim.contract import DRAW, Bot, Choice
from companion.sim.expert import ExpertBot
from companion.sim.plugins import bot_factory
from companion.sim.simple_bots import GreedyBot, RandomBot, StrongBot

__all__ = ["BOTS", "DRAW", "Bot", "Choice", "GreedyBot", "RandomBot", "StrongBot", "builtin_bots", "make_bots"]


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot}


def make_bots(names: list[str]) -> list[Bot]:
    """New bots for one table, sharing one board cache: built-in names (``random``, ``greedy``, ``strong``,
    ``expert``), or any form :func:`companion.sim.plugins.bot_factory` loads (``module:Class``,
    ``path/to/bot.py``, ``exec:COMMAND``).

    Raises:
        ValueError: an unknown name or a bot that cannot be loaded, in words.
    """
    builtin = builtin_bots()
    shared: dict[object, object] = {}
    bots: list[Bot] = []
    for name in names:
        kind = builtin.get(name)
        if kind is None:
            bots.append(bot_factory(name)())
        else:
            bots.append(kind() if kind is RandomBot else kind(shared))  # type: ignore[call-arg]
    return bots


def builtin_bots() -> dict[str, type]:
    """The built-in bots by name (the expert lives in :mod:`companion.sim.expert`)."""
    return {**BOTS, "expert": ExpertBot}
