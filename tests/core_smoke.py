"""What a newcomer does with the core install alone (no extras): play a game through the API,
write and read a record and rules files, load every preset, read and write the JSON forms.

``python tests/core_smoke.py`` runs it against whatever is installed (``.ci/run`` installs the
built wheel alone in a fresh virtual environment); ``--block`` first makes every library
outside the core unimportable, so the test suite can run it beside the extras
(``tests/test_distribution.py``). Prints ``core smoke: ok`` and exits 0, or fails loudly.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import io
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

#: Libraries a core install does not have: the extras' and the test tools'.
OUTSIDE_THE_CORE = (
    "rich",
    "prompt_toolkit",
    "tomli_w",
    "jsonschema",
    "referencing",
    "rpds",
    "cattrs",
    "starlette",
    "uvicorn",
    "numpy",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
    "hypothesis",
    "pytest",
)


class _Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name.split(".")[0] in OUTSIDE_THE_CORE:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None


def block() -> None:
    """Make the libraries outside the core unimportable in this process."""
    for name in list(sys.modules):
        if name.split(".")[0] in OUTSIDE_THE_CORE:
            del sys.modules[name]
    sys.meta_path.insert(0, _Blocker())


def main() -> int:
    import durak
    from durak import Game, apply, legal_actions, new_game, next_actor, view
    from durak.__main__ import main as command
    from durak.bots import make_bot
    from durak.presets import PRESETS, dump_rules, dumps_rules, load_rules, loads_rules
    from durak.records import Record, dump, load, replay
    from durak.serialize import state_from_dict, state_to_dict, view_from_dict, view_to_dict

    for name, preset in PRESETS.items():  # every preset loads and deals
        rules = preset.rules()
        assert new_game(rules, seed=name).rules == rules
        assert loads_rules(dumps_rules(rules, "json"), "json") == rules
    rules = PRESETS["perevodnoy"].rules(players=3)
    state = new_game(rules, seed=7)
    record = Record.start(rules, seed=7)
    bots = [make_bot("rule", seat) for seat in range(rules.players)]
    while not state.is_over:
        seat = next_actor(state)
        assert seat is not None
        action = bots[seat].choose(view(state, seat))
        assert action in legal_actions(state, seat)
        state, record = apply(state, action), record.add(action)
        assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state
        assert view_from_dict(view_to_dict(view(state, seat))) == view(state, seat)
    record = record.finish(state)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        dump(record, path)
        assert replay(load(path)) == state
        rules_file = Path(folder) / "house.json"
        dump_rules(rules, rules_file)
        assert load_rules(rules_file) == rules
        outside = sorted({m.split(".")[0] for m in sys.modules} & set(OUTSIDE_THE_CORE))
        assert not outside, f"the core imported {outside}"
        toml_file = Path(folder) / "house.toml"
        toml_file.write_text('preset = "perevodnoy"\nplayers = 3\n', encoding="utf-8")
        assert load_rules(toml_file) == rules
        try:
            text = dumps_rules(rules, "toml")
        except ModuleNotFoundError as exc:  # writing TOML is the toml extra's
            assert "durak-engine[toml]" in str(exc), exc
        else:  # with tomli-w installed
            assert loads_rules(text, "toml") == rules
    out = io.StringIO()  # `durak --version` answers without the cli extra (issue 32, item 7)
    with contextlib.redirect_stdout(out):
        assert command(["--version"]) == 0
    assert out.getvalue().startswith(f"durak {durak.__version__}"), out.getvalue()
    game = Game(rules, seed=7, bots={1: "rule", 2: "rule"})  # a saved game goes on alike
    saved = ""
    while not game.is_over:
        if game.actor == 0:
            game.push(game.view(0).legal_actions[0])
        else:
            game.play_bots()
        if not saved and len(game.moves) >= 20:
            saved = game.dumps()
            assert Game.loads(saved).moves == game.moves
    # The hardest level plays without numpy: the leaf bot is then the search bot.
    from durak.bots import SearchBot
    from durak.levels import make_level_bot

    best = make_level_bot("best", seed=1, steps=200)
    assert type(best) is SearchBot, type(best)
    start = new_game(rules, seed=3)
    first = next_actor(start)
    assert first is not None and best.choose(view(start, first)) in legal_actions(start, first)
    print(f"core smoke: ok (durak {durak.__version__}, {len(record.actions)} actions)")
    return 0


if __name__ == "__main__":
    if "--block" in sys.argv[1:]:
        block()
    sys.exit(main())
