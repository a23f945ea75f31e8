"""The rule index (`rules/_index.py`) lists every rule module: `all_rules()` reads it instead
of walking the rule groups at every start, so a rule module missing from it would never run.
Regenerate it with `python tools/generate_rule_index.py`."""

from __future__ import annotations

import subprocess
import sys

from support import REPO
from vllm_config_lsp.rules import all_rules

sys.path.insert(0, str(REPO / "tools"))
from generate_rule_index import COMMAND, INDEX, discovered, render


def test_the_index_lists_every_rule_module_as_it_is() -> None:
    listed = {(r.code, r.name, f"vllm_config_lsp.rules.{r.module_name}") for r in all_rules()}
    walked = {(code, name, module) for code, name, module, *_ in discovered()}
    missing = sorted(walked - listed)
    stale = sorted(listed - walked)
    assert not missing and not stale, (
        f"the rule index is stale (not listed: {missing}; listed but gone or changed: "
        f"{stale}): run `{COMMAND}`"
    )
    assert INDEX.read_text(encoding="utf-8") == render(discovered()), f"run `{COMMAND}`"


def test_each_indexed_rule_is_its_module() -> None:
    for rule in all_rules():
        module = rule.module
        assert (rule.code, rule.name) == (module.CODE, module.NAME), f"run `{COMMAND}`"
        assert getattr(module, "TRANSCRIBES", rule.transcribes) == rule.transcribes
        assert callable(rule.check)


def test_the_generator_check_mode_agrees() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "tools" / "generate_rule_index.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
