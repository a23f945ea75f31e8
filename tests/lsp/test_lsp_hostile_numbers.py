"""Numbers from outside the server are bounded: a 5,000-digit version (beyond Python's
int digit limit) or a `debounceMs` of infinity or NaN in `initializationOptions` is a
reported setting problem replaced by its default, never a failed `initialize`; a version
comment of 5,000 digits in a document is a release named by nothing. Model files read
for a document are cached within a bound."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest
from raw_client import RawClient

HUGE_VERSION = "0." + "1" * 5000


@pytest.mark.parametrize("debounce", [math.inf, math.nan, 1e300])
def test_hostile_initialization_options_fall_back_to_defaults(debounce: float) -> None:
    options = {"vllmConfig": {"vllmVersion": HUGE_VERSION, "debounceMs": debounce}}
    server = RawClient(options=options)
    try:
        uri = "file:///hostile-numbers/a.vllm.yaml"
        server.open(uri, "model: m\nmax-num-seqs: x\n")
        assert [d["code"] for d in server.diagnostics(uri, 1)] == ["VC201"]
        # the default debounce: a change is checked again
        server.change(uri, 2, [{"text": "model: m\nmax-num-seqs: 4\n"}])
        assert server.diagnostics(uri, 2) == []
        server.wait(lambda: any("debounceMs" in line for line in server.logs))
        assert any("vllmVersion: unknown vLLM version" in line for line in server.logs)
    finally:
        server.close()


def test_a_version_comment_of_5000_digits_names_no_release() -> None:
    server = RawClient()
    try:
        uri = "file:///hostile-numbers/marked.vllm.yaml"
        server.open(uri, f"# vllm-config: version={HUGE_VERSION}\nmodel: m\nmax-num-seqs: x\n")
        assert [d["code"] for d in server.diagnostics(uri, 1)] == ["VC201"]
    finally:
        server.close()


#: The server's address space: about 300 MB at start, and a bounded cache keeps it there.
#: Each rewrite of the 2 MB config.json below parses to about 40 MB: an unbounded cache
#: passes the limit within 20 rewrites.
ADDRESS_SPACE = 1024 * 1024 * 1024
LIMITED_SERVER = [
    sys.executable,
    "-c",
    "import resource, runpy, sys; "
    f"resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE}, {ADDRESS_SPACE})); "
    "runpy.run_module('vllm_config_lsp', run_name='__main__', alter_sys=True)",
    "--stdio",
]


def test_rewritten_model_files_do_not_accumulate(tmp_path: Path) -> None:
    """The parsed-file cache keeps one entry per path (and a bounded number of bytes): a
    config.json rewritten while the editor re-checks leaves one copy in memory, not one per
    version."""
    rows = json.dumps([{"k": number} for number in range(2_000_000 // 12)])
    (tmp_path / "m").mkdir()
    uri = (tmp_path / "serve.vllm.yaml").as_uri()
    text = "model: ./m\nmax-model-len: 100000\n"
    server = RawClient(command=LIMITED_SERVER)
    try:
        for version in range(1, 26):
            (tmp_path / "m" / "config.json").write_text(
                '{"architectures": ["LlamaForCausalLM"], "model_type": "llama", '
                f'"max_position_embeddings": {4096 + version}, "rows": {rows}}}'
            )
            if version == 1:
                server.open(uri, text)
            else:
                server.change(uri, version, [{"text": text + f"# {version}\n"}])
            codes = [d["code"] for d in server.diagnostics(uri, version)]
            assert codes == ["VC604"], (version, codes)
    finally:
        server.close()
