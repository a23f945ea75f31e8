"""No traceback on any input, and fixes never damage a file (issue 30): mutants of every
real file of the corpus (tests/mutants.py: each reader's formats, cut, doubled, given
hostile tokens, huge numbers, deep nesting, aliases) checked by the CLI in one bounded
subprocess, then fixed in place with `check --fix`.

What must hold: no traceback, exit 0, 1 or 2 (a NUL makes a file binary, said so), no
"internal error" finding (a reader's or a rule's crash, VC000); after `--fix`, every file
that parsed before (YAML, JSON, Python, `bash -n`) still parses, and checking the fixed
files again crashes nothing either.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from mutants import mutants, parses, write
from support import BOUNDED_PYTHON

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS, RLIMIT_CPU")

PER_SEED = 3
#: CPU seconds for a check of all the mutants (about 300 files): 20 s are needed.
CPU_SECONDS = 240


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


def _check(root: Path, *options: str) -> list[dict[str, object]]:
    done = subprocess.run(
        [*BOUNDED_PYTHON, "check", "--format", "json", *options, str(root)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        preexec_fn=_bounded,
        timeout=CPU_SECONDS * 4,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    # 2: a file that cannot be read as a config (NUL bytes), said on stderr
    assert done.returncode in (0, 1, 2), done.stderr[-3000:]
    rows: list[dict[str, object]] = json.loads(done.stdout)
    crashes = [
        (Path(str(row["file"])).relative_to(root).as_posix(), row["message"])
        for row in rows
        if row["code"] == "VC000" and "internal error" in str(row["message"])
    ]
    assert crashes == []
    return rows


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return mutants(PER_SEED)


def test_no_mutant_crashes_check(tmp_path: Path, texts: dict[str, str]) -> None:
    write(tmp_path, texts)
    rows = _check(tmp_path)
    # the readers did read the mutants: most of them still start vLLM somewhere
    assert len({row["file"] for row in rows}) > len(texts) // 4


def test_fixes_never_damage_a_mutant(tmp_path: Path, texts: dict[str, str]) -> None:
    write(tmp_path, texts)
    _check(tmp_path, "--fix")
    damaged = []
    changed = 0
    for name, before in texts.items():
        path = tmp_path / name
        after = path.read_bytes().decode("utf-8", errors="surrogatepass")
        if after == before:
            continue
        changed += 1
        if parses(path, before) and not parses(path, after):
            damaged.append(name)
    assert damaged == []
    assert changed > 10  # the fixes did run
    _check(tmp_path)
