"""Training the leaf values (issue 29, item 3): the data are positions of rule-of-thumb
play-outs labelled with their exact outcome, the same for a seed whatever the number of
processes; a tiny run writes values in the documented format that load back and play, and
fitting lowers the held-out error below that of answering the mean.

Needs the ``train`` extra (jax, optax). CI installs it, so there a missing library fails the
run instead of skipping it.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import jax  # noqa: F401 - the extra must be there
import numpy as np
import optax  # noqa: F401 - the extra must be there
import pytest

from durak import Rules, new_game, next_actor, view
from durak.leaf import LeafBot, feature_size, load_value_network
from durak.learn_leaf import Config, generate, main, train


def test_issue29_leaf_data_are_labelled_outcomes_the_same_for_any_number_of_jobs() -> None:
    cfg = Config(rules=Rules(players=4), games=12, keep=0.3, seed=5)
    rows, labels = generate(cfg)
    assert rows.shape[1] == feature_size(4) and rows.dtype == np.float16
    assert len(rows) == len(labels) > 12
    # Four seats: one durak, three who are out (a draw scores one half).
    assert set(np.unique(labels)) <= {0.0, 0.5, 1.0}
    assert 0.5 < labels.mean() < 0.95
    again, labels_again = generate(attrs.evolve(cfg, jobs=2))
    np.testing.assert_array_equal(rows, again)
    np.testing.assert_array_equal(labels, labels_again)
    other, _ = generate(attrs.evolve(cfg, seed=6))
    assert other.shape != rows.shape or not np.array_equal(other, rows)


def test_issue29_fitting_the_leaf_values_beats_answering_the_mean() -> None:
    cfg = Config(games=600, keep=0.3, epochs=4, batch=256, widths=(32,), seed=2)
    rows, labels = generate(cfg)
    lines: list[str] = []
    network, figures = train(cfg, rows, labels, log=lines.append)
    assert figures["positions"] == len(rows)
    assert figures["held_out_mse"][-1] < figures["mean_mse"]
    assert len(lines) == cfg.epochs + 1 and "held out" in lines[0]
    assert network.weights[0][0].shape == (feature_size(2), 32)


def test_issue29_the_leaf_training_command_writes_values_that_load_and_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "leaf.npz"
    assert main(["--games", "30", "--epochs", "1", "--widths", "8", "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    net = load_value_network(out)
    assert net.rules == Rules() and net.meta["games"] == 30 and net.meta["seed"] == 1
    bot = LeafBot(1, weights=str(out), time_limit=None, playouts=16)
    state = new_game(Rules(), seed=1)
    actor = next_actor(state)
    assert actor is not None
    assert bot.choose(view(state, actor)) in view(state, actor).legal_actions


@pytest.mark.parametrize(
    "argv",
    [["--games", "0"], ["--keep", "2"], ["--widths", "8,x"], ["--widths", "0"], ["--jobs", "0"]],
)
def test_issue29_the_leaf_training_command_refuses_bad_settings(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main([*argv, "--out", str(tmp_path / "x.npz")])
    assert info.value.code == 2
    assert argv[0] in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--seed", "-1"], "--seed"),
        (["--widths", ",".join(["2"] * 16)], "15 hidden layers"),
    ],
)
def test_issue29_the_leaf_training_command_refuses_before_it_plays(
    tmp_path: Path, argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main([*argv, "--out", str(tmp_path / "x.npz")])
    assert info.value.code == 2 and words in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--games", "3", "--out", str(tmp_path / "no" / "such" / "x.npz")])
    assert "--out" in capsys.readouterr().err


def test_issue29_the_leaf_training_command_refuses_to_fit_no_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.npz"
    assert main(["--games", "2", "--keep", "0.0001", "--out", str(out)]) == 2
    assert "too few positions" in capsys.readouterr().err and not out.exists()
