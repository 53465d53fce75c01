"""The boards the camera should be ready to see: the one the game expects, and the few a slip would give.

- A die entered wrongly: every other die, value and grey colour for each pyramid ticket of the latest leg
  with draws (the boards :mod:`companion.table.correction` can then put right). Only where the players enter
  the dice by hand: the electronic pyramid's draw is a fact, and a board that differs is a hand's slip.
- The latest draw not moved on the board yet (the pyramid released a die, or a roll was typed in, and nobody has
  moved its camel yet): the board before it. Not a slip either.
- A draw not entered yet (dice entered by hand: people roll, move the camel, then type the roll in): each die
  still in the pyramid, each value (and the grey die's colours), for whoever's turn it is. Not a slip at all.
- A hand's mistake on the table: a camel (with what stands on it, or alone) set one space off, on top of
  or under the stack there; two camels of one stack swapped. A slip that involves none of the camels the
  latest draw moved is marked ``earlier``: the camera could have seen it when it happened, so it is rarer.

The camera (``vision.verify``) scores these plain tracks against the picture; this module knows the game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from companion.gamelog import action_from_json
from companion.rules import GREY_DIE, GameState, apply
from companion.table.board_check import describe_place
from companion.table.correction import Amendment, _alternatives, _die_words, _replay
from vision.verify import camel_places

Board = dict[int, list[str]]


@dataclass(frozen=True)
class Hypothesis:
    track: Board
    why: str
    """In words: "the game's board", "Cy's pyramid ticket: red 2 → red 1", "red set down on 6, not 5"."""
    amendment: Amendment | None = None
    earlier: bool = False
    """A hand's slip of camels the latest draw did not move (see the module's description)."""
    pending: dict[str, Any] | None = None
    """A draw not entered yet that gives this board (a game log ``pyramid`` action), in a game whose dice are
    entered by hand."""
    unmoved: dict[str, Any] | None = None
    """The game's latest draw, whose camel this board shows not moved yet (the board before it)."""
    tiles: tuple[int, ...] = ()
    """The spaces a desert or spectator tile lies on in the game (the expected board's): no camel stands on one."""


def _board(state: GameState) -> Board:
    return {space: list(stack) for space, stack in state.track.as_dict().items()}


def _key(track: Mapping[int, Sequence[str]]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    return tuple(sorted((space, tuple(stack)) for space, stack in track.items() if stack))


def board_hypotheses(
    start: GameState, actions: Sequence[Mapping[str, Any]], dice: str = "manual", in_play: bool = False
) -> list[Hypothesis]:
    """The expected board first, then each distinct board a mis-entered die or a hand's slip would give.
    ``dice``: the game's (``"manual"`` or ``"pyramid"``, whose draws are facts: its boards are the hand's slips
    only, worded as what to put back where). ``in_play``: the camera watching a game being played, where the
    latest draw's camel may not be moved yet and (dice entered by hand) a roll may be moved before it is typed
    in; those boards are weighed too (not for a log checked after the fact: ``vision read --expect``).

    Raises:
        companion.rules.RuleError: an action the rules refuse (check the log before).
    """
    before = [start]
    for obj in actions:
        before.append(apply(before[-1], action_from_json(obj)))
    expected = _board(before[-1])
    tiles = tuple(sorted(tile.space for tile in before[-1].tiles))
    found = [Hypothesis(expected, "the game's board", tiles=tiles)]
    seen = {_key(expected)}

    def add(hypothesis: Hypothesis) -> None:
        key = _key(hypothesis.track)
        if key not in seen:
            seen.add(key)
            found.append(hypothesis)

    by_hand = dice != "pyramid"
    # The latest entry that moved a camel, if a draw: its camel may simply not be moved on the board yet.
    boards = [_board(state) for state in before]
    moves = [moved_camels(after, board) for board, after in pairwise(boards)]
    latest = next((index for index in reversed(range(len(moves))) if moves[index]), None)
    if in_play and latest is not None and actions[latest].get("type") == "pyramid":
        draw = dict(actions[latest])
        add(Hypothesis(boards[latest], f"the latest draw not moved yet: {_die_words(draw)}", unmoved=draw))
    # A draw not entered yet before the mis-entered dice: the same board both ways (the first draw of a leg, whose
    # die was the previous leg's last, one value further) is the usual course of play, not a slip to alarm about.
    player = before[-1].current_player
    if in_play and by_hand and player is not None and not before[-1].game_over:
        for draw in _draws(before[-1], player):
            state = _replay(before[-1], [draw])
            if state is not None:
                add(Hypothesis(_board(state), f"a draw not entered yet: {_die_words(draw)}", pending=draw))
    draws = [index for index, obj in enumerate(actions) if obj.get("type") == "pyramid"]
    if draws and by_hand:
        leg = before[draws[-1]].leg
        for index in reversed([i for i in draws if before[i].leg == leg]):
            for becomes in _alternatives(before[index], actions[index]):
                state = _replay(before[index], [becomes, *actions[index + 1 :]])
                if state is not None:
                    amendment = Amendment(index, dict(actions[index]), becomes)
                    add(Hypothesis(_board(state), amendment.describe(), amendment))
    # The camels the latest entry that moved any (a draw; a bet moves none): a slip of the hand is likeliest there.
    touched = next((moved for moved in reversed(moves) if moved), None)
    for hypothesis in hand_slips(expected, start.edition.track_length, tiles, put_back=not by_hand):
        if touched is not None and not moved_camels(hypothesis.track, expected) & touched:
            hypothesis = Hypothesis(hypothesis.track, hypothesis.why, earlier=True)
        add(hypothesis)
    return found


def _draws(state: GameState, player: str) -> list[dict[str, Any]]:
    """Every draw the pyramid could give next: each die still in it, each value, each grey colour."""
    found = []
    for die in state.dice_in_pyramid():
        for value in state.edition.die_faces:
            for crazy in state.edition.crazy_camels if die == GREY_DIE else (None,):
                draw: dict[str, Any] = {"player": player, "type": "pyramid", "die": die, "value": value}
                if crazy is not None:
                    draw["crazy"] = crazy
                found.append(draw)
    return found


def moved_camels(track: Mapping[int, Sequence[str]], other: Mapping[int, Sequence[str]]) -> set[str]:
    """The camels that stand on another space, or at another level, in ``track`` than in ``other``."""
    here, there = camel_places(track), camel_places(other)
    return {camel for camel, place in here.items() if there.get(camel) != place}


def hand_slips(
    track: Mapping[int, Sequence[str]], length: int = 16, tiles: Collection[int] = (), put_back: bool = False
) -> list[Hypothesis]:
    """Boards a hand could have made of ``track`` by mistake: one camel (with the camels on it, or alone)
    set down one space off, on top of or under the stack there; two camels of a stack swapped. No camel is
    set down on a spectator tile (``tiles``: their spaces): a hand does not put a camel on one. ``put_back``:
    each is worded as what to do ("put blue back alone on 7: it stands alone on 8"), for games whose board is
    a fact (the electronic pyramid's draws), rather than as what went wrong."""
    base = {space: list(stack) for space, stack in track.items() if stack}
    slips: list[Hypothesis] = []
    for space, stack in base.items():
        if not 1 <= space <= length:
            continue
        for level, camel in enumerate(stack):
            units = {"with": stack[level:], "alone": [camel]}
            for how, unit in units.items():
                if how == "alone" and len(units["with"]) == 1:
                    continue
                rest = [other for other in stack if other not in unit]
                for target in (space - 1, space + 1):
                    if not 1 <= target <= length or target in tiles:
                        continue
                    below = base.get(target, [])
                    for on_top in (True, False) if below else (True,):
                        moved = {**base, space: rest, target: below + unit if on_top else unit + below}
                        moved = {s: v for s, v in moved.items() if v}
                        where = describe_place(target, moved[target].index(camel), moved[target])
                        if put_back:
                            should = describe_place(space, level, stack)
                            carry = f" with {' and '.join(unit[1:])} on it" if len(unit) > 1 else ""
                            if carry:  # where it goes, below the camels it carries: on the space or on a camel
                                should = describe_place(space, level, stack[: level + 1]) if level else f"on {space}"
                            slips.append(Hypothesis(moved, f"put {camel}{carry} back {should}: it stands {where}"))
                        else:
                            slips.append(Hypothesis(moved, f"{camel} set down {where}, not on {space}"))
        for first in range(len(stack)):
            for second in range(first + 1, len(stack)):
                swapped = list(stack)
                swapped[first], swapped[second] = swapped[second], swapped[first]
                why = f"{stack[first]} and {stack[second]} swapped on {space}"
                if put_back:
                    why = f"swap {stack[first]} and {stack[second]} back on {space}: they stand the wrong way round"
                slips.append(Hypothesis({**base, space: swapped}, why))
    return slips
