"""Helpers the source tests share: reading invocations and comparing them with the
deployment corpus's hand-written ground truth (tests/corpus/deployments/)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from vllm_config_lsp.sources.invocation import GENERATED_AT, Invocation, Word

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "deployments"


def single(found: list[Invocation]) -> Invocation:
    assert len(found) == 1, [[word.text for word in inv.args] for inv in found]
    return found[0]


def texts(invocation: Invocation) -> list[str]:
    return [word.text for word in invocation.args]


def written_texts(invocation: Invocation) -> list[str]:
    """The words the document writes (not those its operator or chart adds)."""
    return [word.text for word in invocation.args if word.generated is None]


def as_written(invocation: Invocation, text: str) -> list[str]:
    """The words the document writes, a value filled in for a reference (`$MAX` that the
    script set) shown as the reference (the corpus records the words as written)."""
    out = []
    for word in invocation.args:
        if word.generated is not None:
            continue
        chars: list[str] = []
        spans = list(zip(word.starts, word.ends, strict=True))
        for index, (start, end) in enumerate(spans):
            if end - start > 1 and text[start] == "$" and text[start + 1] != "'":
                if index == 0 or spans[index - 1] != (start, end):
                    chars.append(text[start:end])
            else:
                chars.append(word.text[index])
        out.append("".join(chars))
    return out


def generated_texts(invocation: Invocation) -> list[str]:
    """The words the operator or chart adds, with no text in the document."""
    return [word.text for word in invocation.args if word.generated is not None]


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


def row_params(*formats: str) -> list[Any]:
    """The ground truth's rows of these formats as test parameters, named file:line."""
    return [
        pytest.param(row, id=f"{str(row['file']).split('/')[-1]}:{row['line']}")
        for row in ground_truth(*formats)
    ]


def file_params(*formats: str) -> list[Any]:
    """The corpus files of these formats as test parameters, named by the file."""
    files = sorted({str(row["file"]) for row in ground_truth(*formats)})
    return [pytest.param(file, id=file.split("/")[-1]) for file in files]


def flags(text: str, invocation: Invocation) -> list[tuple[str, int, int]]:
    """Flags as the ground truth lists them: name, and 1-based line/column of the first `-`."""
    return [
        (word.text.split("=", 1)[0], *line_column(text, word.starts[0]))
        for word in invocation.args
        if word.text.startswith("-") and not word.splat and len(word.text) > 1
        if word.generated is None
    ]


def assert_words_inside(invocations: list[Invocation], text: str) -> None:
    """Every word has one source span per character, all inside the text."""
    for invocation in invocations:
        for word in invocation.args:
            assert len(word.starts) == len(word.text) == len(word.ends)
            if word.generated is not None:  # no text here: reported where its writer says
                assert all(offset >= GENERATED_AT for offset in (*word.starts, *word.ends))
                assert 0 <= word.generated.start <= word.generated.end <= len(text)
                continue
            assert all(0 <= offset <= len(text) for offset in (*word.starts, *word.ends))


Finder = Callable[[str], list[Invocation]]


def assert_row_found(find: Finder, row: dict[str, Any]) -> None:
    """The ground-truth invocation starts on its line, with its flags where the row says and
    its argv as vLLM receives it."""
    text = (CORPUS / "files" / str(row["file"])).read_text()
    found = {line_column(text, inv.start)[0]: inv for inv in find(text)}
    invocation = found.get(int(str(row["line"])))
    assert invocation is not None, sorted(found)
    expected = [(flag["flag"], flag["line"], flag["column"]) for flag in row["flags"]]
    assert flags(text, invocation) == expected
    assert texts(invocation) == row["argv"]


def assert_no_extra_starts(find: Finder, file: str, rows: list[dict[str, Any]]) -> None:
    text = (CORPUS / "files" / file).read_text()
    expected = sorted(int(str(row["line"])) for row in rows if row["file"] == file)
    assert sorted(line_column(text, inv.start)[0] for inv in find(text)) == expected


def cli_json(command: str, path: Path, version: str = "0.11.2") -> list[dict[str, Any]]:
    """`vllm-config-lsp COMMAND --format json` on `path` for `version` (a subprocess)."""
    from support import cli

    done = cli(command, "--format", "json", "--vllm-version", version, str(path))
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def apply_json_fix(text: str, found: dict[str, Any]) -> str:
    """`text` with the one edit of a `check --format json` finding's fix applied."""
    from vllm_config_lsp.document.text_index import TextIndex

    index = TextIndex(text)
    (edit,) = found["fix"]["edits"]
    start = index.offset_of(edit["line"] - 1, edit["column"] - 1)
    end = index.offset_of(edit["end_line"] - 1, edit["end_column"] - 1)
    return text[:start] + edit["new_text"] + text[end:]
