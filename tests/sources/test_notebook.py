"""Jupyter notebooks and the fences of Markdown that other hosts read (issue 28: hosts).

Real notebooks (tests/sources/data/notebook/SOURCES.md) and real Markdown with Python
fences (tests/sources/data/markdown-fences/SOURCES.md) are read through the CLI; what they
start is compared with what the files say, and what they do not start gives nothing. A
notebook's fixes are edits inside JSON strings: each is applied and the file loaded again
with `json.loads`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support import cli
from vllm_config_lsp.sources.hosts import host_of

DATA = Path(__file__).resolve().parent / "data"
NOTEBOOKS = DATA / "notebook"
FENCES = DATA / "markdown-fences"


def _json(command: str, path: Path) -> list[dict[str, Any]]:
    """What `argv` or `check` prints in JSON for the file."""
    run = cli(command, "--format", "json", str(path))
    assert run.returncode in (0, 1), run.stderr
    return list(json.loads(run.stdout))


def _argv(path: Path) -> list[dict[str, Any]]:
    return _json("argv", path)


def _check(path: Path) -> list[dict[str, Any]]:
    return _json("check", path)


def _notebook(*cells: tuple[str, str | list[str]]) -> str:
    """A notebook as Jupyter writes one (nbformat 4, one JSON string per source line)."""
    return json.dumps(
        {
            "cells": [
                {"cell_type": kind, "metadata": {}, "source": source, "outputs": []}
                for kind, source in cells
            ],
            "metadata": {"kernelspec": {"name": "python3"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
        ensure_ascii=False,
    )


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _offset(text: str, line: int, column: int) -> int:
    """The offset of the CLI's 1-based line and column."""
    starts = [0] + [i + 1 for i, char in enumerate(text) if char == "\n"]
    return starts[line - 1] + column - 1


def _applied(text: str, finding: dict[str, Any]) -> str:
    edits = sorted(finding["fix"]["edits"], key=lambda e: (e["line"], e["column"]), reverse=True)
    for edit in edits:
        start = _offset(text, edit["line"], edit["column"])
        end = _offset(text, edit["end_line"], edit["end_column"])
        text = text[:start] + edit["new_text"] + text[end:]
    return text


def _cells(text: str) -> list[str]:
    return ["".join(cell["source"]) for cell in json.loads(text)["cells"]]


def test_real_notebooks_start_what_their_cells_say() -> None:
    """A Colab guide's `LLM(model_name, …)` and `!nohup vllm serve … &`; an `LLM(...)` in
    the cell after the one that imports it; a client notebook that starts nothing. None
    gets a finding: vLLM takes each start as written."""
    guide = NOTEBOOKS / "dongukmoon" / "vllm_quickstart_tutorial.ipynb"
    found = _argv(guide)
    assert [(start["source"], start["argv"]) for start in found] == [
        ("notebook", ["--model", "gpt2", "--gpu-memory-utilization", "0.5"]),
        (
            "notebook",
            ["Qwen/Qwen2.5-1.5B-Instruct", "--port", "8001", "--gpu-memory-utilization", "0.3"],
        ),
    ]
    text = guide.read_text(encoding="utf-8")
    shell = found[1]
    at = _offset(text, shell["line"], shell["column"])
    assert text[at : at + 4] == "vllm"  # the start lands on the cell's `vllm`
    later = _argv(NOTEBOOKS / "saurabh1043" / "vllm_quickstart.ipynb")
    assert [start["argv"] for start in later] == [["--model", "facebook/opt-125m"]]
    assert _argv(NOTEBOOKS / "tzuhsiang" / "vllm.ipynb") == []
    for path in sorted(NOTEBOOKS.rglob("*.ipynb")):
        assert _check(path) == [], path
    cited = (NOTEBOOKS / "SOURCES.md").read_text(encoding="utf-8")
    for path in NOTEBOOKS.rglob("*.ipynb"):
        assert str(path.relative_to(NOTEBOOKS)) in cited


def test_markdown_python_blocks_are_read_as_notebook_cells() -> None:
    """The draft of a Colab notebook starts vLLM with `subprocess.Popen(vllm_cmd)` in a
    ```python block (its constants known, what Python computes unknown); jupyter-ai's doc writes
    `vllm serve <model_name>` in a ```python block, which is no Python: nothing."""
    draft = _argv(FENCES / "debatelab" / "draft_notebook.md")
    assert [(start["source"], start["line"], start["argv"]) for start in draft] == [
        (
            "markdown",
            135,
            [
                "--model",
                "{config.candidate_model}",
                "--host",
                "0.0.0.0",
                "--port",
                "8000",
                "--max-model-len",
                "4096",  # `str(VLLM_MAX_MODEL_LEN)`, a constant of the cell
                "--gpu-memory-utilization",
                "0.9",
                "--trust-remote-code",
            ],
        )
    ]
    assert _argv(FENCES / "jupyter-ai" / "vllm.md") == []
    for path in sorted(FENCES.rglob("*.md")):
        if path.name != "SOURCES.md":
            assert _check(path) == [], path


GUIDE = """\
# Serve

```python
!pip install vllm==0.10.1
MODEL = "Qwen/Qwen3-4B"
!vllm serve {MODEL} --max-num-seq 8 &
```

```ipython3
import subprocess
subprocess.Popen(["vllm", "serve", "Qwen/Qwen3-4B", "--tensor-parallel-sizes", "2"])
```

```dockerfile
FROM vllm/vllm-openai:v0.9.1
CMD ["--model", "Qwen/Qwen3-4B", "--swap-spaces", "4"]
```

```makefile
serve:
\tvllm serve Qwen/Qwen3-4B --max-model-lens 4096
```

```bash
!vllm serve Qwen/Qwen3-4B --enable-prefix-cach
```

```python
print("vllm serve m --port 8000")
import requests
requests.post("http://localhost:8000/v1/completions", json={"model": "vllm"})
```
"""


def test_every_fence_a_host_reads_is_read_by_it(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text(GUIDE, encoding="utf-8")
    found = _argv(path)
    assert [start["argv"] for start in found] == [
        ["Qwen/Qwen3-4B", "--max-num-seq", "8"],  # IPython fills in `{MODEL}`, a constant
        ["Qwen/Qwen3-4B", "--tensor-parallel-sizes", "2"],
        ["--model", "Qwen/Qwen3-4B", "--swap-spaces", "4"],
        ["Qwen/Qwen3-4B", "--max-model-lens", "4096"],
        ["Qwen/Qwen3-4B", "--enable-prefix-cach"],
    ]
    assert {start["source"] for start in found} == {"markdown"}
    assert found[0]["vllm_version"].startswith("0.10")  # `!pip install vllm==0.10.1`
    assert found[2]["vllm_version"].startswith("0.9")  # the block's image
    findings = _check(path)
    lines = GUIDE.splitlines()
    for finding in findings:
        written = lines[finding["line"] - 1][finding["column"] - 1 : finding["end_column"] - 1]
        assert written.startswith("--"), finding  # on the flag as the block writes it
    assert {f["line"] for f in findings} == {6, 11, 16, 21, 25}


def _cell_notebook() -> str:
    return _notebook(
        ("markdown", _lines("# Start\n```bash\nvllm serve Qwen/Qwen3-4B --max-num-seq 8\n```\n")),
        (
            "code",
            _lines(
                "%env MODEL_ID=Qwen/Qwen3-4B\n"
                "PORT = 8000\n"
                '!nohup vllm serve "$MODEL_ID" --port {PORT} --host {HOST} \\\n'
                "    --max-num-seq 4 --swap-space 4 \\\n"
                "    --dtype half > vllm.log 2>&1 &\n"
            ),
        ),
        (
            "code",
            "import subprocess\n"
            'cmd = ["vllm", "serve", "Qwen/Qwen3-4B", "--max-num-seq", "2"]\n'
            "subprocess.Popen(cmd)",
        ),
        ("code", _lines("%%bash\nvllm serve Qwen/Qwen3-4B --max-num-seq 16\n")),
        ("code", _lines("%%writefile serve.sh\nvllm serve Qwen/Qwen3-4B --max-num-seq 32\n")),
        ("raw", _lines("vllm serve Qwen/Qwen3-4B --max-num-seq 64\n")),
        ("code", _lines("out = !ls\nprint('vllm')\n")),
        ("code", 'HOST = "0.0.0.0"'),  # after the `!` line that names it: not filled in
    )


def test_a_notebooks_cells_are_read_as_the_kernel_runs_them(tmp_path: Path) -> None:
    path = tmp_path / "serve.ipynb"
    text = _cell_notebook()
    path.write_text(text, encoding="utf-8")
    found = _argv(path)
    assert [start["argv"] for start in found] == [
        ["Qwen/Qwen3-4B", "--max-num-seq", "8"],  # the Markdown cell's block
        [
            # `$MODEL_ID` from `%env` (the shell's certain value), `{PORT}` filled in
            *("Qwen/Qwen3-4B", "--port", "8000", "--host", "{HOST}"),
            *("--max-num-seq", "4"),
            *("--swap-space", "4", "--dtype", "half"),
        ],
        ["Qwen/Qwen3-4B", "--max-num-seq", "2"],
        ["Qwen/Qwen3-4B", "--max-num-seq", "16"],
        ["Qwen/Qwen3-4B", "--max-num-seq", "32"],  # the file the cell writes, a script
    ]  # a raw cell is not run
    assert [var["name"] for var in found[1]["environment"]] == ["MODEL_ID"]  # `%env`
    findings = _check(path)
    abbreviations = [f for f in findings if f["code"] == "VC103"]
    assert len(abbreviations) == 5
    for finding in abbreviations:
        at = _offset(text, finding["line"], finding["column"])
        assert text[at : at + len("--max-num-seq")] == "--max-num-seq"


def test_a_fix_applied_to_a_notebook_leaves_a_notebook(tmp_path: Path) -> None:
    """Every fix (renames, a removal that spans two source lines) applied one at a time:
    the file is still JSON, its cells read as before but for the fix, and the finding
    fixed is gone."""
    path = tmp_path / "serve.ipynb"
    text = _cell_notebook()
    path.write_text(text, encoding="utf-8")
    before = _check(path)
    findings = [f for f in before if f["fix"]]
    assert {f["code"] for f in findings} >= {"VC101", "VC103"}
    for finding in findings:
        fixed = _applied(text, finding)
        cells = _cells(fixed)  # `json.loads`: still a notebook
        assert len(cells) == len(_cells(text))
        path.write_text(fixed, encoding="utf-8")
        after = _check(path)
        assert len(after) == len(before) - 1, finding["message"]
        if finding["code"] == "VC101":  # `--swap-space 4` and the line break after it
            assert "--swap-space" not in cells[1] and "--max-num-seq 4 --dtype half" in cells[1]
        elif "--max-num-seq 4" in _cells(text)[1] and "--max-num-seq 4" not in cells[1]:
            assert "--max-num-seqs 4 --swap-space 4" in cells[1]


def test_a_fix_whose_text_needs_escapes_is_escaped_in_json(tmp_path: Path) -> None:
    """`--max-num-seqs` written in a Python string of a cell, itself a JSON string with
    escaped quotes: the rename touches only the name, and the notebook stays JSON."""
    path = tmp_path / "py.ipynb"
    text = _notebook(
        (
            "code",
            'import subprocess\nsubprocess.run(["vllm", "serve", "m", "--max-num-seq", "2"])\n',
        )
    )
    assert '\\"--max-num-seq\\"' in text
    path.write_text(text, encoding="utf-8")
    [finding] = _check(path)
    fixed = _applied(text, finding)
    assert '"--max-num-seqs"' in _cells(fixed)[0]
    path.write_text(fixed, encoding="utf-8")
    assert _check(path) == []


@pytest.mark.parametrize(
    ("name", "language", "kind"),
    [
        ("serve.ipynb", None, "notebook"),
        ("serve.ipynb", "json", "notebook"),
        ("serve.ipynb", "python", "ipython"),  # one cell, as VS Code sends it
        ("serve.ipynb", "markdown", "markdown"),  # a Markdown cell
        ("serve.json", "json", None),
    ],
)
def test_a_notebook_and_its_cells_have_hosts(name: str, language: str | None, kind: str) -> None:
    assert host_of(f"/w/{name}", "{}", language) == kind


def test_a_notebook_that_is_no_json_or_names_no_vllm_holds_nothing(tmp_path: Path) -> None:
    for text in (
        '{"cells": [{"cell_type": "code", "source": "!vllm serve m --max-num-seq 2"',  # cut
        '{"cells": {"cell_type": "code"}, "nbformat": 4}',
        '["!vllm serve m --max-num-seq 2"]',
        _notebook(("code", "import torch\nprint(torch.cuda.is_available())\n")),
    ):
        path = tmp_path / "broken.ipynb"
        path.write_text(text, encoding="utf-8")
        assert _argv(path) == []
        assert _check(path) == []
