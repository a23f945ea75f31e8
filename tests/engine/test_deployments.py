"""The deployment corpus (tests/corpus/deployments/, real files that start vLLM from command
lines): `argv` finds each hand-recorded invocation on its line with its flags, and `check`
agrees with what the real vLLM 0.33.0 said about each argv: no error where it started, an
error on the blamed flag's line where it refused for a reason a file decides (a removed flag,
a bad value), and nothing ever on a word that holds an unresolved variable or template.

Formats whose invocations need a layer not built yet are listed in `NOT_YET` with why; the
tests for them are strict xfails, so they fail the day the layer works and the list is not
updated.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import CORPUS, GPU_RULES, cli
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Severity
from vllm_config_lsp.rules import rule_by_code
from vllm_config_lsp.sources.hosts import host_of
from vllm_config_lsp.vllm.catalogue import detection_flag_names

DEPLOYMENTS = CORPUS / "deployments"
INVOCATIONS = [
    json.loads(line) for line in (DEPLOYMENTS / "invocations.jsonl").read_text().splitlines()
]
VERDICTS = [
    json.loads(line) for line in (DEPLOYMENTS / "verdicts-0.33.0.jsonl").read_text().splitlines()
]
#: Refusals a file decides; the others are the oracle's stub model or CPU (VERDICTS.md).
FILE_CAUSES = {"removed-flag", "bad-value"}
NOT_YET = {
    "helm-values/GoogleCloudPlatform__kubernetes-engine-samples__app-design-center__ai-inference"
    "__values.yaml": "these values reach vLLM only through the chart's templates, and the "
    "corpus stores the file flattened, without its chart; laid out as a chart it is read with "
    "them (tests/cli/test_cli.py::test_chart_values_are_checked_through_the_templates)",
}
#: Rows of invocations.jsonl that disagree with the file (the corpus is not edited; found by
#: reading the files): the AIBrix batch template's second model starts at its `- name:` on
#: line 73 (line 69 is the blank line before it); the KubeAI Models of the Markdown how-to
#: start at their first argument (as the cr/ and helm-values/ rows count), not at `args:`.
ERRATA = {
    (
        "cr/vllm-project__aibrix__samples__batch__batch_v1alpha1_model_deployment_templates.yaml",
        69,
    ): 73,
    ("markdown/substratusai__kubeai__docs__how-to__configure-text-generation-models.md", 59): 60,
    ("markdown/substratusai__kubeai__docs__how-to__configure-text-generation-models.md", 75): 76,
}
FILES = sorted({entry["file"] for entry in INVOCATIONS})


def _format(file: str) -> str:
    return file.split("/", 1)[0]


def _marks(file: str) -> list[pytest.MarkDecorator]:
    reason = NOT_YET.get(file) or NOT_YET.get(_format(file))
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


def _params(files: list[str]) -> list[object]:
    return [pytest.param(file, marks=_marks(file), id=file) for file in files]


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _flags(argv: list[str]) -> list[str]:
    """The options of an argv, `_` folded as vLLM folds it, in order of name (operators
    generate flags in their own order)."""
    return sorted(
        word.split("=", 1)[0].replace("_", "-")
        for word in argv
        if word.startswith("-") and len(word) > 1
    )


def _line_of(entry: dict[str, object]) -> int:
    line = entry["line"]
    assert isinstance(line, int)
    return ERRATA.get((str(entry["file"]), line), line)


@pytest.mark.parametrize("file", _params(FILES))
def test_argv_finds_every_invocation_with_its_flags(file: str) -> None:
    path = DEPLOYMENTS / "files" / file
    done = cli("argv", "--format", "json", str(path))
    assert done.returncode == 0, done.stderr
    found = {entry["line"]: entry for entry in json.loads(done.stdout)}
    for expected in (entry for entry in INVOCATIONS if entry["file"] == file):
        line = _line_of(expected)
        assert line in found, (line, sorted(found))
        if any("key" in flag for flag in expected["flags"]):
            continue  # an operator's key → flag mapping: tests/sources/test_kubernetes.py
        # flags an operator generates have no text (argv marks them); `${VAR:+--flag …}`
        # ones are conditional
        written = [
            flag["flag"]
            for flag in expected["flags"]
            if not flag.get("generated") and not flag.get("conditional")
        ]
        words = found[line]["words"]
        assert _flags([w["text"] for w in words if not w["generated"]]) == _flags(written)
        generated = [flag["flag"] for flag in expected["flags"] if flag.get("generated")]
        assert _flags([w["text"] for w in words if w["generated"]]) == _flags(generated)


def _verdict_files(ok: bool) -> list[str]:
    return sorted(
        {
            v["file"]
            for v in VERDICTS
            if v["oracle"]["ok"] == ok and (ok or v.get("cause") in FILE_CAUSES)
        }
    )


def _invocation_errors(file: str) -> tuple[str, dict[int, list[tuple[int, str]]]]:
    """Errors per invocation (by the line of its executable word), as `(line, code)`; an
    error on a flag's value counts on the flag's line too (vLLM names the flag)."""
    path = DEPLOYMENTS / "files" / file
    text = path.read_text(encoding="utf-8")
    host = host_of(str(path), text, flag_names=detection_flag_names())
    assert host is not None, file
    result = lint(text, version="0.33.0", host=host, path=path, version_stated=True)
    out: dict[int, list[tuple[int, str]]] = {}
    for model in result.invocations:
        invocation = model.invocation
        assert invocation is not None
        words = [w for w in invocation.args if w.generated is None]  # the file's text
        start = min([invocation.start, *(w.start for w in words)])
        end = max([invocation.end, *(w.end for w in words)])
        flag_line = {
            id(token.word): _line(text, use.token.word.start)
            for use in model.result.uses
            if use.token.word is not None
            for token in use.values
        }
        errors = []
        for found in result.findings:
            if found.severity != Severity.ERROR or not start <= found.start <= end:
                continue
            rule = rule_by_code(found.code)
            if rule is not None and rule.module.__name__.startswith(GPU_RULES):
                continue  # the verdicts are the CPU oracle's: it cannot judge the GPU's checks
            errors.append((_line(text, found.start), found.code))
            for word in words:
                if word.start <= found.start <= word.end and id(word) in flag_line:
                    errors.append((flag_line[id(word)], found.code))
        out[_line(text, invocation.start)] = errors
    return text, out


@pytest.mark.parametrize("file", _params(_verdict_files(True)))
def test_no_error_where_vllm_started(file: str) -> None:
    _text, errors = _invocation_errors(file)
    for verdict in (v for v in VERDICTS if v["file"] == file and v["oracle"]["ok"]):
        line = _line_of(verdict)
        assert line in errors, line
        assert errors[line] == [], (line, errors[line])


@pytest.mark.parametrize("file", _params(_verdict_files(False)))
def test_error_on_the_blamed_line_where_vllm_refused(file: str) -> None:
    _text, errors = _invocation_errors(file)
    for verdict in VERDICTS:
        if verdict["file"] != file or verdict["oracle"]["ok"]:
            continue
        if verdict.get("cause") not in FILE_CAUSES:
            continue
        lines = [line for line, _code in errors.get(_line_of(verdict), [])]
        assert verdict["offending_line"] in lines, (verdict["oracle"]["message"], errors)


@pytest.mark.parametrize("file", _params(FILES))
def test_nothing_reported_on_unresolved_words(file: str) -> None:
    path = DEPLOYMENTS / "files" / file
    text = path.read_text(encoding="utf-8")
    host = host_of(str(path), text, flag_names=detection_flag_names())
    assert host is not None
    result = lint(text, version="0.33.0", host=host, path=path, version_stated=True)
    unknown = [
        (word.start, word.end)
        for model in result.invocations
        for word in model.invocation.args
        if not word.resolved
    ]
    for found in result.findings:
        assert not any(a < found.end and found.start < b for a, b in unknown), found
    assert result.invocations, "no invocation found"


def test_argv_text_output_and_version_from_the_image(tmp_path: Path) -> None:
    script = tmp_path / "serve.sh"
    script.write_text(
        "docker run --gpus all vllm/vllm-openai:v0.8.5 --model m --swap-space 4\n",
        encoding="utf-8",
    )
    done = cli("argv", str(script))
    assert done.returncode == 0
    assert "serve.sh:1:" in done.stdout and "--swap-space 4" in done.stdout
    assert "vLLM 0.8.5" in done.stdout and "vllm/vllm-openai:v0.8.5" in done.stdout
    # 0.8.5 still has --swap-space: no error from the release the image names
    assert cli("check", str(script)).returncode == 0
