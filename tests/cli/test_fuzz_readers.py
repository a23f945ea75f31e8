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
import re
import resource
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest
from hostile_files import aliased, deep_json, huge_numbers, json_flags, numeric_flags
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


# -- generated hostile files: each kind of change in every place of its kind (hostile_files)


def _by_file(rows: list[dict[str, object]], root: Path) -> dict[str, list[dict[str, object]]]:
    found: dict[str, list[dict[str, object]]] = {}
    for row in rows:
        found.setdefault(Path(str(row["file"])).relative_to(root).as_posix(), []).append(row)
    return found


def test_aliases_in_every_yaml_host_change_no_finding(tmp_path: Path) -> None:
    """Every YAML host format of the corpus (and Markdown's YAML fences) with the
    collections around its vLLM start aliased 40 times at each level (40 ** depth copies
    when expanded): the same findings as the same file written without aliases."""
    write(tmp_path / "plain", aliased(0))
    write(tmp_path / "aliased", aliased())
    found = _by_file(_check(tmp_path), tmp_path)
    for kind in ("plain", "aliased"):
        assert len([name for name in found if name.startswith(kind)]) > 10
    for name, rows in found.items():
        if name.startswith("aliased/"):
            plain = found.get("plain/" + name.removeprefix("aliased/"), [])
            assert {row["code"] for row in rows} == {row["code"] for row in plain}, name


def test_json_nested_100000_deep_in_every_json_flag(tmp_path: Path) -> None:
    """Every JSON-valued flag of the catalogue given JSON 100,000 deep, in a `--config`
    file, on a shell command line, in a Dockerfile `CMD` and a compose `command`; a whole
    `CMD` and a Triton `model.json` that deep: no crash, and the value of every flag that
    takes only JSON is refused as vLLM refuses it (a flag of `dict_or_str` may take the
    text as a string)."""
    files = deep_json()
    write(tmp_path, files)
    found = _by_file(_check(tmp_path), tmp_path)
    only_json = {flag.lstrip("-") for flag in json_flags(re.compile(r"json|dataclass:.*"))}
    unrefused = [
        name
        for name in files
        if PurePosixPath(name).parts[1].removesuffix(".sh").removesuffix(".vllm.yaml") in only_json
        and not any(row["severity"] == "error" for row in found.get(name, []))
    ]
    assert unrefused == []


def test_huge_numbers_in_every_numeric_flag(tmp_path: Path) -> None:
    """Every numeric flag of the catalogue given a 400-digit and a 4,400-digit number, in
    a `--config` file and on a shell command line: no crash (a bound's check of a 400-digit
    int overflowed float: VC203's internal error), and every 4,400-digit one is refused
    (PyYAML's and argparse's int() refuse it) but for a float flag on the command line
    (float() reads it as inf)."""
    files = huge_numbers()
    write(tmp_path, files)
    found = _by_file(_check(tmp_path), tmp_path)
    floats = {flag.lstrip("-") for flag in numeric_flags(parses=frozenset({"float"}))}
    unrefused = [
        name
        for name in files
        if "-4400." in name
        and not (name.endswith(".sh") and name.split("/")[-1].rsplit("-", 1)[0] in floats)
        and not any(row["severity"] == "error" for row in found.get(name, []))
    ]
    assert unrefused == []
