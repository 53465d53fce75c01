"""Plain-language descriptions of actions, camel moves and scoring, for the terminal and the pages."""

from __future__ import annotations

from typing import Any

from companion.rules import (
    Action,
    FinishBet,
    LegBet,
    LegScoring,
    Movement,
    Partnership,
    PlaceTile,
    PyramidTicket,
    RaceScoring,
    Track,
)


def describe_action(action: Action) -> str:
    if isinstance(action, LegBet):
        return f"{action.player} takes the top {action.camel} leg ticket"
    if isinstance(action, PlaceTile):
        return f"{action.player} puts their tile on space {action.space}, {action.side} side up"
    if isinstance(action, PyramidTicket):
        colour = f" ({action.crazy} number)" if action.crazy else ""
        return f"{action.player} takes a pyramid ticket: the {action.die} die shows {action.value}{colour}"
    if isinstance(action, FinishBet):
        return f"{action.player} plays a finish card face down on the {action.pile} pile"
    if isinstance(action, Partnership):
        return f"{action.player} enters a partnership with {action.partner}"
    raise TypeError(f"not an action: {action!r}")


def movement_facts(movement: Movement, track: Track | None = None) -> dict[str, Any]:
    """What a move instruction says, as data (the pages word it in their own language): the camel and
    its count, the camels it carries, the tile it lands on, where it ends, the camel it ends on top of
    (``"on"``) or under (``"under"``) when the track after the move is given, and whether it crossed the line.
    """
    facts: dict[str, Any] = {
        "camel": movement.camel,
        "steps": movement.steps,
        "carried": [camel for camel in movement.unit if camel != movement.camel],
        "tile": {"owner": movement.tile.owner, "space": movement.landing} if movement.tile is not None else None,
        "end": movement.end,
        "on": None,
        "under": None,
        "crossed": movement.crossed_finish,
    }
    if track is not None:
        stack = track.stack_at(movement.end)
        if len(stack) > len(movement.unit):
            if movement.underneath:
                facts["under"] = stack[len(movement.unit)]
            else:
                facts["on"] = stack[-len(movement.unit) - 1]
    return facts


def describe_movement(movement: Movement, track: Track | None = None) -> str:
    """An instruction for whoever moves the camels, e.g. ``Move red 3: space 9, on top of yellow``.

    With the track after the move, it says which camel the unit now sits on (or under).
    """
    facts = movement_facts(movement, track)
    text = f"Move {facts['camel']} {facts['steps']}"
    if facts["carried"]:
        text += f" (carrying {', '.join(facts['carried'])})"
    tile = facts["tile"]
    if tile is not None:
        owner = tile["owner"]
        text += f": lands on {owner}'s tile on space {tile['space']} ({owner} +1), then steps to space {facts['end']}"
    else:
        text += f": space {facts['end']}"
    if facts["under"]:
        text += f", under {facts['under']}"
    elif facts["on"]:
        text += f", on top of {facts['on']}"
    if facts["crossed"]:
        text += " — across the finish line!"
    return text


def describe_leg_scoring(scoring: LegScoring) -> list[str]:
    first, second = scoring.ranking[:2]
    lines = [f"Leg {scoring.leg} scoring — {first} first, {second} second"]
    for score in scoring.scores:
        detail = "; ".join(reward.describe() for reward in score.rewards) or "no tickets"
        lines.append(f"  {score.player}: {score.explain()}  [{detail}]  {score.before} → {score.after} EP")
    return lines


def describe_race_scoring(scoring: RaceScoring) -> list[str]:
    lines = [f"The race is over: {scoring.winner} wins, {scoring.loser} comes last"]
    for payout in scoring.payouts:
        verdict = f"right (#{payout.nth_right})" if payout.right else "wrong"
        lines.append(
            f"  {payout.pile} pile: {payout.owner}'s {payout.camel} card, {verdict}: "
            f"{payout.amount:+d} ({payout.before} → {payout.after} EP)"
        )
    money = ", ".join(f"{player} {amount}" for player, amount in scoring.final_money)
    lines.append(f"Final money: {money}. Winner{'s' if len(scoring.winners) > 1 else ''}: {', '.join(scoring.winners)}")
    return lines
