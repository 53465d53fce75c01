"""Plain-language descriptions of actions, camel moves and scoring, for the terminal and the pages."""

from __future__ import annotations

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


def describe_movement(movement: Movement, track: Track | None = None) -> str:
    """An instruction for whoever moves the camels, e.g. ``Move red 3: space 9, on top of yellow``.

    With the track after the move, it says which camel the unit now sits on (or under).
    """
    carried = [camel for camel in movement.unit if camel != movement.camel]
    text = f"Move {movement.camel} {movement.steps}"
    if carried:
        text += f" (carrying {', '.join(carried)})"
    if movement.tile is not None:
        text += (
            f": lands on {movement.tile.owner}'s tile on space {movement.landing} "
            f"({movement.tile.owner} +1), then steps to space {movement.end}"
        )
    else:
        text += f": space {movement.end}"
    if track is not None:
        stack = track.stack_at(movement.end)
        if movement.underneath and len(stack) > len(movement.unit):
            text += f", under {stack[len(movement.unit)]}"
        elif not movement.underneath and len(stack) > len(movement.unit):
            text += f", on top of {stack[-len(movement.unit) - 1]}"
    if movement.crossed_finish:
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
