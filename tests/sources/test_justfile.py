"""justfiles as a host of vLLM starts (`sources.justfile`), on the real files of
`data/justfile/` (SOURCES.md cites them): the starts with their lines, `{{…}}` unresolved,
a recipe that calls a wrapper recipe (`just uvx-vllm vllm serve …`) read through it, the
environment its line sets, a fix applied that is still a justfile; a justfile that starts
nothing gets nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import cli
from vllm_config_lsp.engine import Document, check
from vllm_config_lsp.findings import apply_edits
from vllm_config_lsp.sources.hosts import host_of
from vllm_config_lsp.sources.justfile import find_invocations

DATA = Path(__file__).resolve().parent / "data" / "justfile"
#: file → (line of each start, the findings (code, line)).
REAL = {
    "r1-benchmark/Justfile": ([60], []),
    "r1-benchmark/scripts/utils.just": ([], []),
    "r1-benchmark-9962dd3/Justfile": (
        [37, 46, 53],
        [("VC240", 36), ("VC240", 36), ("VC600", 37)],
    ),
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_the_real_justfiles(name: str) -> None:
    path = DATA / name
    assert f"| {name} |" in (DATA / "SOURCES.md").read_text(encoding="utf-8")
    assert host_of(str(path), path.read_text(encoding="utf-8")) == "justfile"
    lines, findings = REAL[name]
    starts = json.loads(cli("argv", "--format", "json", str(path)).stdout)
    assert [(s["line"], s["source"]) for s in starts] == [(n, "justfile") for n in lines]
    found = json.loads(cli("check", "--format", "json", str(path)).stdout)
    assert [(f["code"], f["line"]) for f in found] == findings, found


def test_a_shebang_recipe_is_one_script_with_its_parameters_unresolved() -> None:
    text = (DATA / "r1-benchmark" / "Justfile").read_text(encoding="utf-8")
    [start] = find_invocations(text)
    words = [w.text for w in start.args]
    assert words == ["{{model_path}}", "--tensor-parallel-size", "{{tp}}", "${VLLM_SERVE_ARGS}"]
    assert [w.resolved for w in start.args] == [False, True, False, False]
    assert text[start.start : start.end] == "vllm"
    assert start.pinned_version == "0.8.4"  # the wrapper's `uvx --with 'vllm==0.8.4'`
    assert [(v.name.text, v.value and v.value.text) for v in start.environ] == [
        ("VLLM_USE_FLASHINFER_SAMPLER", "1")
    ]


def test_the_removed_variables_fix_moves_it_to_the_flag(tmp_path: Path) -> None:
    """`VLLM_ATTENTION_BACKEND=FLASHMLA` in front of the (wrapped) start: the fix writes
    `--attention-backend FLASHMLA` after its last word; the recipe still reads, without it."""
    text = (DATA / "r1-benchmark-9962dd3" / "Justfile").read_text(encoding="utf-8")
    path = tmp_path / "Justfile"
    checked = check(Document(text, path=path))
    [finding] = [f for f in checked.findings if "VLLM_ATTENTION_BACKEND" in f.message]
    fixed = apply_edits(text, finding.fixes[0].edits)
    first = find_invocations(fixed)[0]
    assert [w.text for w in first.args][-2:] == ["--attention-backend", "FLASHMLA"]
    assert "VLLM_ATTENTION_BACKEND" not in {v.name.text for v in first.environ}
    after = check(Document(fixed, path=path)).findings
    assert not [f for f in after if "VLLM_ATTENTION_BACKEND" in f.message]


def test_just_syntax_around_the_starts() -> None:
    """A linewise recipe's `@` prefix and `\\` continuation, `{{ expr }}` with blanks inside
    one word, `{{{{` a literal, an assignment that names `vllm serve` (no start), a recipe
    attribute and a parameter default with a colon in it."""
    text = (
        'port := "8200"\n'
        'cmd := "vllm serve not-a-start"\n'
        "[group('serve')]\n"
        'serve model="Qwen/Qwen3-8B" url="http://x:1":\n'
        '    @vllm serve "{{ model }}" --port={{ port }} \\\n'
        "      --max-model-len 4096\n"
        "    echo '{{{{ not just }}'\n"
        "\n"
        "other:\n"
        "\t-vllm serve m2 --dtype half\n"
    )
    first, second = find_invocations(text)
    assert [w.text for w in first.args] == [
        "{{ model }}",
        "--port={{ port }}",
        "--max-model-len",
        "4096",
    ]
    assert first.args[0].unresolved == ("{{ model }}",) and first.args[2].resolved
    assert [w.text for w in second.args] == ["m2", "--dtype", "half"]
    assert text[second.start : second.end] == "vllm"
    found = check(Document(text, path=Path("/w/justfile"))).findings
    assert found == []


def test_a_justfile_is_told_by_its_name() -> None:
    for name in ("justfile", "Justfile", ".justfile", "serve.just"):
        assert host_of(f"/w/{name}", "serve:\n  vllm serve m\n") == "justfile"
    assert host_of("/w/justfile.md", "x") != "justfile"
