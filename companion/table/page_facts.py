"""What the pages show beyond the spec's state, as facts the pages word in their own language: the action
ticker, whether the move instruction is still current, what to put back after an undo, what a correction
changed (the entry, the money, the legs scored), the starting positions, each leg-scoring line as data and
each player's final breakdown.

Everything here is public: a face-down finish card is told only by its pile, never by its camel, until the
race is over (the reveal then names every card anyway).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.gamelog import action_from_json
from companion.rules import EDITIONS, GameState, Reward, apply, new_game
from companion.sim.narrate import movement_facts
from companion.table.store import Entry, GameRow, effective_actions

TICKER_LENGTH = 8
"""How many recent actions the pages may list (the table shows them as a ticker)."""


def action_facts(before: GameState, obj: dict[str, Any], after: GameState) -> dict[str, Any]:
    """One accepted action as public facts (``obj`` is the log's action object)."""
    kind = obj["type"]
    facts: dict[str, Any] = {"type": kind, "player": obj["player"]}
    if kind == "leg_bet":
        facts.update(camel=obj["camel"], value=before.tickets_left(obj["camel"])[0])
    elif kind == "spectator":
        facts.update(space=obj["space"], side=obj["side"])
    elif kind == "finish_bet":
        facts.update(pile=obj["pile"])  # never the camel: the card lies face down
    elif kind == "partnership":
        facts.update(partner=obj["with"])
    elif kind == "pyramid":
        facts.update(die=obj["die"], value=obj["value"], crazy=obj.get("crazy"),
                     move=movement_facts(after.last_movement, after.track) if after.last_movement else None,
                     leg_over=after.leg != before.leg or after.game_over)
    return facts


def _replay(row: GameRow, actions: Sequence[dict[str, Any]]) -> list[tuple[GameState, dict[str, Any], GameState]]:
    state = new_game(EDITIONS[row.edition], row.players, {int(k): tuple(v) for k, v in row.setup["track"].items()})
    steps = []
    for obj in actions:
        after = apply(state, action_from_json(obj))
        steps.append((state, obj, after))
        state = after
    return steps


def put_back(before: GameState, undone: dict[str, Any], after: GameState) -> dict[str, Any]:
    """What the players must undo on the real table once ``undone`` is taken back: the camels to move back
    (where from, where to, on top of which camel), the ticket, tile or card to return, the die to put back."""
    facts = action_facts(after, undone, before)
    out: dict[str, Any] = {"action": facts, "camels": None}
    movement = before.last_movement if undone["type"] == "pyramid" else None
    if movement is not None:
        bottom = movement.unit[0]
        space = after.track.position_of(bottom)
        stack = after.track.stack_at(space)
        below = stack[stack.index(bottom) - 1] if stack.index(bottom) > 0 else None
        above = stack[stack.index(movement.unit[-1]) + 1] if stack[-1] != movement.unit[-1] else None
        out["camels"] = {"camel": movement.camel, "unit": list(movement.unit), "from": movement.end, "to": space,
                         "on": below, "under": above}
    return out


def _reward_facts(reward: Reward) -> dict[str, Any]:
    facts: dict[str, Any] = {"source": reward.source, "amount": reward.amount}
    if reward.source == "leg_ticket":
        facts.update(camel=reward.camel, printed=reward.printed, place=reward.place)
    elif reward.source == "partner" and reward.copied is not None:
        facts.update(partner=reward.partner, copied=_reward_facts(reward.copied))
    return facts


def breakdown(state: GameState) -> dict[str, dict[str, int]]:
    """Each player's money as its sources: the start, the legs (tickets and pyramid tickets), the finish cards,
    and the rest, which the rules pay only for tiles (+1 each time a camel lands on one's tile)."""
    out = {}
    for player in state.players:
        legs = sum(score.after - score.before for scoring in state.leg_scorings for score in scoring.scores
                   if score.player == player)
        cards = sum(p.amount for p in state.race_scoring.payouts if p.owner == player) if state.race_scoring else 0
        final = state.money_of(player)
        start = state.edition.start_money
        out[player] = {"start": start, "legs": legs, "cards": cards, "tiles": final - start - legs - cards,
                       "final": final}
    return out


def _standing_corrections(entries: Sequence[Entry]) -> list[dict[str, Any] | None]:
    """For each standing action (as ``effective_actions`` gives them), what it was entered as if a correction
    changed it since (the first entry's action), else None."""
    was: list[dict[str, Any] | None] = []
    for entry in entries:
        if entry.kind == "undo":
            if was:
                was.pop()
        elif entry.kind == "correct":
            index = entry.body["index"]
            was[index] = was[index] or entry.body.get("was")
        else:
            was.append(None)
    return was


def _leg_results(state: GameState) -> dict[int, tuple[Any, ...]]:
    return {scoring.leg: (scoring.ranking, tuple((s.player, s.after) for s in scoring.scores))
            for scoring in state.leg_scorings}


def effects(before: GameState, after: GameState) -> dict[str, Any]:
    """What a change to the history (a correction, an undo) changed for everyone: each player's money that
    moved, the legs scored, scored again or no longer over, and whether the race's end moved."""
    old, new = _leg_results(before), _leg_results(after)
    return {
        "money": [{"player": player, "before": before.money_of(player), "after": after.money_of(player)}
                  for player in after.players if before.money_of(player) != after.money_of(player)],
        "legs": [{"leg": leg, "change": "scored" if leg not in old else "unscored" if leg not in new else "rescored"}
                 for leg in sorted(set(old) | set(new)) if old.get(leg) != new.get(leg)],
        "race": None if before.game_over == after.game_over else "over" if after.game_over else "on again",
    }


def correction_facts(row: GameRow, entries: Sequence[Entry], state: GameState) -> dict[str, Any] | None:
    """When the latest entry corrects an earlier one: which (``n``, counted as the ticker counts), what it was
    and what it became (as ticker facts), who asked and why, and its ``effects``."""
    last = entries[-1] if entries else None
    if last is None or last.kind != "correct":
        return None
    index = last.body["index"]
    before_actions = effective_actions(list(entries[:-1]))
    before_steps = _replay(row, before_actions)
    after_steps = _replay(row, effective_actions(list(entries)))
    before = before_steps[-1][2] if before_steps else state
    return {
        "by": last.by,
        "source": last.body.get("source"),
        "n": index + 1,
        "was": action_facts(*before_steps[index]),
        "becomes": action_facts(*after_steps[index]),
        **effects(before, state),
    }


def table_facts(row: GameRow, entries: Sequence[Entry], state: GameState, public: dict[str, Any]) -> dict[str, Any]:
    """The keys this module adds to the public state (``public`` is that state, enriched in place where a
    spec key carries a list of facts)."""
    actions = effective_actions(list(entries))
    steps = _replay(row, actions)
    corrected = _standing_corrections(entries)
    ticker = [{"n": index + 1, **action_facts(*step)} for index, step in enumerate(steps)][-TICKER_LENGTH:]
    for line in ticker:  # a corrected entry says so for as long as the ticker shows it
        was = corrected[line["n"] - 1]
        if was is not None and any(was.get(key) != line.get(key) for key in ("die", "value", "crazy")):
            line["corrected_from"] = {key: was.get(key) for key in ("die", "value", "crazy")}
    last_entry = entries[-1] if entries else None
    undo = None
    if last_entry is not None and last_entry.kind == "undo":
        before_undo = effective_actions(list(entries[:-1]))
        undone = before_undo[-1]
        previous = _replay(row, before_undo)[-1]
        undo = {"by": last_entry.by, **put_back(previous[2], undone, state), **effects(previous[2], state)}
    if public.get("leg_scoring") and state.leg_scorings:
        scores = {score.player: score for score in state.leg_scorings[-1].scores}
        for line in public["leg_scoring"]["players"]:
            line["rewards"] = [_reward_facts(reward) for reward in scores[line["player"]].rewards]
    if public.get("race_scoring"):
        public["race_scoring"]["breakdown"] = breakdown(state)
    return {
        "start_track": row.setup["track"],
        "actions_taken": len(actions),
        "ticker": ticker,
        "last_action": ticker[-1] if ticker else None,
        "last_action_by": last_entry.by if last_entry is not None and last_entry.kind == "action" else None,
        # After the camera's correction the camels already stand where the corrected draw puts them (the camera
        # saw them there): nothing to move, the notice says what changed.
        "move_current": bool(ticker) and ticker[-1]["type"] == "pyramid" and undo is None
        and not (last_entry is not None and last_entry.kind == "correct"),
        "undo": undo,
        "correction": correction_facts(row, entries, state),
        # Seats whose phone has joined (kept by the server model where it has them): they play their own finish
        # cards, so the scorekeeper page leaves those to the phone. Read at each new version.
        "joined": list(getattr(row, "joined", ())),
    }
