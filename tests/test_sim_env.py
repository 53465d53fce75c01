"""The RL environments pass PettingZoo's and Gymnasium's own checkers and play the games simulate plays."""

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from companion.rules import EDITION_2018, legal_actions, view_for
from companion.sim.bots import make_bots
from companion.sim.env import CamelUpAEC, CamelUpGym, action_count, decode, encode, mask
from companion.sim.simulate import GamePlan, play_planned


def test_pettingzoo_api_test_passes():
    api_test(CamelUpAEC("2018", players=3), num_cycles=200)
    api_test(CamelUpAEC("2014", players=2), num_cycles=200)


def test_gymnasium_checker_passes():
    check_env(CamelUpGym(["greedy", "random"]), skip_render_check=True)


def test_every_legal_action_has_a_number_and_back():
    env = CamelUpAEC("2018", players=6)
    env.reset(seed=3)
    state = env.state
    legal = legal_actions(state)
    numbers = [encode(action, EDITION_2018, env.possible_agents) for action in legal.other_than_pyramid()]
    assert len(set(numbers)) == len(numbers) and max(numbers) < action_count(EDITION_2018, 6)
    for number, action in zip(numbers, legal.other_than_pyramid(), strict=True):
        assert decode(number, EDITION_2018, env.possible_agents, legal.player) == action
    assert mask(legal, EDITION_2018, env.possible_agents).sum() == len(numbers) + 1
    assert env.observe(env.agent_selection)["action_mask"].sum() == len(numbers) + 1
    other = next(agent for agent in env.agents if agent != env.agent_selection)
    assert env.observe(other)["action_mask"].sum() == 0


@pytest.mark.parametrize(("bots", "seed"), [(["random", "greedy"], 1), (["greedy", "random", "greedy"], 7),
                                            (["random", "random", "greedy", "greedy"], 12)])
def test_bots_through_the_environment_play_the_game_simulate_plays(bots, seed):
    env = CamelUpAEC("2018", players=len(bots))
    env.reset(seed=seed)
    seats = dict(zip(env.possible_agents, make_bots(bots), strict=True))
    rng = random.Random(f"camelup:{seed}:0:bots")
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        view = view_for(env.state, agent)
        number = encode(seats[agent].choose(view, legal_actions(view), rng), EDITION_2018, env.possible_agents)
        assert observation["action_mask"][number] == 1
        env.step(number)
    expected = play_planned("2018", seed, GamePlan(0, 0, tuple(f"{b}#{i}" for i, b in enumerate(bots))), False)
    assert env.state.money == expected.money
    winners = {env.possible_agents[expected.seating.index(label)] for label in expected.winners}
    assert {agent for agent, reward in env._cumulative_rewards.items() if reward == 1.0} <= winners


def test_gym_wrapper_plays_to_the_end_with_masked_random_actions():
    env = CamelUpGym(["greedy"], seat=1, edition="2014")
    observation, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    done, steps, reward = False, 0, 0.0
    while not done:
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, done, _, info = env.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 5 and reward in (0.0, 1.0) and set(info["money"]) == {"player_0", "player_1"}
    with pytest.raises(ValueError, match="unknown bot"):
        CamelUpGym(["wizard"])
    observation, _ = env.reset(seed=6)
    refused = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(refused)
    assert info["illegal_action"] is True
