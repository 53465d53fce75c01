"""Reinforcement-learning environments over the rules engine: a PettingZoo AEC environment (every seat an
agent) and a Gymnasium single-agent wrapper against built-in or plug-in bots.

Install with the ``rl`` extra (``pip install -e '.[rl]'``; the ``dev`` extra has it too).

**Actions** (``Discrete``; the same numbering for every seat, ``action_count(edition, players)`` in all):

- ``0``: take a pyramid ticket (the environment rolls the dice from its seeded generator);
- ``1 … R``: the top leg ticket of racing camel ``R[i]`` (``edition.racing_camels`` order);
- then the tile: ``(space − 2) × 2 + side`` for spaces 2 … track length, side 0 the plus side, 1 the minus side;
- then finish cards: ``camel × 2 + pile`` (pile 0 winner, 1 loser);
- then partnerships: one action per seat (the seat's own is never legal).

``action_mask`` (in every observation) marks the legal ones, as :func:`companion.rules.legal_actions` says.

**Observation** (``float32`` vector, from the seat's own view: other players' finish cards stay hidden):
per camel (racing then crazy) its space / track length and its height in its stack / number of camels; per
racing camel the value of its top leg ticket left / 5 (0 when none); per die whether it is still in the
pyramid; per space the seat's own tile (+1 plus side, −1 minus side) then others' tiles likewise; every
seat's money / 50, the acting seat first; per racing camel the sum of the leg tickets the seat holds / 10;
per racing camel whether the seat still holds its finish card; the number of cards on the winner and the
loser pile / players; the leg / 10; the draws left in the leg / draws per leg.

In the Gymnasium wrapper an action the mask refuses plays a pyramid ticket (``info["illegal_action"]``).

**Reward**: at the race's end 1 for every player with the most money, 0 for the others (nothing before).

The dice and the setup come from the same seeded streams as ``camelup simulate`` (game 0, deal 0), so the
same seed and the same choices give the very same game (checked by the tests).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from companion.rules import (
    EDITIONS,
    PILES,
    Action,
    Edition,
    FinishBet,
    GameState,
    LegalActions,
    LegBet,
    Partnership,
    PlaceTile,
    apply,
    legal_actions,
    new_game,
    view_for,
)
from companion.sim.bots import DRAW, Choice, make_bots
from companion.sim.dice import draw, roll_setup


def action_count(edition: Edition, players: int) -> int:
    racing = len(edition.racing_camels)
    return 1 + racing + 2 * (edition.track_length - 1) + 2 * racing + players


def encode(choice: Choice, edition: Edition, players: Sequence[str]) -> int:
    """The action number of a bot's choice."""
    racing = edition.racing_camels
    tiles = 1 + len(racing)
    cards = tiles + 2 * (edition.track_length - 1)
    partners = cards + 2 * len(racing)
    if choice is DRAW:
        return 0
    if isinstance(choice, LegBet):
        return 1 + racing.index(choice.camel)
    if isinstance(choice, PlaceTile):
        return tiles + (choice.space - 2) * 2 + edition.tile_sides.index(choice.side)
    if isinstance(choice, FinishBet):
        return cards + racing.index(choice.camel) * 2 + PILES.index(choice.pile)
    if isinstance(choice, Partnership):
        return partners + list(players).index(choice.partner)
    raise ValueError(f"{choice!r} has no action number (a pyramid ticket is action 0)")


def decode(number: int, edition: Edition, players: Sequence[str], player: str) -> Choice:
    """The choice of an action number for ``player`` (legal or not: the engine checks)."""
    racing = edition.racing_camels
    tiles = 1 + len(racing)
    cards = tiles + 2 * (edition.track_length - 1)
    partners = cards + 2 * len(racing)
    if not 0 <= number < action_count(edition, len(players)):
        raise ValueError(f"action {number} is not between 0 and {action_count(edition, len(players)) - 1}")
    if number == 0:
        return DRAW
    if number < tiles:
        return LegBet(player, racing[number - 1])
    if number < cards:
        space, side = divmod(number - tiles, 2)
        return PlaceTile(player, space + 2, edition.tile_sides[side])
    if number < partners:
        camel, pile = divmod(number - cards, 2)
        return FinishBet(player, PILES[pile], racing[camel])
    return Partnership(player, players[number - partners])


def mask(legal: LegalActions, edition: Edition, players: Sequence[str]) -> np.ndarray:
    result = np.zeros(action_count(edition, len(players)), dtype=np.int8)
    if legal.player is None:
        return result
    if legal.dice:
        result[0] = 1
    for action in legal.other_than_pyramid():
        result[encode(action, edition, players)] = 1
    return result


def observation_size(edition: Edition, players: int) -> int:
    racing, camels = len(edition.racing_camels), len(edition.camels)
    return 2 * camels + racing + len(edition.dice) + 2 * edition.track_length + players + 2 * racing + 4


def observe_vector(view: GameState, seat: str) -> np.ndarray:
    edition = view.edition
    length = edition.track_length
    values: list[float] = []
    stacks = {camel: (space, height) for space, stack in view.track for height, camel in enumerate(stack)}
    for camel in edition.camels:
        space, height = stacks[camel]
        values += [space / length, height / len(edition.camels)]
    left = view.tickets_left_by_camel()
    values += [(left[camel][0] / 5 if left[camel] else 0.0) for camel in edition.racing_camels]
    inside = set(view.dice_in_pyramid())
    values += [float(die in inside) for die in edition.dice]
    own, others = [0.0] * length, [0.0] * length
    for tile in view.tiles:
        sign = 1.0 if tile.side == edition.plus_side else -1.0
        (own if tile.owner == seat else others)[tile.space - 1] = sign
    values += own + others
    order = list(view.players)
    start = order.index(seat)
    values += [view.money_of(player) / 50 for player in order[start:] + order[:start]]
    held = dict.fromkeys(edition.racing_camels, 0)
    for ticket in view.leg_tickets:
        if ticket.owner == seat:
            held[ticket.camel] += ticket.value
    values += [held[camel] / 10 for camel in edition.racing_camels]
    hand = set(view.finish_cards_in_hand(seat))
    values += [float(camel in hand) for camel in edition.racing_camels]
    values += [len(view.winner_pile) / len(order), len(view.loser_pile) / len(order), view.leg / 10,
               (edition.draws_per_leg - len(view.dice_out)) / edition.draws_per_leg]
    return np.asarray(values, dtype=np.float32)


class CamelUpAEC(AECEnv):
    """Every seat is an agent (``player_0`` … in seating order)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "camelup_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, edition: str = "2018", players: int = 4, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = EDITIONS[edition]
        if not self.rules.min_players <= players <= self.rules.max_players:
            raise ValueError(f"the game needs {self.rules.min_players} to {self.rules.max_players} players")
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        size = observation_size(self.rules, players)
        actions = action_count(self.rules, players)
        self._observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(-1.0, 10.0, (size,), np.float32),  # money / 50 stays under 10
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            })
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.render_mode = render_mode
        self.state: GameState | None = None
        self.dice_rng = random.Random(0)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        # The stream `camelup simulate` uses for game 0 of a tournament with this seed.
        self.dice_rng = random.Random(f"camelup:{seed}:0:dice")
        self.state = new_game(self.rules, self.possible_agents, roll_setup(self.rules, self.dice_rng))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.state.current_player  # type: ignore[assignment]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None
        view = view_for(self.state, agent)
        legal = legal_actions(view) if view.current_player == agent else legal_actions(view.evolve(game_over=True))
        action_mask = mask(legal, self.rules, self.possible_agents)
        return {"observation": observe_vector(view, agent), "action_mask": action_mask}

    def choice(self, number: int) -> Choice:
        """What action ``number`` means for the agent to act."""
        return decode(int(number), self.rules, self.possible_agents, self.agent_selection)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None and action is not None
        choice = self.choice(action)
        if choice is not DRAW and choice not in legal_actions(self.state):
            raise ValueError(f"action {action} ({choice!r}) is not legal now (see action_mask)")
        self._cumulative_rewards[agent] = 0.0
        played: Action = draw(self.state, agent, self.dice_rng) if choice is DRAW else choice  # type: ignore[assignment]
        self.state = apply(self.state, played)
        if self.state.game_over:
            winners = set(self.state.winners())
            for player in self.agents:
                self.rewards[player] = 1.0 if player in winners else 0.0
                self.terminations[player] = True
        else:
            self.agent_selection = self.state.current_player  # type: ignore[assignment]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        track = ", ".join(f"{space}: {'/'.join(stack)}" for space, stack in self.state.track)
        return f"leg {self.state.leg}; {track}; money {self.state.money_by_player()}"

    def close(self) -> None:
        pass


class CamelUpGym(gymnasium.Env):
    """One learning seat against bots (``opponents``: any names ``camelup simulate`` takes)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(self, opponents: Sequence[str] = ("greedy",), seat: int = 0, edition: str = "2018",
                 render_mode: str | None = None) -> None:
        self.opponent_names = list(opponents)
        players = len(self.opponent_names) + 1
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}")
        make_bots(self.opponent_names)  # unknown names fail now
        self.aec = CamelUpAEC(edition, players, render_mode)
        self.agent = self.aec.possible_agents[seat]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode
        self.bot_rng = random.Random(0)

    def _play_opponents(self) -> None:
        aec = self.aec
        while aec.state is not None and not aec.state.game_over and aec.agent_selection != self.agent:
            player = aec.agent_selection
            view = view_for(aec.state, player)
            choice = self.bots[player].choose(view, legal_actions(view), self.bot_rng)
            aec.step(encode(choice, aec.rules, aec.possible_agents))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**32)) if seed is None else seed
        self.aec.reset(seed=game_seed)
        self.bot_rng = random.Random(f"camelup:{game_seed}:0:bots")
        others = [agent for agent in self.aec.possible_agents if agent != self.agent]
        self.bots = dict(zip(others, make_bots(self.opponent_names), strict=True))
        self._play_opponents()
        return self.aec.observe(self.agent), {}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """An action the mask refuses plays a pyramid ticket (as a faulty bot's does) and says so in
        ``info["illegal_action"]``."""
        illegal = not self.aec.observe(self.agent)["action_mask"][int(action)]
        self.aec.step(0 if illegal else int(action))
        self._play_opponents()
        state = self.aec.state
        assert state is not None
        done = state.game_over
        reward = self.aec.rewards.get(self.agent, 0.0) if done else 0.0
        info: dict[str, Any] = {"illegal_action": illegal}
        if done:
            info["money"] = state.money_by_player()
        return self.aec.observe(self.agent), reward, done, False, info

    def render(self) -> str | None:
        return self.aec.render()
