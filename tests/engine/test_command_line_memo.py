"""The engine remembers each command line's findings: a keystroke elsewhere in a long
script must give exactly what a fresh check of the new text gives (positions, messages,
fixes), however far the command line moved."""

from __future__ import annotations

import pytest
from vllm_config_lsp import engine
from vllm_config_lsp.findings import Finding, apply_edits

SCRIPT = """#!/bin/bash
vllm serve Qwen/Qwen3-8B \\
  --max-num-seqs 8 \\
  --tensor-parallel-size two

echo between

vllm serve Qwen/Qwen3-8B --swap-space 4 --max-num-seqs 4 --max-num-seqs 16 \\
  --gpu-memory-utilization 1.5
"""


def _seen(findings: list[Finding]) -> list[tuple[object, ...]]:
    return [
        (f.code, f.severity, f.start, f.end, f.message, tuple(fix.edits for fix in f.fixes))
        for f in findings
    ]


def _fresh(text: str) -> list[tuple[object, ...]]:
    """What a check with nothing remembered says (what it remembers is dropped after)."""
    engine.forget_checked()
    try:
        return _seen(engine.lint(text, version="0.33.0", host="shell").findings)
    finally:
        engine.forget_checked()


@pytest.mark.parametrize(
    "edit",
    [
        ("--max-num-seqs 8", "--max-num-seqs 88"),  # typed into the first command line
        ("echo between", "echo between\n\n# two lines more\n"),  # lines added between them
        ("#!/bin/bash\n", "#!/bin/bash\n# é ünïcode 𝄞\n"),  # above both, not ASCII
    ],
)
def test_a_keystroke_elsewhere_gives_what_a_fresh_check_gives(edit: tuple[str, str]) -> None:
    engine.lint(SCRIPT, version="0.33.0", host="shell")  # remembered
    edited = SCRIPT.replace(*edit, 1)
    remembered = _seen(engine.lint(edited, version="0.33.0", host="shell").findings)
    assert remembered == _fresh(edited)
    assert {entry[0] for entry in remembered} == {"VC101", "VC108", "VC201", "VC203"}


def test_a_message_naming_a_line_follows_its_command_line() -> None:
    engine.lint(SCRIPT, version="0.33.0", host="shell")
    edited = SCRIPT.replace("echo between", "echo between\n\n\n")
    messages = [f.message for f in engine.lint(edited, version="0.33.0", host="shell").findings]
    named = [m for m in messages if "set again on line" in m]
    assert named, messages
    assert all("line 11" in m for m in named), named  # was line 8 before three lines came
    assert _seen(engine.lint(edited, version="0.33.0", host="shell").findings) == _fresh(edited)


def test_a_remembered_fix_still_applies_where_it_belongs() -> None:
    engine.lint(SCRIPT, version="0.33.0", host="shell")
    edited = "# a comment that moves everything\n" + SCRIPT
    findings = engine.lint(edited, version="0.33.0", host="shell").findings
    removal = next(f for f in findings if f.code == "VC101").fixes[0]
    fixed = apply_edits(edited, removal.edits)
    assert fixed.startswith("# a comment that moves everything\n#!/bin/bash\n")
    assert "--swap-space" not in fixed  # removed in 0.18: the fix takes it out
    assert fixed == edited.replace(" --swap-space 4", "", 1)
    left = {f.code for f in engine.lint(fixed, version="0.33.0", host="shell").findings}
    assert left == {"VC108", "VC201", "VC203"}, left


def test_models_are_built_when_asked_and_match_the_command_lines() -> None:
    result = engine.lint(SCRIPT, version="0.33.0", host="shell")
    assert len(result.command_lines) == 2
    assert [m.invocation for m in result.invocations] == [
        line.invocation for line in result.command_lines
    ]
    assert result.model is result.invocations[0]
    assert result.document is not None and not result.document.is_config_file


def test_related_settings_follow_their_command_line() -> None:
    """A remembered warning's related setting (VC376: `--enforce-eager` makes `-O3` moot)
    moves with its command line, as a fresh check places it."""
    script = "vllm serve Qwen/Qwen3-8B --enforce-eager -O3\n"
    engine.lint(script, version="0.33.0", host="shell")
    edited = "# two\n# lines\n" + script
    [found] = [
        f for f in engine.lint(edited, version="0.33.0", host="shell").findings if f.code == "VC376"
    ]
    [related] = found.related
    assert edited[related.start : related.end] == "--enforce-eager"
    assert edited[found.start : found.end] == "-O3"
