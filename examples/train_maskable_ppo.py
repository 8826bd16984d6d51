"""Train sb3-contrib's MaskablePPO on Klondike through ``KlondikeVecEnv``, then
compare the learned policy with masked random play on the same held-out deals.

The training deals come from the environment's seeded choosers; the held-out
deals are drawn from another seeded generator (64-bit deal numbers: a
collision with a training deal is out of the question in practice). Each
held-out deal is played once by each player, with the "player" observation
(the fair one), until it is won, stuck or ``--max-steps`` steps long. Printed:
the win rate and the mean cards home of each player, and the training time.

Run: ``python examples/train_maskable_ppo.py --steps 200000 --seed 0``
(needs ``pip install -e '.[sb3]'`` and a CPU build of PyTorch).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

from bonanza.rl.observation import layout
from bonanza.rl.sb3 import KlondikeVecEnv

Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""Actions for a batch of observations and their masks."""


def random_policy(seed: int) -> Policy:
    rng = np.random.default_rng(seed)

    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)

    return act


def learned_policy(model: MaskablePPO, deterministic: bool) -> Policy:
    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions, _ = model.predict(obs, action_masks=masks, deterministic=deterministic)
        return np.asarray(actions, dtype=np.int64)

    return act


def evaluate(policy: Policy, deals: list[int], args: argparse.Namespace) -> tuple[float, float]:
    """Play each deal once: the share won and the mean cards home at the end."""
    env = KlondikeVecEnv(len(deals), rules=args.rules, max_steps=args.max_steps)
    env.set_options([{"deal": deal} for deal in deals])
    obs = env.reset()
    home = layout(env.rules).foundation
    cards = np.full(len(deals), -1)
    while (cards < 0).any():
        obs, _, dones, infos = env.step(policy(obs, env.action_masks()))
        for game in np.flatnonzero(dones & (cards < 0)):
            cards[game] = int(infos[game]["terminal_observation"][home].sum())
    total = env.rules.decks * 52
    return float(np.mean(cards == total)), float(cards.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000, help="training steps, all games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=16, help="games stepped together")
    parser.add_argument("--rules", default="klondike", help="a preset or a rules text")
    parser.add_argument("--max-steps", type=int, default=500, help="steps before truncation")
    parser.add_argument("--home", type=float, default=0.05, help="shaping: per card home")
    parser.add_argument("--turned", type=float, default=0.02, help="shaping: per card turned")
    parser.add_argument("--eval-deals", type=int, default=500, help="held-out deals")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    env = VecMonitor(
        KlondikeVecEnv(
            args.games,
            rules=args.rules,
            max_steps=args.max_steps,
            reward_shaping={"home": args.home, "turned": args.turned},
        )
    )
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=256, batch_size=1024, n_epochs=4, seed=args.seed, verbose=0
    )
    start, cpu = time.perf_counter(), time.process_time()
    model.learn(args.steps)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"trained {model.num_timesteps:,} steps ({args.games} games, {args.rules}, seed "
        f"{args.seed}) in {wall:.0f} s ({cpu:.0f} s CPU): {model.num_timesteps / wall:,.0f} steps/s"
    )

    held_out = np.random.default_rng([args.seed, 1]).integers(2**63, size=args.eval_deals)
    deals = held_out.tolist()
    players: dict[str, Policy] = {
        "masked random": random_policy(args.seed),
        "MaskablePPO, sampled": learned_policy(model, deterministic=False),
        "MaskablePPO, greedy": learned_policy(model, deterministic=True),
    }
    print(f"{len(deals)} held-out deals, at most {args.max_steps} steps each:")
    for name, policy in players.items():
        won, cards = evaluate(policy, deals, args)
        print(f"  {name:<22} won {won:6.1%}   cards home {cards:5.2f}")


if __name__ == "__main__":
    main()
