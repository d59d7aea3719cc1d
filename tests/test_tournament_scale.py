"""Tournaments beyond one process: any concurrent.futures.Executor, a Ray cluster (a local Ray
instance here), ratings with intervals, durak rate by seat, and the plot.

CI installs the ``ray`` extra (Ray, openskill, matplotlib), so there a missing library fails the
run instead of skipping it. One local Ray instance (2 CPUs) serves the whole session.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import warnings
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import matplotlib  # noqa: F401
import openskill  # noqa: F401
import pytest

from durak import Rules
from durak.cli import main
from durak.tournament import RayExecutor, play_game, plot, run_tournament

NAMES = ["rule", "random", "rule:take_base=5"]
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="session")
def ray_local() -> Iterator[Any]:
    if os.environ.get("CI"):
        import ray
    else:
        ray = pytest.importorskip("ray", reason="needs the 'ray' extra")
    started = not ray.is_initialized()
    if started:
        with warnings.catch_warnings():
            # Ray starts its processes (GCS, raylet: programs of their own) by fork and exec,
            # with a pre-exec hook that only blocks SIGINT and sets the parent-death signal; no
            # Python of this process runs in the child. JAX, where another test has started its
            # backend in this process, warns at any fork; here the warning does not apply.
            warnings.filterwarnings("ignore", r"os\.fork\(\) was called", RuntimeWarning)
            ray.init(
                num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="warning"
            )
    yield ray
    if started:
        ray.shutdown()


def test_any_executor_gives_the_same_figures() -> None:
    rules = Rules(players=3)
    local = run_tournament(rules, NAMES, 9, seed="ex")
    with ThreadPoolExecutor(max_workers=3) as threads:
        assert run_tournament(rules, NAMES, 9, seed="ex", executor=threads) == local
    spawn = multiprocessing.get_context("spawn")  # no fork of a process with threads
    with ProcessPoolExecutor(max_workers=2, mp_context=spawn) as processes:
        assert run_tournament(rules, NAMES, 9, seed="ex", executor=processes) == local
    assert local.records[4] == play_game(rules, NAMES, "ex", 4)


def test_ray_runs_the_same_seat_rotated_tournament(ray_local: Any) -> None:
    rules = Rules(players=3)
    seen: list[int] = []
    executor = RayExecutor()
    assert executor._max_workers == 2
    on_ray = run_tournament(
        rules, NAMES, 12, seed="ray", executor=executor, progress=lambda d, t: seen.append(d)
    )
    executor.shutdown()
    assert ray_local.is_initialized(), "an executor that joined Ray leaves it running"
    assert on_ray == run_tournament(rules, NAMES, 12, seed="ray")
    assert on_ray.ratings() == run_tournament(rules, NAMES, 12, seed="ray").ratings()
    assert seen[-1] == 12 and seen == sorted(seen)


def test_ray_passes_a_task_error_back(ray_local: Any) -> None:
    executor = RayExecutor()
    future = executor.submit(play_game, Rules(), ["rule"], "x", 0)
    with pytest.raises(Exception, match="1 bots given for 2 seats"):
        future.result(timeout=60)


def test_ratings_rank_the_stronger_bot_higher_with_intervals() -> None:
    result = run_tournament(Rules(), ["rule", "random"], 40, seed="rate")
    rule, rnd = result.ratings()
    assert (rule.name, rnd.name) == ("rule", "random")
    assert rule.mu > 25 > rnd.mu, "the model starts at 25; rule wins most games"
    low, high = rule.interval
    assert low < rule.mu < high and high - low == pytest.approx(2 * 1.959963984540054 * rule.sigma)
    assert rule.sigma < 25 / 3, "every game narrows the interval"
    assert "rating" in result.table() and "rating" not in result.table(ratings=False)


def test_ratings_of_a_draw_only_tournament_stay_level() -> None:
    result = run_tournament(Rules(), ["random", "random"], 0, seed="none")
    first, second = result.ratings()
    assert first.mu == second.mu == 25


def test_durak_rate_by_seat_adds_up() -> None:
    result = run_tournament(Rules(players=3), NAMES, 9, seed="seat")
    by_seat = result.by_seat()
    for j, stats in enumerate(result.stats):
        assert sum(d for d, _ in by_seat[j]) == stats.durak
        assert sum(g for _, g in by_seat[j]) == stats.decided
        # Seat rotation: every entry sits in every seat equally often.
        assert len({sum(1 for r in result.records if r.seats[j] == s) for s in range(3)}) == 1


def test_plot_writes_the_figure(tmp_path: Path) -> None:
    result = run_tournament(Rules(), ["rule", "random"], 10, seed="plot")
    path = tmp_path / "figure.png"
    plot(result, path)
    assert path.read_bytes().startswith(PNG)
    with pytest.raises(ValueError, match="xyz"):
        plot(result, tmp_path / "figure.xyz")


def test_simulate_on_ray_matches_jobs_1_and_plots(
    ray_local: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", "--bots", "rule,random", "--games", "16", "--seed", "r", "--json"]
    assert main(args) == 0
    local = json.loads(capsys.readouterr().out)
    figure = tmp_path / "t.png"
    assert main([*args, "--backend", "ray", "--plot", str(figure)]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert on_ray == local
    assert figure.read_bytes().startswith(PNG)
    rule, rnd = local["entries"]
    assert rule["rating"] > rnd["rating"]
    low, high = rule["rating_interval"]
    assert low < rule["rating"] < high
    assert sum(s["decided"] for s in rule["by_seat"]) == rule["decided"]


def test_simulate_rejects_backend_and_plot_misuse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--games", "2", "--plot", str(tmp_path / "x.png")]) == 2
    assert "--plot draws a tournament" in capsys.readouterr().err
    assert main(["simulate", "--games", "4", "--match", "2", "--backend", "ray"]) == 2
    assert "not --match" in capsys.readouterr().err
    assert main(["simulate", "--games", "2", "--address", "auto"]) == 2
    assert "--backend ray" in capsys.readouterr().err
    bad = ["simulate", "--bots", "rule,random", "--games", "2", "--plot", str(tmp_path / "x.q")]
    assert main(bad) == 2
    assert "--plot" in capsys.readouterr().err
