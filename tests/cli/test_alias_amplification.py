"""YAML aliases in host formats: an element aliased 10,000 times (`- *c`, `b1: *s`) holds
the same words at the same offsets, so the readers read it once. Before, a Pod with one
container of 100 flags aliased 10,000 times (72 KB) ran 30 s into the 1 GB bound and
reported nothing, exit 0 (the reader turned its MemoryError into "no start of vLLM"); the
compose and workflow readers took 9 s and 8 s for 10,000 aliased services or steps.
Bounded runs (support.bounded_cli: 1 GB of address space, a timeout that catches hangs)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support import bounded_cli, limit_memory
from vllm_config_lsp.engine import lint
from vllm_config_lsp.sources import kubernetes

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS")

ALIASES = 10_000
FLAGS = "--served-model-name, " + ", ".join(f"name{n}" for n in range(100))
POD = (
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - &c\n"
    "    name: v\n    image: vllm/vllm-openai:v0.33.0\n"
    f"    args: [m, {FLAGS}, --max-num-seqs, x]\n" + "  - *c\n" * ALIASES
)
COMPOSE = (
    "services:\n  a: &s\n    image: vllm/vllm-openai:v0.33.0\n"
    f"    command: [m, {FLAGS}, --max-num-seqs, x]\n"
    + "".join(f"  b{n}: *s\n" for n in range(ALIASES))
)
WORKFLOW = (
    "on: push\njobs:\n  j: &j\n    runs-on: ubuntu-latest\n    steps:\n    - &st\n"
    "      run: vllm serve m --max-num-seqs x\n"
    + "    - *st\n" * ALIASES
    + "".join(f"  k{n}: *j\n" for n in range(100))
)
CASES = {
    "pod.yaml": POD,
    "compose.yaml": COMPOSE,
    ".github/workflows/ci.yaml": WORKFLOW,
    "README.md": f"# Serving\n\n```yaml\n{POD}```\n",
}


#: CPU seconds a check gets: about 1.3 s are needed (the interpreter's start included), 8 s
#: or more before; CPU time, not wall time, so a loaded machine does not fail it.
CPU_SECONDS = 6


def _bounded() -> None:
    import resource

    limit_memory()
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_aliased_element_is_read_once(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(CASES[name])
    result = bounded_cli("check", "--format", "json", str(path), preexec=_bounded)
    assert result.returncode == 1, result.stderr[-2000:]
    rows = json.loads(result.stdout)
    assert [(row["code"], row["message"]) for row in rows] == [
        ("VC201", "argument --max-num-seqs: invalid int value: 'x'")
    ]


def test_a_reader_out_of_memory_is_no_silent_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a reader cannot read is an error "not read", never a file without vLLM."""

    def exhausted(text: str, *, expand_env: bool = False) -> list[object]:
        raise MemoryError

    monkeypatch.setattr(kubernetes, "_find", lambda text, expand_env: exhausted(text))
    findings = lint(POD, host="kubernetes").findings
    assert [(f.code, f.severity.label) for f in findings] == [("VC000", "error")]
    assert findings[0].message.startswith("not read: the kubernetes reader ran out of memory")
