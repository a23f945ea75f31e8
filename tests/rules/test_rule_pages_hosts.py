"""Rule pages show each `--config` example in the other hosts' syntax too (issue 34, item
8): a shell command line and a Kubernetes container's `args:`, the same words vLLM
receives, found by the same rule (pages of problems of the file's own syntax have none); no
internal module path in the page's text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from vllm_config_lsp.engine import CheckOptions, Document, check
from vllm_config_lsp.rules import all_rules

PAGES = Path(__file__).resolve().parents[2] / "docs" / "rules"
_SHELL = re.compile(r"^### Example, on a command line\n\n```sh\n(.*?)```", re.S | re.M)


def test_pages_name_no_module_path() -> None:
    for rule in all_rules():
        text = (PAGES / f"{rule.code}.md").read_text(encoding="utf-8")
        body = text.split("\n", 1)[1]  # the generated-from comment names the module
        assert "Rule module" not in body and "server/vllm_config_lsp" not in body, rule.code


def test_the_seed_page_shows_every_host() -> None:
    text = (PAGES / "VC703.md").read_text(encoding="utf-8")
    assert "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 8\n" in text
    assert 'args:\n  - "Qwen/Qwen3-8B"\n  - "--tensor-parallel-size"\n  - "8"\n' in text


@pytest.mark.parametrize("code", [rule.code for rule in all_rules()])
def test_the_command_line_example_is_found_by_its_rule(code: str) -> None:
    text = (PAGES / f"{code}.md").read_text(encoding="utf-8")
    found = _SHELL.search(text)
    if found is None:
        pytest.skip("no command-line form on this page (the --config file's own syntax)")
    script = "#!/bin/sh\n" + found.group(1)
    models = (PAGES.parents[1] / "tests" / "fixtures" / "models",)
    checked = check(
        Document(text=script, path=Path("/example/serve.sh")), CheckOptions(model_dirs=models)
    )
    assert code in {finding.code for finding in checked.findings}
