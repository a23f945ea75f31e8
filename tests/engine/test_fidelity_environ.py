"""Our findings against the real vLLM 0.33.0 on the environment a start gets.

Each case of tests/fidelity/environ/cases.jsonl is an argv and an environment; its verdict
(verdicts-0.33.0.jsonl, recorded by tools/record_env_verdicts.py with the argv oracle)
holds what `vllm serve ARGV` did with that environment up to `create_engine_config()`, the
`Unknown vLLM environment variable detected` warnings vLLM logged on stderr, and what the
engine core's `enable_envs_cache()` (which the oracle does not reach) raised under it.

Every case is written as a compose service (`environment:` a mapping: the whole
environment, so a missing variable is missing) and as a shell line (`NAME=value vllm
serve …`: the caller's environment is open, so a refusal for a variable that is not set
at all is only a warning there). The engine must give:
- an error holding vLLM's message where vLLM refuses (the oracle, or the engine core);
- a warning holding vLLM's stderr line where vLLM only logs an unknown name, and no error;
- nothing from the environment rules (VC240, VC241) where vLLM said nothing;
- a warning (VC242) where a switch written `true`/`yes`/`on` (or `false`/…) is read the
  other way (the probe's `read_as`), and none where vLLM reads it as written.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from support import REPO
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.envs.boolean_read_as import MEANT

HERE = REPO / "tests" / "fidelity" / "environ"
VERDICTS = [
    json.loads(line)
    for line in (HERE / "verdicts-0.33.0.jsonl").read_text(encoding="utf-8").splitlines()
]
ENV_RULES = {"VC240", "VC241"}


def _compose(case: dict) -> str:
    lines = [
        "services:",
        "  vllm:",
        "    image: vllm/vllm-openai:v0.33.0",
        f"    command: {json.dumps(case['argv'])}",
    ]
    if case["env"]:
        lines.append("    environment:")
        lines += [f"      {name}: {json.dumps(value)}" for name, value in case["env"].items()]
    return "\n".join(lines) + "\n"


def _shell(case: dict) -> str:
    prefix = " ".join(f"{name}={shlex.quote(value)}" for name, value in case["env"].items())
    argv = " ".join(shlex.quote(word) for word in case["argv"])
    return f"pip install vllm==0.33.0\n{prefix} vllm serve {argv}\n".replace("\n ", "\n")


def _refusal(verdict: dict) -> str | None:
    if not verdict["oracle"]["ok"]:
        return str(verdict["oracle"]["message"])
    if not verdict["engine_core_envs"]["ok"]:
        return str(verdict["engine_core_envs"]["message"])
    return None


def _check(findings: list[Finding], verdict: dict, *, open_environment: bool) -> None:
    errors = [f.message for f in findings if f.severity == Severity.ERROR]
    warnings = [f.message for f in findings if f.severity == Severity.WARNING]
    refusal = _refusal(verdict)
    if refusal is not None:
        if open_environment and not verdict["env"]:
            assert any(refusal in message for message in warnings), (refusal, findings)
            return
        assert any(refusal in message for message in errors), (refusal, findings)
        return
    assert errors == [], errors
    logged = [line.removeprefix("WARNING: ") for line in verdict["unknown_env_warnings"]]
    for line in logged:
        assert any(line in message for message in warnings), (line, findings)
    if not logged:
        assert [f for f in findings if f.code in ENV_RULES] == []
    opposite = [
        name
        for name, read in verdict["engine_core_envs"].get("read_as", {}).items()
        if name.startswith("VLLM_")
        and MEANT.get(verdict["env"][name].strip().lower()) is not None
        and read in ("True", "False")
        and (read == "True") != MEANT[verdict["env"][name].strip().lower()]
    ]
    flagged = [f.message for f in findings if f.code == "VC242"]
    assert len(flagged) == len(opposite), (opposite, flagged)
    for name in opposite:
        assert any(message.startswith(f"{name}=") for message in flagged), (name, flagged)


def _beside(verdict: dict, folder: Path, name: str) -> Path:
    """Where the host file is linted from: beside the case's `--config` files (`files`),
    which the engine reads as vLLM does (`fail-on-environ-validation: true` in one)."""
    for file_name, text in verdict.get("files", {}).items():
        (folder / file_name).write_text(text, encoding="utf-8")
    return folder / name


@pytest.mark.parametrize("verdict", VERDICTS, ids=lambda v: v["id"])
def test_compose_service_agrees_with_vllm(verdict: dict, tmp_path: Path) -> None:
    path = _beside(verdict, tmp_path, "compose.yaml")
    result = lint(_compose(verdict), host="compose", path=path)
    assert [line.release for line in result.command_lines] == ["0.33.0"]
    _check(result.findings, verdict, open_environment=False)


@pytest.mark.parametrize("verdict", VERDICTS, ids=lambda v: v["id"])
def test_shell_line_agrees_with_vllm(verdict: dict, tmp_path: Path) -> None:
    path = _beside(verdict, tmp_path, "serve.sh")
    result = lint(_shell(verdict), host="shell", path=path)
    assert [line.release for line in result.command_lines] == ["0.33.0"]
    _check(result.findings, verdict, open_environment=True)


def test_agreement_counts() -> None:
    """The recorded cases cover each kind of verdict."""
    kinds = {
        "refused by the oracle": sum(not v["oracle"]["ok"] for v in VERDICTS),
        "refused by the engine core": sum(
            v["oracle"]["ok"] and not v["engine_core_envs"]["ok"] for v in VERDICTS
        ),
        "unknown name logged": sum(bool(v["unknown_env_warnings"]) for v in VERDICTS),
    }
    assert all(kinds.values()), kinds
