"""The start-up log findings whose fix the rule's own example does not reach, applied on
the recorded fidelity cases: the fix must remove the finding and leave a file vLLM reads.
(VC330's example is a refusal; VC396's is the generative branch, not the pooling one.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import REPO, apply_fix
from vllm_config_lsp.engine import lint

CASES = REPO / "tests" / "fidelity" / "cases" / "models"


@pytest.fixture(autouse=True)
def _fixture_hub_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(REPO / "tests" / "fixtures" / "models" / "hf-cache"))


@pytest.mark.parametrize(
    ("case", "code", "removed"),
    [
        ("watermark-alpha-unused-mtp.yaml", "VC330", "alpha: 0.3"),
        ("pooling-mean-chunked-on.yaml", "VC396", "enable-chunked-prefill: true"),
        ("pooling-mean-prefix-on.yaml", "VC396", "enable-prefix-caching: true"),
    ],
)
def test_the_fix_removes_the_setting_and_the_finding(case: str, code: str, removed: str) -> None:
    path: Path = CASES / case
    text = path.read_text(encoding="utf-8")
    (found,) = [f for f in lint(text, path=path).findings if f.code == code]
    (fix,) = found.fixes
    fixed = apply_fix(text, fix)
    assert removed in text and removed not in fixed
    after = lint(fixed, path=path).findings
    assert [f for f in after if f.code == code] == []
    assert [f.message for f in after if f.severity == 3] == []
