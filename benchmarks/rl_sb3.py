"""Stable-Baselines3 speed: env steps per second through ``KlondikeVecEnv`` against
SB3's ``DummyVecEnv`` over single Gymnasium environments, same number of games.

Both step masked random actions: each step reads the masks as MaskablePPO does
(``sb3_contrib``'s ``get_action_masks``, which stacks one row per game) and
picks a uniformly random legal action per game with the same numpy sampler.
The adapter runs a second time reading its masks in one call,
``env.action_masks()``, as a hand-written loop can. Every game's step counts
(SB3 resets a finished game on the same step, so every step is a decision).
Rounds alternate between the contestants; each one's median rate over the
rounds is printed, per second of wall time and per second of this process's
CPU time (``time.process_time``), with its ratio to ``DummyVecEnv``.
Run: ``python benchmarks/rl_sb3.py`` (needs ``pip install -e '.[sb3]'``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import gymnasium
import numpy as np
import torch
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv

import bonanza.rl  # noqa: F401  # registers bonanza/Klondike-v0
from bonanza.rl.registration import ENV_ID
from bonanza.rl.sb3 import KlondikeVecEnv


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (every row has one)."""
    games, actions = masks.shape
    legal = np.flatnonzero(masks)
    counts = np.bincount(legal // actions, minlength=games)
    starts = np.cumsum(counts) - counts
    picks = starts + (rng.random(games) * counts).astype(np.int64)
    chosen: np.ndarray = legal[picks] % actions
    return chosen


def dummy(games: int, seed: int) -> VecEnv:
    env = DummyVecEnv([lambda: gymnasium.make(ENV_ID) for _ in range(games)])
    env.seed(seed)
    return env


def adapter(games: int, seed: int) -> VecEnv:
    env = KlondikeVecEnv(games)
    env.seed(seed)
    return env


def own_masks(env: VecEnv) -> np.ndarray:
    masks: np.ndarray = env.action_masks()
    return masks


CONTESTANTS: dict[str, tuple[Callable[[int, int], VecEnv], Callable[[VecEnv], np.ndarray]]] = {
    "DummyVecEnv": (dummy, get_action_masks),
    "KlondikeVecEnv": (adapter, get_action_masks),
    "KlondikeVecEnv, action_masks()": (adapter, own_masks),
}


def rate(name: str, games: int, seconds: float, seed: int) -> tuple[float, float]:
    """Game steps per second of wall time and of CPU time, over ``seconds``."""
    make, masks_of = CONTESTANTS[name]
    env = make(games, seed)
    env.reset()
    rng = np.random.default_rng(seed)
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    deadline = wall + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            env.step(random_legal(masks_of(env), rng))
        steps += 50 * games
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    env.close()
    return steps / wall, steps / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="16,64,256", help="numbers of games, comma-separated")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds a round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    heads = ("games", "contestant", "steps/s", "steps/CPU s", "×", "× CPU")
    print("{:>5} {:<31} {:>10} {:>12} {:>5} {:>6}".format(*heads))
    for games in (int(count) for count in args.games.split(",")):
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in CONTESTANTS}
        for round_ in range(args.rounds):
            for name in CONTESTANTS:
                results[name].append(rate(name, games, args.seconds, round_))
        wall_base = statistics.median(wall for wall, _ in results["DummyVecEnv"])
        cpu_base = statistics.median(cpu for _, cpu in results["DummyVecEnv"])
        for name, runs in results.items():
            wall = statistics.median(wall for wall, _ in runs)
            cpu = statistics.median(cpu for _, cpu in runs)
            print(
                f"{games:>5} {name:<31} {wall:>10,.0f} {cpu:>12,.0f} "
                f"{wall / wall_base:>5.1f} {cpu / cpu_base:>6.1f}"
            )


if __name__ == "__main__":
    main()
