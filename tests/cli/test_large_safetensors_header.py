"""A safetensors header of 64 MB (`{"__metadata__": [[],[],…]}`) beside a model that a
`gpu=` marker checks against the memory budget (issue 30). Before, the header was parsed
on every check: 1.75 GB and 8 s per shard (7 s per keystroke in the editor); real headers
are tens of KB. Now a header that is not one of tensors' offsets is refused before it is
parsed, and the check goes on: the same finding as without the shard. Run through the CLI
under 1 GB of address space and 20 CPU seconds (about 1 s is needed)."""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import pytest
from support import bounded_cli, limit_memory

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS, RLIMIT_CPU")

CPU_SECONDS = 20
CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "num_hidden_layers": 32,
    "intermediate_size": 14336,
    "vocab_size": 128256,
    "max_position_embeddings": 8192,
    "torch_dtype": "bfloat16",
}


def _bounded() -> None:
    import resource

    limit_memory()
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


def test_a_64_mb_header_is_not_parsed(tmp_path: Path) -> None:
    body = b'{"__metadata__": [' + b"[]," * (64 * 1024 * 1024 // 3) + b"[]]}"
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_text(json.dumps(CONFIG))
    (tmp_path / "m" / "model.safetensors").write_bytes(struct.pack("<Q", len(body)) + body)
    path = tmp_path / "serve.vllm.yaml"
    path.write_text("# vllm-config: gpu=H100\nmodel: ./m\nmax-num-seqs: x\n")
    result = bounded_cli("check", "--format", "json", str(path), preexec=_bounded)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 1, result.stderr[-2000:]
    assert [row["code"] for row in json.loads(result.stdout)] == ["VC201"]
