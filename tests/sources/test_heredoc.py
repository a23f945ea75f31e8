"""Here-documents a script writes (issue 28 item 5): a manifest fed to `kubectl apply` or
written to a file is a YAML host inside the script, read by its kind's reader with every
word at its place in the script; an unquoted here-document's `$VAR` is unresolved, a quoted
one's is the text Kubernetes receives; one written to the file a start names as `--config`
is that config, in place of `--config FILE`. Real files: tests/sources/data/heredoc/
SOURCES.md."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from source_support import apply_json_fix, cli_json
from vllm_config_lsp.sources.shell import heredocs
from vllm_config_lsp.sources.shell_script import find_invocations

DATA = Path(__file__).resolve().parent / "data" / "heredoc"
EKS = DATA / "tchangkiat__aws-cdk-stacks__archive__vllm-cpu__install-vllm-meta-llama.sh"
CONFIG = DATA / "SemiAnalysisAI__InferenceX__benchmarks__gptoss_fp4_h100.sh"


def test_real_manifest_written_by_a_heredoc_is_read_where_the_script_writes_it() -> None:
    (start,) = cli_json("argv", EKS)
    assert (start["source"], start["line"], start["column"]) == ("kubernetes", 36, 12)
    assert start["argv"] == [
        "meta-llama/Llama-3.2-1B-Instruct",
        *("--max_num_batched_tokens", "2048", "--max_model_len", "2048"),
    ]
    assert cli_json("check", EKS) == []


def test_a_finding_in_the_heredoc_and_its_fix_applied(tmp_path: Path) -> None:
    path = tmp_path / "install.sh"
    text = EKS.read_text(encoding="utf-8").replace("--max_model_len", "--max_modl_len")
    path.write_text(text, encoding="utf-8")
    (found,) = cli_json("check", path)
    column = text.splitlines()[35].index("--max_modl_len") + 1
    assert (found["code"], found["line"], found["column"]) == ("VC101", 36, column)
    fixed = apply_json_fix(text, found)
    assert '--max-model-len 2048"\n' in fixed
    path.write_text(fixed, encoding="utf-8")
    assert subprocess.run(["bash", "-n", str(path)], check=False).returncode == 0
    assert cli_json("check", path) == []


MANIFEST = """\
apiVersion: v1
kind: Pod
metadata:
  name: vllm
spec:
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.11.2
    args: ["--model", "m", "--tensor-parallel-size", "$TP", "--port", '\\$PORT']
"""


@pytest.mark.parametrize(
    ("opening", "closing"),
    [
        ("cat <<EOF | kubectl apply -f -\n", "EOF\n"),
        ("kubectl apply -f - <<EOF\n", "EOF\n"),
        ("cat > deploy.yaml <<EOF\n", "EOF\nkubectl apply -f deploy.yaml\n"),
        ("kubectl apply -f - <<-EOF\n", "\tEOF\n"),
    ],
)
def test_the_forms_of_a_heredoc_manifest(opening: str, closing: str) -> None:
    body = MANIFEST
    if opening.endswith("<<-EOF\n"):
        body = "".join("\t" + line for line in MANIFEST.splitlines(keepends=True))
    script = "TP=2\n" + opening + body + closing
    (invocation,) = find_invocations(script)
    assert invocation.source == "kubernetes"
    tp = invocation.args[3]
    assert (tp.text, tp.unresolved) == ("$TP", ("$TP",))  # the shell expands it
    assert script[tp.starts[0] : tp.ends[-1]] == "$TP"
    port = invocation.args[5]
    assert (port.text, port.resolved) == ("$PORT", True)  # `\\$`: a literal `$` for the pod
    model = invocation.args[1]
    assert script[model.starts[0] : model.ends[-1]] == "m"


def test_a_quoted_heredoc_hands_its_text_over_as_written(tmp_path: Path) -> None:
    script = "cat > deploy.yaml <<'EOF'\n" + MANIFEST + "EOF\n"
    (invocation,) = find_invocations(script)
    assert invocation.args[3].text == "$TP" and invocation.args[3].resolved
    assert invocation.args[5].text == "\\$PORT"
    path = tmp_path / "deploy.sh"
    path.write_text(script, encoding="utf-8")
    # Kubernetes expands only `$(TP)`: vLLM receives the texts `$TP`, `\$PORT`, refuses them
    found = [f for f in cli_json("check", path) if f["code"] == "VC201"]
    assert [(f["severity"], f["line"]) for f in found] == [("error", 10), ("error", 10)]
    assert "'$TP'" in found[0]["message"]


def test_a_heredoc_that_writes_the_config_is_that_config(tmp_path: Path) -> None:
    (start,) = cli_json("argv", CONFIG)
    assert start["argv"][:9] == [
        "$MODEL",
        *("--async-scheduling", "--no-enable-prefix-caching"),
        *("--max-cudagraph-capture-size", "2048", "--max-num-batched-tokens", "8192"),
        *("--max-model-len", "10240"),
    ]
    assert "--config" not in start["argv"]
    path = tmp_path / "gptoss_fp4_h100.sh"
    text = CONFIG.read_text(encoding="utf-8").replace("max-model-len:", "max-modl-len:")
    path.write_text(text, encoding="utf-8")
    (found,) = [f for f in cli_json("check", path) if f["code"] == "VC101"]
    assert (found["line"], found["column"], found["end_column"]) == (25, 1, 13)  # the key
    fixed = apply_json_fix(text, found)
    assert "\nmax_model_len: 10240\n" in fixed
    path.write_text(fixed, encoding="utf-8")
    assert [f["code"] for f in cli_json("check", path)] == ["VC110"]  # as the original


def test_heredoc_bodies_as_the_command_reads_them() -> None:
    script = (
        'cat <<-"EOF" > a.yaml\n\tx: $Y \\$Z\n\tEOF\n'
        "tee b.yaml <<EOF\ny: \\$Z $(date) \\\\\nw: 1\\\n2\nEOF\n"
    )
    quoted, unquoted = heredocs(script)
    assert (quoted.text, quoted.target, quoted.expansions) == ("x: $Y \\$Z\n", "a.yaml", ())
    assert unquoted.target == "b.yaml"
    assert unquoted.text == "y: $Z $(date) \\\nw: 12\n"
    assert [script[a:b] for a, b in unquoted.expansions] == ["$(date)"]
    z = unquoted.text.index("$Z")
    assert script[unquoted.source_map.start_of(z) : unquoted.source_map.end_of(z + 1)] == "\\$"
