"""A Markdown shell block is read as a shell script is (issue 28 item 5, in Markdown): a
manifest in a here-document (`cat <<EOF |kubectl apply -f -`) is read by its host, with
every word where the document writes it, and a fix applied there keeps the block a valid
script and manifest. Real file: vLLM's own `docs/deployment/k8s.md` (tests/sources/data/
markdown/SOURCES.md)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml
from source_support import apply_json_fix, cli_json
from vllm_config_lsp.sources.markdown import code_blocks

DATA = Path(__file__).resolve().parent / "data" / "markdown"
K8S = DATA / "vllm-project__vllm__docs__deployment__k8s.md"


def test_the_heredoc_manifest_in_a_bash_block_is_found_with_the_yaml_blocks() -> None:
    starts = cli_json("argv", K8S)
    assert [(s["source"], s["line"]) for s in starts] == [
        ("markdown", 81),
        ("markdown", 208),
        ("markdown", 297),
    ]
    first = starts[0]
    line = K8S.read_text(encoding="utf-8").splitlines()[80]
    assert line[first["column"] - 1 :].startswith("vllm serve meta-llama/Llama-3.2-1B-Instruct")
    assert first["argv"] == ["meta-llama/Llama-3.2-1B-Instruct"]


def test_a_finding_in_the_heredoc_and_its_fix_keep_script_and_manifest(tmp_path: Path) -> None:
    text = K8S.read_text(encoding="utf-8").replace(
        '"vllm serve meta-llama/Llama-3.2-1B-Instruct"',
        '"vllm serve meta-llama/Llama-3.2-1B-Instruct --max_modl_len 2048"',
    )
    path = tmp_path / "k8s.md"
    path.write_text(text, encoding="utf-8")
    found = [f for f in cli_json("check", path) if f["code"] == "VC101"]
    (typo,) = found
    column = text.splitlines()[80].index("--max_modl_len") + 1
    assert (typo["line"], typo["column"]) == (81, column)
    fixed = apply_json_fix(text, typo)
    assert '"vllm serve meta-llama/Llama-3.2-1B-Instruct --max-model-len 2048"' in fixed
    block = next(b for b in code_blocks(fixed) if "--max-model-len" in b.text)
    script = tmp_path / "block.sh"
    script.write_text(block.text, encoding="utf-8")
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0
    body = block.text.split("\n", 1)[1].rsplit("EOF", 1)[0]
    assert len(list(yaml.safe_load_all(body))) == 2  # still the manifest it was
    path.write_text(fixed, encoding="utf-8")
    assert not [f for f in cli_json("check", path) if f["code"] == "VC101"]


def test_an_unquoted_heredoc_in_a_block_leaves_what_the_shell_expands_unresolved(
    tmp_path: Path,
) -> None:
    """`$TP` in an unquoted here-document is the shell's: no finding on it; the same text
    in a quoted one reaches vLLM as written and is checked."""
    manifest = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: vllm\nspec:\n  containers:\n"
        "  - name: vllm\n    image: vllm/vllm-openai:v0.11.2\n"
        '    args: ["--model", "m", "--tensor-parallel-size", "$TP"]\n'
    )
    for delimiter, reported in (("EOF", False), ("'EOF'", True)):
        text = f"# Deploy\n\n```bash\nkubectl apply -f - <<{delimiter}\n{manifest}EOF\n```\n"
        path = tmp_path / "deploy.md"
        path.write_text(text, encoding="utf-8")
        (start,) = cli_json("argv", path)
        assert start["argv"][-1] == "$TP"
        codes = [f["code"] for f in cli_json("check", path)]
        assert codes == (["VC201"] if reported else []), codes  # invalid int value: '$TP'
