"""The learned agent: an action-value network trained by self-play, played with numpy alone
(needs the ``rl`` extra's ``numpy``; training needs the ``train`` extra: :mod:`durak.learn`).

The network reads the observation tensor of :func:`durak.rl.encoding.observation` (what the
acting seat may know, R13) and gives one value per action id of the shared encoding
(:func:`durak.rl.encoding.action_space_size`): the expected final reward of the acting seat
(+1 a win, -1 the durak, 0 a draw) after playing that action. :class:`LearnedBot` plays the
legal action of the highest value.

Weights ship for the rules the agent was trained on (:data:`COVERED`): Podkidnoy with 36 cards,
the default rules (:class:`~durak.Rules`) with two and with four players. Other rules are
refused with a :class:`~durak.errors.RulesError` naming the first setting that differs.

The weights' format (a numpy ``.npz`` archive, read without pickle):

=============  ============  ================================================================
field          type          meaning
=============  ============  ================================================================
``format``     text          ``"durak-agent"``
``version``    int           :data:`VERSION` (1); another version is refused
``rules``      text          the rules trained on, as JSON (:meth:`durak.Rules.to_dict`)
``meta``       text          JSON: how the weights were made (algorithm, seed, steps, time)
``layers``     int           ``K``, the number of dense layers
``w0`` ...     float16       layer ``k``'s weights, shape ``(inputs, outputs)``: ``w0`` has
                             ``observation_size(rules)`` rows, ``w{K-1}`` has
                             ``action_space_size(rules)`` columns, each layer's rows the
                             previous one's columns
``b0`` ...     float16       layer ``k``'s biases, shape ``(outputs,)``
=============  ============  ================================================================

The network: ``x = relu(x @ w_k + b_k)`` for every layer but the last, which is linear.
:func:`load_network` refuses a file of another format or version, or an array of the wrong
shape, with a :class:`WeightsError` naming the field.

>>> from durak import Rules, new_game, next_actor, view
>>> bot = LearnedBot()
>>> state = new_game(Rules(), seed=3)
>>> v = view(state, next_actor(state))
>>> bot.choose(v) in v.legal_actions
True
"""

from __future__ import annotations

import io
import json
import random
import zipfile
import zlib
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from durak.actions import Action, Redeal
from durak.bots import SearchBot, _no_action, _Remembering, _Repetition, _SeededRandom
from durak.errors import DurakError, RulesError
from durak.messages import message
from durak.rl.encoding import (
    action_space_size,
    check_supported,
    encode,
    observation,
    observation_size,
)
from durak.rules.settings import Rules
from durak.views import PlayerView

__all__ = [
    "COVERED",
    "FORMAT",
    "VERSION",
    "GuidedBot",
    "LearnedBot",
    "Network",
    "WeightsError",
    "check_layers",
    "dense",
    "load_network",
    "network_for",
    "save_network",
    "shipped_path",
]

#: The ``format`` field of a weights file.
FORMAT = "durak-agent"
#: The ``version`` field this library reads and writes.
VERSION = 1
#: The rules with shipped weights, and their files in ``durak/data``.
COVERED: dict[Rules, str] = {
    Rules(players=2): "agent-podkidnoy-2p.npz",
    Rules(players=4): "agent-podkidnoy-4p.npz",
}

Array = npt.NDArray[np.float32]


class WeightsError(DurakError):
    """A weights file that is not one this library reads: another format or version, a
    missing field, or an array of the wrong shape (the field is named in :attr:`field`)."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        super().__init__(message("input.weights", field=field, detail=reason))


@attrs.frozen(eq=False)
class Network:
    """A trained action-value network (see the module's docstring for the format).

    Attributes:
        rules: the rules it was trained on (it plays only these).
        weights: per layer ``(w, b)``, ``float32``.
        meta: how it was made (JSON values).
    """

    rules: Rules
    weights: tuple[tuple[Array, Array], ...]
    meta: dict[str, Any] = attrs.field(factory=dict)

    def values(self, obs: npt.ArrayLike) -> Array:
        """The action values of one observation ``float32[L]`` (``float32[A]``), or of a
        batch ``float32[B, L]`` (``float32[B, A]``)."""
        return dense(self.weights, obs)

    def view_values(self, v: PlayerView) -> Array:
        """The action values of the seat whose view ``v`` is (``float32[A]``)."""
        return self.values(observation(v))


def dense(weights: Sequence[tuple[Array, Array]], x: npt.ArrayLike) -> Array:
    """A dense network's output: ``x = relu(x @ w_k + b_k)`` for every layer but the last,
    which is linear; ``x`` is ``float32[..., inputs]``, the result ``float32[..., outputs]``.
    The forward pass of this module's networks and of :mod:`durak.leaf`'s."""
    out = np.asarray(x, dtype=np.float32)
    last = len(weights) - 1
    for k, (w, b) in enumerate(weights):
        out = out @ w + b
        if k < last:
            np.maximum(out, 0.0, out=out)
    return out


def check_layers(
    weights: Sequence[tuple[Array, Array]], inputs: int, outputs: int, meaning: str
) -> None:
    """Check that ``weights`` chain from ``inputs`` to ``outputs`` numbers (``meaning``: what
    the outputs are, for the message).

    Raises:
        WeightsError: the first array of the wrong shape (the field is named).
    """
    rows = inputs
    for k, (w, b) in enumerate(weights):
        if w.ndim != 2 or w.shape[0] != rows:
            raise WeightsError(f"w{k}", f"shape {w.shape}, expected ({rows}, any)")
        if b.shape != (w.shape[1],):
            raise WeightsError(f"b{k}", f"shape {b.shape}, expected ({w.shape[1]},)")
        rows = w.shape[1]
    if rows != outputs:
        raise WeightsError(
            f"w{len(weights) - 1}", f"{rows} outputs, expected {outputs} ({meaning})"
        )


def _check_shapes(rules: Rules, weights: list[tuple[Array, Array]]) -> None:
    check_layers(weights, observation_size(rules), action_space_size(rules), "the action ids")


def save_network(path: str | Path, network: Network) -> None:
    """Write ``network`` to ``path`` in the format of this module (float16 arrays).

    Raises:
        WeightsError: the arrays do not fit the rules' observation and action sizes.
    """
    weights = [(np.asarray(w), np.asarray(b)) for w, b in network.weights]
    _check_shapes(network.rules, weights)
    write_layers(path, FORMAT, network.rules, network.meta, weights)


def write_layers(
    path: str | Path,
    fmt: str,
    rules: Rules,
    meta: dict[str, Any],
    weights: Sequence[tuple[npt.ArrayLike, npt.ArrayLike]],
) -> None:
    """Write a dense network's layers in this module's archive form under the format name
    ``fmt`` (the fields of the table above; float16 arrays). For the networks of this module
    and of :mod:`durak.leaf`, which check their shapes first."""
    arrays: dict[str, Any] = {
        "format": np.array(fmt),
        "version": np.array(VERSION, dtype=np.int64),
        "rules": np.array(json.dumps(rules.to_dict(), sort_keys=True)),
        "meta": np.array(json.dumps(meta, sort_keys=True)),
        "layers": np.array(len(weights), dtype=np.int64),
    }
    for k, (w, b) in enumerate(weights):
        arrays[f"w{k}"] = np.asarray(w).astype(np.float16)
        arrays[f"b{k}"] = np.asarray(b).astype(np.float16)
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)


def _field(data: Any, name: str) -> Any:
    if name not in data.files:
        raise WeightsError(name, "missing")
    return data[name]


def _text(data: Any, name: str) -> str:
    value = _field(data, name)
    if value.shape != () or value.dtype.kind != "U":
        raise WeightsError(name, "not a text")
    return str(value)


def _int(data: Any, name: str) -> int:
    value = _field(data, name)
    if value.shape != () or value.dtype.kind not in "iu":
        raise WeightsError(name, "not an integer")
    return int(value)


def load_network(path: str | Path) -> Network:
    """Read a weights file (the format of this module).

    Raises:
        WeightsError: not a weights file of this format and version, a field missing or of
            the wrong type, or an array of the wrong shape (the field is named).
        OSError: the file cannot be read.
    """
    rules, meta, weights = read_layers(path, FORMAT)
    _check_shapes(rules, weights)
    return Network(rules, tuple(weights), meta)


def read_layers(
    path: str | Path, fmt: str
) -> tuple[Rules, dict[str, Any], list[tuple[Array, Array]]]:
    """Read a dense network's archive of the format name ``fmt``: its rules, its metadata and
    its layers ``(w, b)`` as float32, shapes unchecked (the caller checks them).

    Raises:
        WeightsError: not an archive of format ``fmt`` and this version, a field missing or
            of the wrong type, rules this library does not read or the encoding does not
            cover (the field is named).
        OSError: the file cannot be read.
    """
    with open(path, "rb") as file:  # read whole: numpy leaves its own handle open on a bad zip
        raw = file.read()
    try:
        data = np.load(io.BytesIO(raw), allow_pickle=False)
    except (ValueError, EOFError, OSError, zipfile.BadZipFile) as exc:
        if isinstance(exc, FileNotFoundError | PermissionError | IsADirectoryError):
            raise
        raise WeightsError("format", "not a weights archive (an .npz file)") from None
    if not hasattr(data, "files"):
        raise WeightsError("format", "not a weights archive (a single array)")
    try:
        return _read_archive(data, fmt)
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
        if isinstance(exc, DurakError):  # a field named, or rules refused: said as it is
            raise
        raise WeightsError("format", f"a damaged archive ({exc})") from None


def _read_archive(
    data: Any, fmt: str
) -> tuple[Rules, dict[str, Any], list[tuple[Array, Array]]]:
    with data:
        found = _text(data, "format")
        if found != fmt:
            raise WeightsError("format", f"{found!r}, expected {fmt!r}")
        version = _int(data, "version")
        if version != VERSION:
            raise WeightsError("version", f"{version}, this library reads version {VERSION}")
        try:
            rules = Rules.from_dict(json.loads(_text(data, "rules")))
        except ValueError as exc:
            raise WeightsError("rules", f"not rules this library reads ({exc})") from None
        try:
            meta = json.loads(_text(data, "meta"))
        except ValueError as exc:
            raise WeightsError("meta", f"not JSON ({exc})") from None
        layers = _int(data, "layers")
        if not 1 <= layers <= 16:
            raise WeightsError("layers", f"{layers}, expected 1 to 16")
        weights = []
        for k in range(layers):
            w = np.asarray(_field(data, f"w{k}"), dtype=np.float32)
            b = np.asarray(_field(data, f"b{k}"), dtype=np.float32)
            for name, array in ((f"w{k}", w), (f"b{k}", b)):
                if not np.isfinite(array).all():
                    raise WeightsError(name, "holds values that are not finite numbers")
            weights.append((w, b))
    check_supported(rules)
    return rules, meta if isinstance(meta, dict) else {}, weights


def shipped_path(rules: Rules) -> Path:
    """The path of the shipped weights for ``rules``.

    Raises:
        RulesError: no weights ship for these rules (names the first setting that differs
            from the nearest covered rules).
    """
    name = COVERED.get(rules)
    if name is None:
        raise _uncovered(rules, list(COVERED))
    return Path(str(resources.files("durak") / "data" / name))


def _uncovered(rules: Rules, available: list[Rules]) -> RulesError:
    """The error for ``rules`` that none of the ``available`` networks plays: it names
    ``players`` when no network plays that many, else the first setting that differs."""
    covered = sorted(available, key=lambda r: r.players)
    if rules.players not in {r.players for r in covered}:
        given = rules.players
        setting = "players"
    else:
        near = next(r for r in covered if r.players == rules.players)
        mine, theirs = rules.to_dict(every=True), near.to_dict(every=True)
        setting = next((k for k in mine if mine[k] != theirs.get(k)), "players")
        given = mine[setting]
    players = " and ".join(str(r.players) for r in covered)
    return RulesError(
        setting,
        message("rules.no-weights", given=str(given), known=players),
    )


@lru_cache(maxsize=8)
def network_for(rules: Rules) -> Network:
    """The shipped network for ``rules`` (read once, then cached).

    Raises:
        RulesError: no weights ship for these rules (the setting is named).
    """
    return load_network(shipped_path(rules))


class LearnedBot(_Remembering):
    """Plays the legal action of the highest learned value (greedy over the legal ids).

    Like :class:`~durak.bots.RuleBot` it catches every cheat it sees and plays fair where
    cheating is on (R15.5), and a position met a second time (a cycle) gets a random legal
    action from its seeded generator. A single legal action is played at once.

    Args:
        seed: seeds the bot's own generator (for breaking cycles).
        weights: a weights file to play instead of the shipped ones (for experiments).

    Raises:
        RulesError: on the first move, under rules without weights (the setting is named).
    """

    def __init__(self, seed: int | str | None = None, weights: str | None = None) -> None:
        self._rng: random.Random = _SeededRandom(seed)
        self._repetition = _Repetition()
        self.weights = weights
        self._network = None if weights is None else load_network(weights)

    def network(self, rules: Rules) -> Network:
        """The network this bot plays under ``rules``.

        Raises:
            RulesError: no weights for these rules.
        """
        if self._network is None:
            return network_for(rules)
        if self._network.rules != rules:
            raise _uncovered(rules, [self._network.rules])
        return self._network

    def check_rules(self, rules: Rules) -> None:
        """Raise unless this bot plays ``rules`` (a front-end asks before the game starts).

        Raises:
            RulesError: no weights for these rules (the first setting that differs is named).
        """
        self.network(rules)

    def choose(self, view: PlayerView) -> Action:
        """The legal action with the highest value.

        Raises:
            ValueError: the view has no legal action.
            RulesError: no weights for the view's rules.
        """
        if not view.legal_actions:
            raise _no_action(view)
        net = self.network(view.rules)
        forced, legal = self._forced(view, False)
        if forced is not None:
            return forced
        values = net.view_values(view)
        return max(legal, key=lambda a: values[encode(a, view)])


class GuidedBot(SearchBot):
    """The search bot (:class:`~durak.bots.SearchBot`) guided by the learned values.

    Under rules with shipped weights (:data:`COVERED`) the network's action values of the
    position (one evaluation per move, counted in the move's time) choose which candidates
    the search plays out and in what order: the rule of thumb's choice, then the other legal
    actions by value, at most ``max_actions``, instead of by how little they give up (the
    order also decides which candidates a short search plays out at all). A smaller
    ``max_actions`` gives each candidate more of the playouts. With ``value_weight`` the value
    (scaled to the playouts' 0-1 score) is also added to each candidate's mean score, a prior
    that the playouts overrule. With the shipped weights the guided search measured no
    stronger than the search bot at equal time (even with two players, weaker with four;
    docs/research.md, "Learned agent"); where strength matters, use the search bot with leaf
    values (:class:`durak.leaf.LeafBot`, ``leaf``), which beats the search bot. Everything else
    is the search bot's: the trump ace kept while the stock lasts, the exact endgame solver in
    two-player endgames, the same budgets. Under other rules it is the search bot with these
    options.

    Args:
        seed: seeds the bot's own generator.
        guide: use the learned values (``False``: the plain search bot with these options).
        value_weight: the weight of the learned value in the candidates' scores.
        weights: a weights file to use instead of the shipped ones (for experiments).
        max_actions: the most candidates searched.
        **options: the search bot's other options (``time_limit``, ``playouts``, ``steps``,
            ``policy``, ``prior``, ``schedule``, ``cheats``, ``clock``, ``endgame``), as for
            :class:`~durak.bots.SearchBot`.

    Raises:
        ValueError: as :class:`~durak.bots.SearchBot`.
        WeightsError: ``weights`` is not a weights file.
    """

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        guide: bool = True,
        value_weight: float = 0.0,
        weights: str | None = None,
        max_actions: int = 8,
        **options: Any,
    ) -> None:
        super().__init__(seed, max_actions=max_actions, **options)
        self.guide = guide
        self.value_weight = value_weight
        self.weights_file = weights
        self._network = None if weights is None else load_network(weights)
        self._view: PlayerView | None = None
        self._values: Array | None = None

    def _net(self, rules: Rules) -> Network | None:
        if not self.guide:
            return None
        if self._network is not None:
            return self._network if self._network.rules == rules else None
        return network_for(rules) if rules in COVERED else None

    def _learned(self) -> Array | None:
        """The action values of the position being decided (computed once per move)."""
        if self._values is None and self._view is not None:
            net = self._net(self._view.rules)
            if net is not None:
                self._values = net.view_values(self._view)
        return self._values

    def choose(self, view: PlayerView) -> Action:
        """As :meth:`durak.bots.SearchBot.choose`, guided by the learned values.

        Raises:
            ValueError: the view has no legal action.
        """
        self._view, self._values = view, None
        try:
            return super().choose(view)
        finally:
            self._view = self._values = None

    def _candidates(self, legal: Sequence[Action], ctx: Any, rule: Action) -> list[Action]:
        values = self._learned()
        view = self._view
        if values is None or view is None:
            return super()._candidates(legal, ctx, rule)
        others = [a for a in legal if a != rule and type(a) is not Redeal]
        others.sort(key=lambda a: (-float(values[encode(a, view)]), str(a)))
        return [rule, *others[: self.max_actions - 1]]

    def _bonus(self, view: PlayerView, candidates: list[Action]) -> list[float] | None:
        values = self._learned() if self.value_weight else None
        if values is None:
            return None
        return [self.value_weight * float(values[encode(a, view)]) / 2 for a in candidates]
