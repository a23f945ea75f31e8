"""Helpers the source tests share: reading invocations and comparing them with the
deployment corpus's hand-written ground truth (tests/corpus/deployments/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vllm_config_lsp.sources.invocation import Invocation, Word

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "deployments"


def single(found: list[Invocation]) -> Invocation:
    assert len(found) == 1, [[word.text for word in inv.args] for inv in found]
    return found[0]


def texts(invocation: Invocation) -> list[str]:
    return [word.text for word in invocation.args]


def arg(invocation: Invocation, text: str) -> Word:
    return next(word for word in invocation.args if word.text == text)


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and character column, as the ground truth counts."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def ground_truth(*formats: str) -> list[dict[str, Any]]:
    """The ground truth's invocations of these formats."""
    rows = [json.loads(line) for line in (CORPUS / "invocations.jsonl").read_text().splitlines()]
    return [row for row in rows if row["format"] in formats]


def flags(text: str, invocation: Invocation) -> list[tuple[str, int, int]]:
    """Flags as the ground truth lists them: name, and 1-based line/column of the first `-`."""
    return [
        (word.text.split("=", 1)[0], *line_column(text, word.starts[0]))
        for word in invocation.args
        if word.text.startswith("-") and not word.splat and len(word.text) > 1
    ]
