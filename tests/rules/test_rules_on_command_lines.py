"""Every rule works on every source: each rule's Example, rendered as the `vllm serve`
command line vLLM would build from it (one flag per continuation line), gets the same rule
on the same flag's line; every fix offered there keeps the script valid shell and clears
the finding. Rules about the YAML file itself have no command-line form (listed, with why).
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess

import pytest
from support import REPO
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import apply_edits
from vllm_config_lsp.rules import all_rules

#: Rules whose subject exists only in a `--config` YAML file.
YAML_ONLY = {
    "VC104": "`false` dropped by load_config_file: a command line writes no `false`",
    "VC105": "YAML 1.1 booleans: a shell word is a string",
    "VC106": "values a YAML list spreads over several tokens: a command line writes each",
    "VC107": "a `config:` key inside a config file",
    "VC109": "a YAML list under a dotted key",
    "VC112": "YAML 1.1 numbers (octal, sexagesimal, `_`): a shell word is passed as written",
    "VC113": "an empty YAML list dropped by load_config_file: a command line omits the flag",
    "VC115": "`false` dropped by load_config_file: a command line writes no `false`",
    "VC123": "the `model:` key of a config file under 0.6-0.7",
    "VC124": "`model: []`/`false` dropped by load_config_file: a command line names its model",
}
#: Rules whose subject is the command line itself: their Example is one already.
COMMAND_LINE_ONLY = {
    "VC384": "`--model` on the `vllm serve` command line",
    "VC240": "the environment a host gives the command line",
    "VC241": "the environment a host gives the command line",
    "VC242": "the environment a host gives the command line",
    "VC539": "the environment a host gives the command line",
    "VC816": "the environment a host gives the command line",
    "VC817": "the environment a host gives the command line",
    "VC819": "the environment a host gives the command line",
    "VC252": "`--omni` is read from sys.argv: in a `--config` file it is an unknown flag",
}
RULES = [
    rule
    for rule in all_rules()
    if rule.code >= "VC100" and rule.code not in YAML_ONLY | COMMAND_LINE_ONLY.keys()
]


@pytest.fixture(autouse=True)
def _fixture_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VLLM_CONFIG_MODEL_DIRS", str(REPO / "tests" / "fixtures" / "models"))


def _example(code: str) -> str:
    rule = next(rule for rule in all_rules() if rule.code == code)
    match = re.search(r"## Example\n```yaml\n(.*?)```", rule.doc, re.S)
    assert match
    return match.group(1)


def render(yaml_text: str) -> tuple[str, dict[int, int]]:
    """The script, and for each line of the YAML that holds a key, the script's line of
    the flag it becomes."""
    model = lint(yaml_text).model
    assert model is not None and model.origin is not None and model.origin.invocation
    words = model.origin.invocation.args
    marker = [line for line in yaml_text.splitlines() if line.startswith("# vllm-config")]
    lines = [*marker, "vllm serve \\"]
    if not any(word.text == "--model" for word in words):
        lines[-1] = "vllm serve Qwen/Qwen3-8B \\"
    where: dict[int, int] = {}
    group: list[str] = []
    for word in words:
        if word.origin is not None and word.origin.is_key:
            if group:
                lines.append("  " + shlex.join(group) + " \\")
                group = []
            yaml_line = yaml_text.count("\n", 0, word.origin.pair.key_node.start_mark.index)
            where[yaml_line] = len(lines)
        group.append(word.text)
    lines.append("  " + shlex.join(group))
    return "\n".join(lines) + "\n", where


@pytest.mark.parametrize("code", [rule.code for rule in RULES])
def test_same_rule_on_the_same_flag(code: str) -> None:
    example = _example(code)
    on_yaml = [f for f in lint(example).findings if f.code == code]
    script, where = render(example)
    on_shell = [f for f in lint(script, host="shell").findings if f.code == code]
    assert on_shell, (code, script)
    for found in on_yaml:
        yaml_line = example.count("\n", 0, found.start)
        if yaml_line in where:
            lines = {script.count("\n", 0, f.start) for f in on_shell}
            assert where[yaml_line] in lines, (code, script, yaml_line)


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash checks that fixed scripts parse")
@pytest.mark.parametrize("code", [rule.code for rule in RULES])
def test_fixes_keep_the_script_valid_and_clear_the_finding(code: str) -> None:
    script, _where = render(_example(code))
    script = "# keep me\n" + script + "echo done  # and me\n"
    found = [f for f in lint(script, host="shell").findings if f.code == code]
    for finding in found:
        for fix in finding.fixes:
            fixed = apply_edits(script, fix.edits)
            parsed = subprocess.run(["bash", "-n"], input=fixed, text=True, check=False)
            assert parsed.returncode == 0, (fix.title, fixed)
            assert fixed.startswith("# keep me\n") and fixed.endswith("echo done  # and me\n")
            after = [f for f in lint(fixed, host="shell").findings if f.code == code]
            assert len(after) < len(found) or all(f.start != finding.start for f in after), (
                fix.title,
                fixed,
            )
