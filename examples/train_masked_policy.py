"""Train a small masked policy with numpy alone and show it beating the random bot.

The agent plays one seat of two-player Podkidnoy in the Gymnasium environment
``durak/Durak-v0`` against the random bot. Its policy is a softmax over the legal action ids
(the action mask) of a linear score of a few features of each action: its kind, the rank of
its card, whether that card is a trump. It learns by REINFORCE (the return of the game, +1 or
-1, minus a running mean). Then the trained policy and an untrained one (uniform over the legal
ids: the random bot) each play fresh games against the random bot; the durak rate with its 95%
interval is printed for both. The script fails (exit status 1) unless the trained policy's
interval lies below one half, the rate of two random players.

It needs the ``rl`` extra (numpy, Gymnasium): ``pip install 'durak-engine[rl]'``.

Run: python examples/train_masked_policy.py [TRAIN_GAMES] [TEST_GAMES]
"""

from __future__ import annotations

import sys

import numpy as np

from durak.rl import encoding as enc
from durak.rl.gymnasium_env import DurakEnv
from durak.tournament import wilson_interval

KINDS = ("take", "pass", "attack", "beat", "transfer")


class Features:
    """Per action id, the features a linear score weighs: one-hot kind (take, pass, attack,
    beat, transfer, other), the card's rank (0 for none, 1/8 per rank above six), whether the
    card is a trump, trump times rank, and a constant."""

    size = len(KINDS) + 5

    def __init__(self, env: DurakEnv) -> None:
        rules = env.rules
        layout = enc.action_layout(rules)
        self.trump_offset = next(
            p for p in enc.observation_layout(rules) if p.name == "trump_suit"
        ).offset
        ids = env.action_space.n
        self.kind = np.zeros((ids, len(KINDS) + 1), dtype=np.float64)
        self.rank = np.zeros(ids)
        self.suit = np.full(ids, -1)
        for piece in layout:
            for i in range(piece.offset, piece.end):
                k = KINDS.index(piece.name) if piece.name in KINDS else len(KINDS)
                self.kind[i, k] = 1.0
                if piece.name in ("attack", "beat", "transfer"):
                    card = enc.index_card((i - piece.offset) % rules.cards, rules)
                    self.rank[i] = (int(card.rank) - 6) / 8
                    self.suit[i] = int(card.suit)

    def of(self, observation: np.ndarray, ids: np.ndarray) -> np.ndarray:
        trump = int(np.argmax(observation[self.trump_offset : self.trump_offset + 4]))
        is_trump = (self.suit[ids] == trump).astype(np.float64)
        rank = self.rank[ids]
        return np.column_stack([self.kind[ids], rank, is_trump, is_trump * rank, np.ones(len(ids))])


def policy(theta: np.ndarray, phi: np.ndarray) -> np.ndarray:
    scores = phi @ theta
    scores -= scores.max()
    p = np.exp(scores)
    return p / p.sum()


def train(games: int, seed: int = 0) -> np.ndarray:
    env = DurakEnv(opponents="random")
    features = Features(env)
    theta = np.zeros(Features.size)
    rng = np.random.default_rng(seed)
    baseline, rate = 0.0, 0.3
    for game in range(games):
        obs, _ = env.reset(seed=seed * 100_000 + game)
        grads = []
        reward, done = 0.0, False
        while not done:
            ids = np.flatnonzero(obs["action_mask"])
            phi = features.of(obs["observation"], ids)
            p = policy(theta, phi)
            k = int(rng.choice(len(ids), p=p))
            grads.append(phi[k] - p @ phi)
            obs, reward, terminated, truncated, _ = env.step(int(ids[k]))
            done = terminated or truncated
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        theta += rate * advantage * np.mean(grads, axis=0)
    return theta


def evaluate(theta: np.ndarray, games: int, seed: int = 1) -> tuple[int, int]:
    """Durak count and decided games of the policy against the random bot."""
    env = DurakEnv(opponents="random")
    features = Features(env)
    rng = np.random.default_rng(seed)
    durak = decided = 0
    for game in range(games):
        obs, _ = env.reset(seed=10**9 + seed * 100_000 + game)
        done, info = False, {}
        while not done:
            ids = np.flatnonzero(obs["action_mask"])
            p = policy(theta, features.of(obs["observation"], ids))
            obs, _, terminated, truncated, info = env.step(int(ids[rng.choice(len(ids), p=p)]))
            done = terminated or truncated
        if not info.get("draw", True):
            decided += 1
            durak += bool(info["durak"])
    return durak, decided


def report(name: str, durak: int, decided: int) -> float:
    """Print the durak rate with its 95% interval; returns the interval's upper end."""
    low, high = wilson_interval(durak, decided)
    rate = durak / decided if decided else 0.0
    interval = f"95% CI {low:.0%}-{high:.0%}"
    print(f"{name:<18} durak in {durak:>4} of {decided} games ({rate:.0%}, {interval})")
    return high


def main() -> None:
    train_games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    test_games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    theta = train(train_games)
    print(f"trained on {train_games} games against the random bot; weights:")
    names = [*KINDS, "other", "rank", "trump", "trump*rank", "bias"]
    print("  " + ", ".join(f"{n} {w:+.2f}" for n, w in zip(names, theta, strict=True)))
    report("untrained (random)", *evaluate(np.zeros(Features.size), test_games))
    high = report("trained", *evaluate(theta, test_games))
    # Two random players are each the durak in half the decided games: the trained policy
    # beats the random bot when its whole 95% interval lies below one half.
    if high >= 0.5:
        sys.exit("the trained policy does not beat the random bot at 95%")
    print("the trained policy beats the random bot (95% interval below 50%)")


if __name__ == "__main__":
    main()
