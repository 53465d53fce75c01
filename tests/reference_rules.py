"""A second, deliberately plain implementation of the rules, for cross-checking the engine.

It shares no code with ``companion``: it was written straight from the rulebooks and CLARIFICATIONS.md,
with mutable lists of camels per position, and it only answers what ``camelup replay`` prints (or the
index of the first refused action). If the engine and this file disagree, one of them misreads a rule.
"""

from __future__ import annotations

from typing import Any

RULES = {
    "2014": {
        "racing": ["blue", "green", "orange", "yellow", "white"],
        "crazy": [],
        "tickets": [5, 3, 2],
        "sides": {"oasis": +1, "mirage": -1},
        "partners": False,
    },
    "2018": {
        "racing": ["green", "yellow", "red", "blue", "purple"],
        "crazy": ["black", "white"],
        "tickets": [5, 3, 2, 2],
        "sides": {"cheer": +1, "boo": -1},
        "partners": True,
    },
}


class Refused(Exception):
    pass


def _int(value: Any) -> bool:
    return type(value) is int


class Game:
    def __init__(self, log: dict) -> None:
        if not isinstance(log, dict) or log.get("format") != "camelup-game-log/1":
            raise Refused("format")
        if log.get("edition") not in RULES:
            raise Refused("edition")
        self.rules = RULES[log["edition"]]
        self.edition = log["edition"]
        players = log.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 8:
            raise Refused("players")
        if any(not isinstance(p, str) or not p.strip() for p in players) or len(set(players)) != len(players):
            raise Refused("players")
        self.players = list(players)
        self.money = {p: 3 for p in players}
        setup = log.get("setup")
        if not isinstance(setup, dict) or not isinstance(setup.get("track"), dict):
            raise Refused("setup")
        self.board: dict[int, list[str]] = {}
        seen = []
        for key, stack in setup["track"].items():
            if not isinstance(key, str) or not key.isdigit() or str(int(key)) != key or not 1 <= int(key) <= 16:
                raise Refused("space")
            if not isinstance(stack, list):
                raise Refused("stack")
            for camel in stack:
                if camel not in self.rules["racing"] + self.rules["crazy"] or camel in seen:
                    raise Refused("camel")
                seen.append(camel)
            if stack:
                self.board[int(key)] = list(stack)
        if sorted(seen) != sorted(self.rules["racing"] + self.rules["crazy"]):
            raise Refused("camels")
        self.actions = log.get("actions", [])
        if not isinstance(self.actions, list):
            raise Refused("actions")
        self.leg = 1
        self.seat = 0
        self.over = False
        self.new_leg()
        self.cards_played = {p: set() for p in players}
        self.winner_pile: list[tuple[str, str]] = []
        self.loser_pile: list[tuple[str, str]] = []

    def new_leg(self) -> None:
        self.ticket_stacks = {c: list(self.rules["tickets"]) for c in self.rules["racing"]}
        self.held: list[tuple[str, str, int]] = []  # (owner, camel, printed)
        self.pyr: list[str] = []
        self.drawn: list[str] = []
        self.tiles: dict[int, tuple[str, int]] = {}  # space -> (owner, +1/-1)
        self.partner: dict[str, str] = {}

    # -- board helpers
    def where(self, camel: str) -> tuple[int, int]:
        for pos, stack in self.board.items():
            if camel in stack:
                return pos, stack.index(camel)
        raise AssertionError(camel)

    def order(self) -> list[str]:
        out = []
        for pos in sorted(self.board, reverse=True):
            for camel in reversed(self.board[pos]):
                if camel in self.rules["racing"]:
                    out.append(camel)
        return out

    # -- one action
    def act(self, a: Any) -> None:
        if self.over or not isinstance(a, dict):
            raise Refused("over/shape")
        who = a.get("player")
        if who != self.players[self.seat]:
            raise Refused("turn")
        kind = a.get("type")
        racing = self.rules["racing"]
        if kind == "leg_bet":
            camel = a.get("camel")
            if camel not in racing or not self.ticket_stacks[camel]:
                raise Refused("leg_bet")
            self.held.append((who, camel, self.ticket_stacks[camel].pop(0)))
        elif kind == "spectator":
            space, side = a.get("space"), a.get("side")
            if not _int(space) or side not in self.rules["sides"] or not 2 <= space <= 16:
                raise Refused("tile")
            mine = [s for s, (o, _) in self.tiles.items() if o == who]
            if mine and mine[0] == space:
                raise Refused("same space")
            if space in self.board:
                raise Refused("camels there")
            for s, (o, _) in self.tiles.items():
                if o == who:
                    continue
                if s == space or s == space + 1 or s == space - 1 or {s, space} == {1, 16}:
                    raise Refused("near tile")
            for s in mine:
                del self.tiles[s]
            self.tiles[space] = (who, self.rules["sides"][side])
        elif kind == "pyramid":
            self.pyramid(who, a)
            return
        elif kind == "finish_bet":
            pile, camel = a.get("pile"), a.get("camel")
            if pile not in ("winner", "loser") or camel not in racing or camel in self.cards_played[who]:
                raise Refused("finish")
            self.cards_played[who].add(camel)
            (self.winner_pile if pile == "winner" else self.loser_pile).append((who, camel))
        elif kind == "partnership":
            other = a.get("with")
            if not self.rules["partners"] or len(self.players) < 6:
                raise Refused("no partnerships")
            if other not in self.players or other == who or who in self.partner or other in self.partner:
                raise Refused("partner")
            self.partner[who] = other
            self.partner[other] = who
        else:
            raise Refused("kind")
        self.seat = (self.seat + 1) % len(self.players)

    def pyramid(self, who: str, a: dict) -> None:
        die, value = a.get("die"), a.get("value")
        dice = self.rules["racing"] + (["grey"] if self.rules["crazy"] else [])
        if die not in dice or die in self.drawn or not _int(value) or value not in (1, 2, 3):
            raise Refused("die")
        if die == "grey":
            colour = a.get("crazy")
            if colour not in ("black", "white"):
                raise Refused("colour")
            camel = self.pick_crazy(colour)
            sign = -1
        else:
            if a.get("crazy") is not None:
                raise Refused("colour on racing die")
            camel, sign = die, +1
        self.drawn.append(die)
        self.pyr.append(who)
        self.seat = (self.seat + 1) % len(self.players)
        pos, h = self.where(camel)
        unit = self.board[pos][h:]
        del self.board[pos][h:]
        if not self.board[pos]:
            del self.board[pos]
        dest = pos + sign * value
        under = False
        if dest in self.tiles:
            owner, effect = self.tiles[dest]
            self.money[owner] += 1
            dest += sign * effect
            under = effect < 0
        here = self.board.setdefault(dest, [])
        if under:
            here[:0] = unit
        else:
            here.extend(unit)
        if dest < 1 or dest > 16:
            self.score_leg()
            self.score_finish()
            self.over = True
        elif len(self.drawn) == 5:
            self.score_leg()
            self.leg += 1
            self.new_leg()

    def pick_crazy(self, colour: str) -> str:
        def has_racer_above(c: str) -> bool:
            pos, h = self.where(c)
            return any(x in self.rules["racing"] for x in self.board[pos][h + 1 :])

        loaded = [c for c in ("black", "white") if has_racer_above(c)]
        if len(loaded) == 1:
            return loaded[0]
        pb, hb = self.where("black")
        pw, hw = self.where("white")
        if pb == pw and abs(hb - hw) == 1:
            return "black" if hb > hw else "white"
        return colour

    def score_leg(self) -> None:
        order = self.order()

        def reward(camel: str, printed: int) -> int:
            if camel == order[0]:
                return printed
            return 1 if camel == order[1] else -1

        per = {p: [] for p in self.players}
        for owner, camel, printed in self.held:
            per[owner].append(reward(camel, printed))
        for owner in self.pyr:
            per[owner].append(1)
        for p in self.players:
            total = sum(per[p])
            if p in self.partner and per[self.partner[p]]:
                total += max(0, max(per[self.partner[p]]))
            self.money[p] = max(0, self.money[p] + total)

    def score_finish(self) -> None:
        order = self.order()
        for pile, target in ((self.winner_pile, order[0]), (self.loser_pile, order[-1])):
            right = 0
            for owner, camel in pile:
                if camel == target:
                    self.money[owner] += [8, 5, 3, 2][right] if right < 4 else 1
                    right += 1
                else:
                    self.money[owner] = max(0, self.money[owner] - 1)

    def result(self) -> dict:
        return {
            "edition": self.edition,
            "leg": self.leg,
            "game_over": self.over,
            "track": {str(pos): list(stack) for pos, stack in sorted(self.board.items()) if stack},
            "ranking": self.order(),
            "money": dict(self.money),
            "next_player": None if self.over else self.players[self.seat],
        }


def replay(log: Any) -> dict:
    """What ``camelup replay`` must print for ``log``: the spec's keys, or ``{"action": N}`` if refused."""
    try:
        game = Game(log)
    except Refused:
        return {"action": 0}
    for index, action in enumerate(game.actions, start=1):
        try:
            game.act(action)
        except Refused:
            return {"action": index}
    return game.result()
