"""Issue 39: whichever extras are installed, the optional parts are skipped, never errors.

The suite's collection runs in a subprocess with one optional library made unimportable at a
time (as if it were not installed; nothing is installed or removed): it must end without a
collection error, and the modules of that library's part must be reported as skipped, naming the
extra that installs it. What is skipped is derived from the imports that fail (the root
``conftest.py``), so a new module of an optional part needs no list to be kept.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from optional_parts import extra_of, missing_optional, why

import durak

ROOT = Path(__file__).resolve().parents[1]

#: Each optional library, and a module of the tests or the package that needs it.
LIBRARIES = {
    "jax": "tests/test_jax_engine.py",
    "numpy": "tests/test_rl_encoding.py",
    "pettingzoo": "tests/test_rl_pettingzoo.py",
    "pyspiel": "tests/test_rl_openspiel.py",
    "ray": "src/durak/tournament.py",
    "starlette": "tests/test_web.py",
}

#: Runs pytest's collection with one library made unimportable, and with it every installed
#: library that requires it (as without it pip would not have installed them: jax without
#: numpy). ``sys.modules[name] = None`` makes ``import name`` raise ModuleNotFoundError and
#: ``importlib.util.find_spec(name)`` answer None, as where the library is not installed.
COLLECT = """
import importlib.metadata as md
import re
import sys

def normal(name):
    return re.sub(r"[-_.]+", "-", name).lower()

library = sys.argv[1]
owners = md.packages_distributions()
gone = {normal(d) for d in owners.get(library, [])}
grown = True
while grown:
    grown = False
    for dist in md.distributions():
        name = normal(dist.metadata["Name"])
        needs = {normal(re.split(r"[\\s\\[<>=!~;(]", r, maxsplit=1)[0])
                 for r in dist.requires or [] if "extra ==" not in r}
        if name not in gone and needs & gone:
            gone.add(name)
            grown = True
for module, dists in owners.items():
    if module == "tests":  # a folder some wheels install at the top level; ours is not it
        continue
    if module == library or {normal(d) for d in dists} & gone:
        sys.modules[module] = None
import pytest
sys.exit(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *sys.argv[2:]]))
"""

#: What the subprocess collects: the tests, and the package's doctests where the package is the
#: checkout's own (not an installed build, such as CI's compiled one).
PATHS = ["tests"] + (["src"] if Path(durak.__file__).resolve().is_relative_to(ROOT / "src") else [])


def _collect_without(library: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}  # CI makes a missing extra fail
    return subprocess.run(
        [sys.executable, "-c", COLLECT, library, *PATHS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize("library", sorted(LIBRARIES))
def test_issue39_collection_without_each_optional_library_has_no_error(library: str) -> None:
    done = _collect_without(library)
    tail = (done.stdout + done.stderr)[-4000:]
    assert done.returncode == 0, tail
    last = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ tests collected in [\d.]+s", last), tail
    assert int(last.split()[0]) > 1000, "the rest of the suite is collected"
    module = LIBRARIES[library]
    assert (ROOT / module).exists()
    if library != "ray" and module.split("/")[0] in PATHS:  # ray: imported only when used
        assert f"{module}::" not in done.stdout, f"{module} collected without {library}"


def test_issue39_the_extra_of_a_library_comes_from_pyproject() -> None:
    assert extra_of("jax") == "jax"
    assert extra_of("optax") == "train"
    assert extra_of("starlette") == "web"
    assert extra_of("pyspiel") == "openspiel"
    assert extra_of("numpy") == "cli"  # the first extra that brings it
    assert extra_of("no_such_library") is None
    assert why("jax") == "needs jax, the 'jax' extra: pip install -e '.[jax]'"


def test_issue39_a_missing_module_of_the_package_or_the_tests_is_no_optional_part() -> None:
    assert missing_optional(ModuleNotFoundError(name="jax.numpy")) == "jax"
    assert missing_optional(ModuleNotFoundError(name="durak.nothing")) is None
    assert missing_optional(ModuleNotFoundError(name="helpers")) is None
    assert missing_optional(ImportError("cannot import name 'x'")) is None
    assert missing_optional(None) is None
