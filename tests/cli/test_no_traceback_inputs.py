"""Inputs that aborted `check` with a traceback, leaving the files after them unchecked:
a 309-400-digit integer in a bounded field (float() of it overflows), a 4,301-digit one
(past Python's int digit limit: PyYAML's int() raises in vLLM too), JSON nested 100,000
deep in a YAML string and in a Dockerfile `CMD [[[…`, a folder tree 1,200 deep (Python
3.11's os.walk recursed once per level) for `check DIR` and for a chart's templates.

Each becomes vLLM's own error or nothing where vLLM accepts it; the walk goes on to the
file after it (`zz-after.vllm.yaml`, one VC201). Bounded runs (support.bounded_cli): 1 GB
of address space and a timeout that catches a hang only."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support import bounded_cli

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS")

AFTER = "model: m\nmax-num-seqs: x\n"
DEEP = 100_000


def _check(target: Path) -> list[dict[str, str]]:
    result = bounded_cli("check", "--format", "json", str(target))
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode in (0, 1), result.stderr[-2000:]
    rows: list[dict[str, str]] = json.loads(result.stdout)
    assert not [row for row in rows if row["code"] == "VC000"], rows
    return rows


def _walked(folder: Path, files: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """`check` of a folder holding `files` and the file after them: each file's findings."""
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    (folder / "zz-after.vllm.yaml").write_text(AFTER)
    found: dict[str, list[tuple[str, str]]] = {}
    for row in _check(folder):
        found.setdefault(Path(row["file"]).name, []).append((row["code"], row["message"]))
    assert [code for code, _ in found["zz-after.vllm.yaml"]] == ["VC201"]
    return found


def test_huge_integers_in_bounded_fields(tmp_path: Path) -> None:
    found = _walked(
        tmp_path,
        {
            # ge=1 compared exactly, then the scheduler's check: no default
            # max_num_batched_tokens reaches it (recorded: refusals/max-num-seqs-huge-*.yaml)
            "seqs-350.vllm.yaml": f"model: m\nmax-num-seqs: {'9' * 350}\n",
            # ge=1 compared exactly: vLLM accepts it
            "spec-400.vllm.yaml": (
                f"model: m\nspeculative-config: {{method: ngram, num_speculative_tokens: "
                f"{'9' * 400}, prompt_lookup_max: 2}}\n"
            ),
            # le=1: out of range, as pydantic says
            "util-350.vllm.yaml": f"model: m\ngpu-memory-utilization: {'9' * 350}\n",
            "seqs-4301.vllm.yaml": f"model: m\nmax-num-seqs: {'9' * 4301}\n",
            "json-4301.vllm.yaml": (
                f"model: m\ncompilation-config: '{{\"mode\": {'9' * 4301}}}'\n"
            ),
        },
    )
    assert [code for code, _ in found["seqs-350.vllm.yaml"]] == ["VC311"]
    assert "spec-400.vllm.yaml" not in found
    assert [code for code, _ in found["util-350.vllm.yaml"]] == ["VC203"]
    [(code, message), *_] = found["seqs-4301.vllm.yaml"]
    assert code == "VC001" and "Exceeds the limit (4300 digits)" in message
    [(code, message)] = found["json-4301.vllm.yaml"]
    assert code == "VC205" and "Exceeds the limit (4300 digits)" in message


def test_json_nested_100000_deep(tmp_path: Path) -> None:
    arrays = "[" * DEEP + "]" * DEEP
    objects = '{"a": ' * DEEP + "1" + "}" * DEEP
    found = _walked(
        tmp_path,
        {
            "arrays.vllm.yaml": f"model: m\ncompilation-config: '{arrays}'\n",
            "objects.vllm.yaml": f"model: m\nkv-transfer-config: '{objects}'\n",
            "overrides.vllm.yaml": f"model: m\nhf-overrides: '{objects}'\n",
            "Dockerfile": f"FROM vllm/vllm-openai:v0.33.0\nCMD {'[' * DEEP}\n",
        },
    )
    for name in ("arrays.vllm.yaml", "objects.vllm.yaml", "overrides.vllm.yaml"):
        assert [code for code, _ in found[name]] == ["VC205"], found[name]
    assert "maximum recursion depth exceeded" in dict(found["arrays.vllm.yaml"])["VC205"]
    assert "Dockerfile" not in found  # not JSON: a shell-form CMD that starts no vLLM


@pytest.fixture
def deep_folder(tmp_path: Path) -> Iterator[Callable[[Path], Path]]:
    """Makes a chain of 1,200 folders under a folder of tmp_path, and removes it bottom up
    afterwards: os.makedirs and shutil.rmtree (pytest's cleanup of old tmp_paths, in every
    later session) recurse once per level on Python 3.11."""
    made: list[Path] = []

    def make(top: Path) -> Path:
        folder = top
        folder.mkdir(parents=True, exist_ok=True)
        for _ in range(1200):
            folder = folder / "d"
            folder.mkdir()
            made.append(folder)
        return folder

    yield make
    for folder in reversed(made):
        for entry in folder.iterdir():
            if not entry.is_dir():
                entry.unlink()
        folder.rmdir()


def test_a_folder_tree_1200_deep(tmp_path: Path, deep_folder: Callable[[Path], Path]) -> None:
    bottom = deep_folder(tmp_path / "tree")
    (bottom / "deepest.vllm.yaml").write_text(AFTER)
    rows = _check(tmp_path / "tree")
    assert [(Path(row["file"]).name, row["code"]) for row in rows] == [
        ("deepest.vllm.yaml", "VC201")
    ]


def test_a_chart_whose_templates_nest_1200_deep(
    tmp_path: Path, deep_folder: Callable[[Path], Path]
) -> None:
    chart = tmp_path / "chart"
    bottom = deep_folder(chart / "templates")
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: c\nversion: 0.1.0\n")
    (chart / "values.yaml").write_text("seqs: x\n")
    (bottom / "deployment.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: v\nspec:\n  template:\n"
        "    spec:\n      containers:\n      - name: vllm\n"
        "        image: vllm/vllm-openai:v0.33.0\n"
        "        args: [--model, m, --max-num-seqs, '{{ .Values.seqs }}']\n"
    )
    rows = _check(chart / "values.yaml")
    assert [row["code"] for row in rows] == ["VC201"]


def test_a_chart_rendering_a_large_value_1000_times(tmp_path: Path) -> None:
    """A 22 KB template with 1,000 references to a 100 KB value rendered 100 MB (5.8 GB
    of character maps, then VC000 MemoryError); the rendering stops at
    helm_chart.MAX_RENDERED_CHARS, the references past it stay unresolved."""
    chart = tmp_path / "chart"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: c\nversion: 0.1.0\n")
    (chart / "values.yaml").write_text(f"seqs: x\nbig: {'b' * 100_000}\n")
    names = "".join("        - --served-model-name={{ .Values.big }}\n" for _ in range(1000))
    (chart / "templates" / "deployment.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: v\nspec:\n  template:\n"
        "    spec:\n      containers:\n      - name: vllm\n"
        "        image: vllm/vllm-openai:v0.33.0\n        args:\n        - m\n"
        "        - --max-num-seqs={{ .Values.seqs }}\n" + names
    )
    rows = _check(chart / "values.yaml")
    assert [row["code"] for row in rows] == ["VC201"]
