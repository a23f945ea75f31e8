"""`migrate`: rewriting a config for another vLLM release (CLI `check --migrate-to`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import CORPUS, VERSIONED, cli
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Severity, apply_edits
from vllm_config_lsp.migrate import migrate
from vllm_config_lsp.vllm.catalogue import nearest_release

OLD = """\
# tuned for vLLM 0.10
model: m  # the model
swap-space: 4   # GiB of CPU swap
cuda-graph-sizes: [1, 2, 4]
rope-scaling: '{"rope_type": "dynamic", "factor": 2.0}'
# JSON string: before 0.16 a YAML mapping reaches argparse as its Python repr
compilation-config: '{"level": 3, "pass_config": {"enable_noop": true}}'
"""


def _errors(text: str, version: str) -> list[str]:
    return [
        f"{f.code} {f.message}"
        for f in lint(text, version=version).findings
        if f.severity == Severity.ERROR
    ]


def test_renames_and_removals_applied_comments_kept() -> None:
    result = migrate(OLD, "0.33.0")
    assert result.text == (
        "# tuned for vLLM 0.10\n"
        "model: m  # the model\n"
        "cudagraph-capture-sizes: [1, 2, 4]\n"
        'rope-scaling: \'{"rope_type": "dynamic", "factor": 2.0}\'\n'
        "# JSON string: before 0.16 a YAML mapping reaches argparse as its Python repr\n"
        'compilation-config: \'{"mode": 3, "pass_config": {"eliminate_noops": true}}\'\n'
    )
    assert len(result.applied) == 4
    assert result.needs_human == [
        "`rope-scaling`: removed in vLLM 0.11; set it through `hf-overrides: {rope_scaling: …}`"
    ]
    assert apply_edits(OLD, [result.edit(OLD)]) == result.text


def test_nothing_to_do_on_the_same_release() -> None:
    assert _errors(OLD, "0.10.2") == []
    result = migrate(OLD, "0.10")
    assert result.target == "0.10.2"
    assert not result.changed and result.text == OLD and result.needs_human == []


#: Old corpus files whose migration to 0.33 needs a human: the replacement has another
#: shape than the removed option (the migration lists each of these).
NEEDS_HUMAN = {
    # `enable-chunked-prefill: 'false'` was a value in 0.6/0.7; in 0.33 the flag takes
    # none, and the stray `false` becomes the model vLLM fails to load (VC106's error)
    "aibrix-llama3.1-8b-chunked-prefill-false-swap-space-v0.7.0.yaml": "line 11: VC106",
    "aibrix-llama3.1-8b-enable-chunked-prefill-false-v0.6.1.yaml": "line 15: VC106",
    "aibrix-dse-qwen2-task-embed-v0.9.2.yaml": "`task`",
    "inferencex-llama70b-mi355x-swap-space-max-seq-len-to-capture.yaml": "`max-seq-len-to-capture`",
    "issue-vllm-10537-rope-scaling-dynamic-v0.6.4.yaml": "`rope-scaling`",
    "issue-vllm-12507-spec-model-compilation-config-3-v0.7.0.yaml": "`speculative-model`",
    "issue-vllm-ascend-1024-rope-scaling-v0.8.5.yaml": "`rope-scaling`",
    # AIBrix's own KV connectors: stock vLLM registers no such name; it takes the AIBrix
    # plugin or a `kv_connector_module_path`, which only the user can say
    "aibrix-kvcache-offloading-connector-v0.10.2.yaml": "line 16: VC361",
    "aibrix-pd-reuse-connector-prefill-v0.10.2.yaml": "line 16: VC361",
}
OLD_FILES = [
    name
    for name, version in VERSIONED
    if not version.startswith(">=") and nearest_release(version) != "0.33.0"
]


@pytest.mark.parametrize("name", OLD_FILES)
def test_old_corpus_file_migrates_to_033(name: str) -> None:
    text = (CORPUS / "real" / name).read_text(encoding="utf-8")
    result = migrate(text, "0.33.0")
    errors = _errors(result.text, "0.33.0")
    if name in NEEDS_HUMAN:
        assert errors, "now migrates fully: drop it from NEEDS_HUMAN"
        assert any(line.startswith(NEEDS_HUMAN[name]) for line in result.needs_human)
        assert len(result.needs_human) >= len(errors)
    else:
        assert errors == [], result.applied
        assert result.needs_human == []


def test_the_migration_corpus_is_substantial() -> None:
    migrated = [
        n for n in OLD_FILES if migrate((CORPUS / "real" / n).read_text(), "0.33.0").changed
    ]
    assert len(OLD_FILES) >= 50 and len(migrated) >= 15


def test_cli_migrate_to(tmp_path: Path) -> None:
    path = tmp_path / "old.vllm.yaml"
    path.write_text(OLD, encoding="utf-8")
    result = cli("check", "--migrate-to", "0.33.0", str(path))
    assert "renamed `cuda-graph-sizes` to `cudagraph-capture-sizes`" in result.stderr
    assert "needs a decision: `rope-scaling`" in result.stderr
    assert path.read_text(encoding="utf-8") == migrate(OLD, "0.33.0").text
    assert result.returncode == 1  # rope-scaling is still refused by 0.33
    assert "VC101" in result.stdout


def test_old_names_the_target_still_accepts_are_renamed() -> None:
    """0.17 accepts `level` beside `mode`: migrating to it renames, so 0.18 works too."""
    from vllm_config_lsp.migrate import migrate

    text = "model: m  # keep\ncompilation-config:\n  level: 3\n"
    result = migrate(text, "0.17.1")
    assert result.text == "model: m  # keep\ncompilation-config:\n  mode: 3\n"
    assert result.applied == ["renamed `compilation-config.level` to `mode` (its new name)"]
    assert result.needs_human == []
