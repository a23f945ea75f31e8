"""The public corpus against what the real vLLM 0.33.0 said about each file.

`verdicts-0.33.0.jsonl` records the oracle's verdict per file (see ../shared/corpus/
VERDICTS.md). The contract: a file vLLM accepted gets no error, ever; a file vLLM refused
for STATIC reasons (its own values) gets an error on the line vLLM complained about.
Files without `model:` were run as `vllm serve MODEL --config FILE` (`model_arg`).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from support import CORPUS
from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Severity

VERDICTS = CORPUS / "verdicts-0.33.0.jsonl"

ROWS: list[dict[str, Any]] = [json.loads(line) for line in VERDICTS.read_text().splitlines()]


def _errors(row: dict[str, Any]) -> list[tuple[int, str, str]]:
    text = (CORPUS / row["file"]).read_text(encoding="utf-8")
    index = TextIndex(text)
    result = lint(text, model_on_cli=True if "model_arg" in row else None)
    return [
        (index.line_col(f.start)[0] + 1, f.code, f.message)
        for f in result.findings
        if f.severity == Severity.ERROR
    ]


@pytest.mark.parametrize("row", [r for r in ROWS if r["ok"]], ids=lambda r: r["file"])
def test_accepted_files_get_no_error(row: dict[str, Any]) -> None:
    assert _errors(row) == []


@pytest.mark.parametrize(
    "row", [r for r in ROWS if r["class"] == "STATIC"], ids=lambda r: r["file"]
)
def test_static_rejections_get_an_error_on_the_line(row: dict[str, Any]) -> None:
    errors = _errors(row)
    assert row["line"] in {line for line, _, _ in errors}, (row["message"], errors)


def test_the_corpus_is_the_expected_one() -> None:
    """Guards against silently testing nothing (e.g. an emptied corpus)."""
    assert sum(r["ok"] for r in ROWS) >= 150
    assert sum(r["class"] == "STATIC" for r in ROWS) >= 50
