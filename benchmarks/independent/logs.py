"""Game logs for the `--expect` check: a board, one die drawn from the pyramid, and the board it leads to by the
companion's own rules engine; plus the board a different entry (another value, another die) would have given,
to see whether the camera notices that the log and the table disagree."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.gamelog import make_log
from companion.rules import EDITIONS, GREY_DIE, Edition, PyramidTicket, apply, new_game
from companion.rules.errors import RuleError

PLAYERS = ("Ann", "Bob")


@dataclass
class Draw:
    log: dict
    """A game log (camelup-game-log/1): the start board and one pyramid draw."""
    expected: dict[int, list[str]]
    """The board the log leads to."""
    other: dict[int, list[str]]
    """The board had the draw been entered differently."""
    other_entry: str
    """That other entry, in words."""


def _ticket(die: str, value: int, crazy: str | None) -> PyramidTicket:
    return PyramidTicket(PLAYERS[0], die, value, crazy)


def _after(edition: str, board: dict[int, list[str]], ticket: PyramidTicket) -> dict[int, list[str]] | None:
    try:
        state = apply(new_game(EDITIONS[edition], PLAYERS, board), ticket)
    except RuleError:
        return None
    track = {int(s): list(v) for s, v in state.track.as_dict().items()}
    return track if all(1 <= s <= 16 for s in track) else None  # a camel past the finish ends the race


Entry = tuple[str, int, str | None]
"""How a draw is entered: the die, its value, and the grey die's number colour (else None)."""


def draw_entries(rules: Edition, dice: Sequence[str]) -> list[Entry]:
    """Every way a draw of one of ``dice`` can be entered, die by die (the grey die: each number colour)."""
    return [(die, value, crazy) for die in dice
            for crazy in (rules.crazy_camels if die == GREY_DIE else (None,)) for value in (1, 2, 3)]


def rival_entries(entries: Sequence[Entry], entry: Entry) -> list[Entry]:
    """The ``entries`` a player could type instead of ``entry``: the same die with another value, or another die
    with the same value."""
    return [e for e in entries if e != entry and (e[0] == entry[0] or e[1] == entry[1])]


def entry_words(entry: Entry) -> str:
    die, value, crazy = entry
    return f"{die} {value}" + (f" ({crazy})" if crazy else "")


def one_draw(edition: str, board: dict[int, list[str]], rng: np.random.Generator) -> Draw | None:
    """A draw from ``board`` and another entry that moves the camels differently; None if none fits."""
    rules = EDITIONS[edition]
    entries = draw_entries(rules, rules.dice)
    order = rng.permutation(len(entries))
    for i in order:
        die, value, crazy = entries[i]
        expected = _after(edition, board, _ticket(die, value, crazy))
        if expected is None:
            continue
        rivals = rival_entries(entries, entries[i])
        for j in rng.permutation(len(rivals)):
            other = _after(edition, board, _ticket(*rivals[j]))
            if other is not None and other != expected:
                log = make_log(edition, PLAYERS, board, [_ticket(die, value, crazy)]).to_json()
                return Draw(log, expected, other, f"{entry_words(rivals[j])} instead of {die} {value}")
    return None
