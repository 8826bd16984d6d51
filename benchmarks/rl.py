"""Environment speed: decision steps per second of uniformly random legal playouts.

Compares, in one process and in alternating rounds, Bonanza's single
Gymnasium environment (through ``gymnasium.make``, wrappers and all, and
unwrapped), its vector environment, and OpenSpiel's ``solitaire`` game (chance
nodes sampled from ``chance_outcomes()`` and not counted). Prints the median
rate of each and its ratio to OpenSpiel's. Klondike's relatives named by
``--variants`` (default Westcliff and Double Klondike) run too, single
(unwrapped) and vector; ``--variants ''`` leaves them out.
Run: ``python benchmarks/rl.py`` (needs ``bonanza[rl]`` and ``open_spiel``).

Every step picks a uniformly random legal action: OpenSpiel's from
``legal_actions()`` with Python's ``random``, the single environment's from
its ``legal_actions()`` the same way, the vector environment's with
``env.action_space.sample()`` (numpy uniforms, one C call for all games). The vector
environment's autoreset steps are not counted.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

import bonanza.rl  # noqa: F401  # registers bonanza/Klondike-v0

ENV_ID = "bonanza/Klondike-v0"
VARIANTS = "westcliff,double-klondike"


def single_env(seconds: float, seed: int, unwrapped: bool, rules: str = "klondike") -> float:
    """Steps per second of one environment, reset whenever an episode ends."""
    env: Any = gymnasium.make(ENV_ID, rules=rules)
    if unwrapped:
        env = env.unwrapped
    chooser = random.Random(seed)
    env.reset(seed=seed)
    legal_actions = env.unwrapped.legal_actions
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(1000):
            legal = legal_actions()
            _, _, terminated, truncated, _ = env.step(legal[chooser.randrange(len(legal))])
            steps += 1
            if terminated or truncated:
                env.reset()
    return steps / (time.perf_counter() - start)


def vector_env(seconds: float, seed: int, games: int, rules: str = "klondike") -> float:
    """Decision steps per second of ``games`` games stepped together."""
    env: Any = gymnasium.make_vec(
        ENV_ID, num_envs=games, vectorization_mode="vector_entry_point", rules=rules
    )
    env.reset(seed=seed)
    env.action_space.seed(seed)
    ended = np.zeros(games, dtype=np.bool_)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            steps += games - int(ended.sum())  # a game that had ended only starts anew
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            ended = terminated | truncated
    return steps / (time.perf_counter() - start)


def openspiel(seconds: float, seed: int) -> float:
    """Decision steps per second of OpenSpiel's solitaire, chance steps not counted."""
    import pyspiel

    game = pyspiel.load_game("solitaire")
    chooser = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(chooser.choices(outcomes, weights)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[chooser.randrange(len(legal))])
                steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="per contestant and round")
    parser.add_argument("--games", type=int, default=256, help="games in the vector env")
    parser.add_argument(
        "--variants", default=VARIANTS, help="comma-separated relatives' presets to time too"
    )
    args = parser.parse_args()
    contestants: dict[str, Callable[[int], float]] = {
        "pyspiel solitaire": lambda seed: openspiel(args.seconds, seed),
        "single env (gymnasium.make)": lambda seed: single_env(args.seconds, seed, False),
        "single env (unwrapped)": lambda seed: single_env(args.seconds, seed, True),
        f"vector env ({args.games} games)": lambda seed: vector_env(
            args.seconds, seed, args.games
        ),
    }
    for name in filter(None, args.variants.split(",")):
        contestants[f"{name} single (unwrapped)"] = functools.partial(
            single_env, args.seconds, unwrapped=True, rules=name
        )
        contestants[f"{name} vector ({args.games} games)"] = functools.partial(
            vector_env, args.seconds, games=args.games, rules=name
        )
    rates: dict[str, list[float]] = {name: [] for name in contestants}
    for round_number in range(args.rounds):
        for name, run in contestants.items():
            rates[name].append(run(round_number))
    reference = statistics.median(rates["pyspiel solitaire"])
    print(f"decision steps/s, median of {args.rounds} rounds of {args.seconds:g} s each:")
    for name, found in rates.items():
        median = statistics.median(found)
        print(
            f"  {name:36} {median:12,.0f}  x{median / reference:6.2f} pyspiel "
            f"(min {min(found):,.0f}, max {max(found):,.0f})"
        )


if __name__ == "__main__":
    main()
