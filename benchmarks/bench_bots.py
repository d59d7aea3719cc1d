"""Bot benchmark: how strong the bots are against each other (not a test).

Seat-rotated tournaments under Podkidnoy (or ``--preset``); "beats" means that the upper end of
the bot's 95% Wilson interval for its durak rate lies below a fair share (1/2 with two players,
1/4 with four):

(a) ``rule-random``: RuleBot against RandomBot, two players. Target: RuleBot is the durak in
    at most 25% of the decided games.
(b) ``search-rule``: SearchBot against RuleBot, two players. Target: SearchBot beats it (and is
    the durak in at most 42% of the decided games).
(c) ``search-random``: SearchBot against RandomBot, two players. Target: SearchBot beats it.
(d) ``four-rule`` and ``four-random``: four players, one SearchBot against three RuleBots (or
    three RandomBots). The three others are one bot three times over, so the search bot's
    durak rate is compared with a fair 25% and with the others' pooled rate. Target: SearchBot
    beats them. (One search bot among weaker bots of several kinds separates badly: in
    ``four``, search, rule, random and random, the two random bots are the durak in nearly
    every game and the search and rule bots in under 1% each.)
(e) ``four``: search, rule, random, random (the older design). Target: durak rates ordered
    search < rule < random.

The search bot runs on a budget of engine steps (``--steps``), not a time limit, so every
figure depends only on the seed and the budgets and replays exactly; ``--jobs`` only changes
the wall time. Each line shows games, durak count, decided games (not drawn), the durak rate
among decided games with its 95% Wilson interval, and the bot's mean CPU and wall-clock
milliseconds per move (CPU time is what "per move on one core" means; wall time also counts
other processes' load). That mean includes moves with a single legal action, which cost
nothing; ``timing`` prints the spread of the searched moves' CPU times.

Usage::

    python benchmarks/bench_bots.py --jobs 2                      # everything
    python benchmarks/bench_bots.py --jobs 2 --only rule-random
    python benchmarks/bench_bots.py --jobs 1 --only search-rule     # docs/research.md, one
    python benchmarks/bench_bots.py --jobs 1 --only four-rule       # run per match
    python benchmarks/bench_bots.py --jobs 1 --only search-random
    python benchmarks/bench_bots.py --jobs 1 --only four-random
    python benchmarks/bench_bots.py --only timing                 # per-move CPU spread
    python benchmarks/bench_bots.py --jobs 2 --search "search:time_limit=0.02,clock=cpu"
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable

from durak import apply, new_game, next_actor, view
from durak.bots import SearchBot, make_bot
from durak.presets import get_preset
from durak.tournament import TournamentResult, run_tournament, wilson_interval

TARGET_RULE = 0.25
TARGET_SEARCH = 0.42


def progress(label: str, every: float = 10.0) -> Callable[[int, int], None]:
    """A tournament's progress reporter: a line on stderr at most every ``every`` seconds and
    at the end (the other tournament benchmarks use it too)."""
    last = [0.0]

    def report(done: int, total: int) -> None:
        now = time.perf_counter()
        if done == total or now - last[0] > every:
            last[0] = now
            print(f"  {label}: {done}/{total} games", file=sys.stderr, flush=True)

    return report


def _run(
    label: str, preset: str, players: int, names: list[str], games: int, seed: str, jobs: int
) -> TournamentResult:
    rules = get_preset(preset).rules(players=players)
    start = time.perf_counter()
    result = run_tournament(
        rules,
        names,
        games,
        seed=f"{seed}:{label}",
        jobs=jobs,
        progress=progress(label),
    )
    wall = time.perf_counter() - start
    print(f"\n== {label}: {preset}, {players} players, {games} games, {wall:.0f} s wall ==")
    print(result.table())
    return result


def _timing(preset: str, players: int, search: str, games: int, seed: str) -> None:
    """CPU milliseconds of each move the search bot searched (a single legal action costs
    nothing and is left out), in one process: search bot, rule bot, then random bots."""
    rules = get_preset(preset).rules(players=players)
    names = [search, "rule"] + ["random"] * (players - 2)
    times: list[float] = []
    playouts: list[int] = []
    steps: list[int] = []
    for i in range(games):
        bots = [make_bot(name, f"{seed}:timing:{i}:{j}") for j, name in enumerate(names)]
        searcher = bots[0]
        assert isinstance(searcher, SearchBot)
        state = new_game(rules, seed=f"{seed}:timing:{i}")
        while state.result is None:
            actor = next_actor(state)
            assert actor is not None
            seen = view(state, actor)
            cpu = time.process_time()
            action = bots[actor].choose(seen)
            spent = time.process_time() - cpu
            if actor == 0 and searcher.last_playouts:
                times.append(1000 * spent)
                playouts.append(searcher.last_playouts)
                steps.append(searcher.last_steps)
            state = apply(state, action)
    times.sort()

    def q(f: float) -> float:
        return times[round(f * (len(times) - 1))]

    print(
        f"\n== timing: {preset}, {players} players, {games} games, {len(times)} searched moves ==\n"
        f"CPU ms per searched move: mean {statistics.fmean(times):.1f}, median {q(0.5):.1f}, "
        f"p90 {q(0.9):.1f}, p99 {q(0.99):.1f}, max {times[-1]:.1f}; "
        f"playouts per move {statistics.fmean(playouts):.0f}, "
        f"engine steps per move {statistics.fmean(steps):.0f}"
    )


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def _beats(res: TournamentResult, others: str) -> bool:
    """Print entry 0's durak rate against the other entries' pooled rate; whether the upper
    end of its 95% interval lies below a fair share."""
    s = res.stats[0]
    fair = 1 / len(res.stats)
    low, high = s.durak_interval
    durak = sum(o.durak for o in res.stats[1:])
    decided = sum(o.decided for o in res.stats[1:])
    pooled = durak / decided if decided else 0.0
    o_low, o_high = wilson_interval(durak, decided)
    good = high < fair
    print(
        f"SearchBot durak rate {s.durak_rate:.3f} [{low:.3f}, {high:.3f}] against {others} "
        f"{pooled:.3f} [{o_low:.3f}, {o_high:.3f}] (pooled, {decided} bot-games); beats "
        f"(upper end < {fair:.2f}): {_verdict(good)}; {s.ms_per_move:.1f} ms CPU per move"
    )
    return good


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", default="bench", help="the run's seed (default 'bench')")
    parser.add_argument("--preset", default="podkidnoy", help="the rules (default podkidnoy)")
    parser.add_argument(
        "--only",
        default="rule-random,search-rule,search-random,four-rule,four-random,timing",
        help="comma-separated: rule-random, search-rule, search-random, four-rule, "
        "four-random, four, timing (default all but four)",
    )
    parser.add_argument("--games-rule", type=int, default=2000, help="games of (a)")
    parser.add_argument("--games-search", type=int, default=1000, help="games of (b), (c)")
    parser.add_argument("--games-four", type=int, default=400, help="games of (d), (e)")
    parser.add_argument("--games-timing", type=int, default=40, help="games per timing run")
    parser.add_argument(
        "--steps",
        type=int,
        default=100,
        help="the search's budget in engine actions per move, summed over its playouts "
        "(default 100: about 11-12 ms of CPU per move on a loaded two-core machine, with two "
        "players and with four)",
    )
    parser.add_argument(
        "--search",
        default=None,
        help="the search bot's full name, overriding --steps "
        "(e.g. 'search:time_limit=0.05' or 'search:playouts=60,time_limit=none,policy=rule')",
    )
    parser.add_argument("--rule", default="rule", help="the rule bot's name (default 'rule')")
    args = parser.parse_args(argv)

    search = args.search or f"search:steps={args.steps},time_limit=none"
    rule = args.rule
    todo = {part.strip() for part in args.only.split(",") if part.strip()}
    print(f"python {platform.python_version()} on {platform.machine()}, jobs={args.jobs}")
    print(f"search bot: {search}; rule bot: {rule}")
    ok = True

    if "rule-random" in todo:
        res = _run(
            "rule-random", args.preset, 2, [rule, "random"], args.games_rule, args.seed, args.jobs
        )
        s = res.stats[0]
        good = s.durak_rate <= TARGET_RULE
        ok &= good
        low, high = s.durak_interval
        print(
            f"RuleBot durak rate {s.durak_rate:.3f} [{low:.3f}, {high:.3f}] "
            f"<= {TARGET_RULE}: {_verdict(good)}"
        )

    if "search-rule" in todo:
        res = _run(
            "search-rule", args.preset, 2, [search, rule], args.games_search, args.seed, args.jobs
        )
        good = _beats(res, "rule bot") and res.stats[0].durak_rate <= TARGET_SEARCH
        ok &= good
        print(f"SearchBot durak rate <= {TARGET_SEARCH}: {_verdict(good)}")

    if "search-random" in todo:
        res = _run(
            "search-random",
            args.preset,
            2,
            [search, "random"],
            args.games_search,
            args.seed,
            args.jobs,
        )
        ok &= _beats(res, "random bot")

    for other in ("rule", "random"):
        if f"four-{other}" in todo:
            res = _run(
                f"four-{other}",
                args.preset,
                4,
                [search] + [rule if other == "rule" else other] * 3,
                args.games_four,
                args.seed,
                args.jobs,
            )
            ok &= _beats(res, f"three {other} bots")

    if "four" in todo:
        res = _run(
            "four",
            args.preset,
            4,
            [search, rule, "random", "random"],
            args.games_four,
            args.seed,
            args.jobs,
        )
        rates = [s.durak_rate for s in res.stats]
        good = rates[0] < rates[1] < min(rates[2], rates[3])
        ok &= good
        print(
            f"durak rates search {rates[0]:.3f} < rule {rates[1]:.3f} < random "
            f"{rates[2]:.3f} / {rates[3]:.3f}: {_verdict(good)}"
        )

    if "timing" in todo:
        for players in (2, 4):
            _timing(args.preset, players, search, args.games_timing, args.seed)

    print(f"\noverall: {_verdict(ok)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
