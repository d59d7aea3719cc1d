"""pytest: collect the doctests of the RL adapters only when their optional libraries are
installed (``pip install -e '.[rl,openspiel]'``); CI installs both, so there they always run."""

from importlib.util import find_spec

collect_ignore: list[str] = []
if find_spec("numpy") is None:
    collect_ignore += ["encoding.py", "pettingzoo_env.py", "openspiel_game.py"]
if find_spec("pettingzoo") is None or find_spec("gymnasium") is None:
    collect_ignore.append("pettingzoo_env.py")
if find_spec("pyspiel") is None:
    collect_ignore.append("openspiel_game.py")
