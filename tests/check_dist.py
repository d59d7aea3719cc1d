"""Check the built distributions in a folder (``python tests/check_dist.py dist``): the wheel
holds the package alone (no tests, no ``conftest.py``) with its schemas, type marker and web
page, and needs attrs alone; the sdist carries the docs, the examples, the changelog, the tests
and the build backend. ``python tests/check_dist.py --compiled WHEEL`` checks a wheel of the
optional compiled build: the same, plus an extension beside each compiled module's source and
mypyc's shared library. Prints what it checked and exits 1 on the first problem. ``.ci/run``
runs both."""

from __future__ import annotations

import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

#: The modules the compiled build compiles (build_backend/durak_build.py), in the wheel.
COMPILED = ("durak/_step", "durak/rules/bout", "durak/rules/families", "durak/rules/shared")
#: mypyc's shared library of the compiled modules, beside the package.
MYPYC_LIB = "durak__mypyc."


def check_wheel(path: Path, compiled: bool = False) -> list[str]:
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(wheel.read(meta_name).decode("utf-8"))
    problems = []
    package = [n for n in names if ".dist-info/" not in n]
    stray = [n for n in package if not n.startswith("durak/")]
    if compiled:
        stray = [n for n in stray if not (n.startswith(MYPYC_LIB) and n.endswith(".so"))]
        for module in COMPILED:
            if f"{module}.py" not in names:
                problems.append(f"the compiled wheel lacks {module}.py")
            if not any(n.startswith(f"{module}.") and n.endswith(".so") for n in names):
                problems.append(f"the compiled wheel lacks the extension of {module}")
        if not any(n.startswith(MYPYC_LIB) for n in names):
            problems.append("the compiled wheel lacks mypyc's shared library")
    elif any(n.endswith((".so", ".pyd")) for n in names):
        problems.append("the pure-Python wheel holds an extension module")
    tests = [n for n in package if "conftest" in n or "/tests/" in n or "/test_" in n]
    if stray or tests:
        problems.append(f"the wheel holds more than the package: {(stray + tests)[:5]}")
    for needed in ("durak/py.typed", "durak/schemas/record-v1.schema.json",
                   "durak/schemas/ws-server.schema.json", "durak/web/static/index.html",
                   "durak/data/agent-podkidnoy-2p.npz", "durak/data/agent-podkidnoy-4p.npz",
                   "durak/data/leaf-podkidnoy-2p.npz", "durak/data/leaf-podkidnoy-4p.npz"):
        if needed not in names:
            problems.append(f"the wheel lacks {needed}")
    if metadata["Name"] != "durak-engine":
        problems.append(f"the wheel's name is {metadata['Name']!r}")
    core = [r for r in metadata.get_all("Requires-Dist") or [] if "extra ==" not in r]
    if [r.split(">")[0].split("=")[0].strip() for r in core] != ["attrs"]:
        problems.append(f"the core needs more than attrs: {core}")
    return problems


def check_sdist(path: Path) -> list[str]:
    with tarfile.open(path) as sdist:
        names = {"/".join(n.split("/")[1:]) for n in sdist.getnames()}
    needed = ("CHANGELOG.md", "README.md", "LICENSE", "conftest.py", "mkdocs.yml",
              "docs/index.md", "docs/protocol.md", "examples/play_game.py",
              "tests/test_schemas.py", "tests/golden/podkidnoy.json", "src/durak/__init__.py",
              "setup.py", "build_backend/durak_build.py", "build_backend/mypyc.ini",
              "src/durak/data/agent-podkidnoy-2p.npz", "src/durak/data/agent-podkidnoy-4p.npz",
              "src/durak/data/leaf-podkidnoy-2p.npz", "src/durak/data/leaf-podkidnoy-4p.npz")
    return [f"the sdist lacks {name}" for name in needed if name not in names]


def main_compiled(wheel: str) -> int:
    problems = check_wheel(Path(wheel), compiled=True)
    for problem in problems:
        print(f"check_dist: {problem}", file=sys.stderr)
    if not problems:
        print(f"check_dist: {Path(wheel).name} is as it should be (compiled)")
    return 1 if problems else 0


def main(folder: str) -> int:
    wheels = sorted(Path(folder).glob("*.whl"))
    sdists = sorted(Path(folder).glob("*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        print(f"expected one wheel and one sdist in {folder}", file=sys.stderr)
        return 1
    problems = check_wheel(wheels[0]) + check_sdist(sdists[0])
    for problem in problems:
        print(f"check_dist: {problem}", file=sys.stderr)
    if not problems:
        print(f"check_dist: {wheels[0].name} and {sdists[0].name} are as they should be")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--compiled":
        sys.exit(main_compiled(sys.argv[2]))
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "dist"))
