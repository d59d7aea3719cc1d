"""Every example in examples/ runs to the end without error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from optional_parts import skip_if_optional_output

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    if done.returncode != 0:
        skip_if_optional_output(done.stderr, path.name)  # an example of an optional part
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "an example prints what it did"


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 1
