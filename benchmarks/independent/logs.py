"""Game logs for the `--expect` check: a board, one die drawn from the pyramid, and the board it leads to by the
companion's own rules engine; plus the board a different entry (another value, another die) would have given,
to see whether the camera notices that the log and the table disagree."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.gamelog import make_log
from companion.rules import EDITIONS, GREY_DIE, PyramidTicket, apply, new_game
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


def one_draw(edition: str, board: dict[int, list[str]], rng: np.random.Generator) -> Draw | None:
    """A draw from ``board`` and another entry that moves the camels differently; None if none fits."""
    rules = EDITIONS[edition]
    entries: list[tuple[str, int, str | None]] = [(die, v, None) for die in rules.racing_camels for v in (1, 2, 3)]
    if rules.crazy_camels:
        entries += [(GREY_DIE, v, c) for c in rules.crazy_camels for v in (1, 2, 3)]
    order = rng.permutation(len(entries))
    for i in order:
        die, value, crazy = entries[i]
        expected = _after(edition, board, _ticket(die, value, crazy))
        if expected is None:
            continue
        rivals = [e for e in entries if e != entries[i] and (e[0] == die or e[1] == value)]
        for j in rng.permutation(len(rivals)):
            o_die, o_value, o_crazy = rivals[j]
            other = _after(edition, board, _ticket(o_die, o_value, o_crazy))
            if other is not None and other != expected:
                log = make_log(edition, PLAYERS, board, [_ticket(die, value, crazy)]).to_json()
                words = f"{o_die} {o_value}" + (f" ({o_crazy})" if o_crazy else "")
                return Draw(log, expected, other, f"{words} instead of {die} {value}")
    return None
