"""The generated JSON Schema works unchanged in Red Hat's yaml-language-server.

`schemas/vllm-0.33.0.schema.json` is also for people who keep their YAML extension: with a
`# yaml-language-server: $schema=<path>` modeline it must reject what vLLM rejects at the
schema level and stay quiet on the real-world configs vLLM accepted. The server is the one
the benchmarks pin (`cd benchmarks && npm ci`); .ci/run installs it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from support import CORPUS, REPO

sys.path.insert(0, str(REPO / "tests" / "lsp"))
from raw_client import RawClient

SERVER = (
    REPO / "benchmarks" / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
)
SCHEMA = (REPO / "schemas" / "vllm-0.33.0.schema.json").resolve().as_uri()
MODELINE = f"# yaml-language-server: $schema={SCHEMA}\n"
#: argparse accepts unique prefixes of option names (vLLM warns-worthy, VC103); a JSON
#: Schema cannot express that, so these accepted files are flagged by any schema.
ABBREVIATED = {
    "real/recipes-docker-rocm-mistral-medium-3.5-enable-mm.yaml",
    "real/recipes-gpt-oss-120b-abbrev-disable-log-request.yaml",
    "real/recipes-qwen3-vl-235b-abbrev-tensor-parallel.yaml",
}

if not SERVER.exists() or shutil.which("node") is None:
    if os.environ.get("VLLM_CONFIG_REQUIRE_EDITORS") == "1":
        raise RuntimeError("yaml-language-server is not installed: cd benchmarks && npm ci")
    pytest.skip(
        "yaml-language-server not installed (cd benchmarks && npm ci)", allow_module_level=True
    )


@pytest.fixture(scope="module")
def yls() -> Iterator[RawClient]:
    client = RawClient(["node", str(SERVER), "--stdio"], options={})
    yield client
    client.process.kill()
    client.process.wait()


def _diagnostics(client: RawClient, name: str, text: str) -> list[dict[str, Any]]:
    uri = f"file:///yls-test/{name}.yaml"
    client.open(uri, MODELINE + text)
    published = client.wait(lambda: client.published.get(uri))
    diagnostics: list[dict[str, Any]] = published[-1]["diagnostics"]
    return diagnostics


def test_schema_level_mistakes_are_reported(yls: RawClient) -> None:
    text = (
        "model: m\ndtype: bfloat\ntensor-paralel-size: 2\n"
        "compilation-config:\n  mode: 3\n  levle: 1\n"
    )
    found = {
        (d["range"]["start"]["line"] - 1, d["message"].split(".")[0])
        for d in _diagnostics(yls, "bad", text)
    }
    assert (1, "Value is not accepted") in found
    assert (2, "Property tensor-paralel-size is not allowed") in found
    assert (5, "Property levle is not allowed") in found


def test_every_spelling_vllm_accepts_is_quiet(yls: RawClient) -> None:
    text = (
        "model: m\ndtype: bfloat16\ntensor_parallel_size: 2\n"
        "compilation-config: '{\"mode\": 3}'\ncompilation-config.cudagraph_mode: FULL\n"
        "max-model-len: 8k\nno-enable-prefix-caching: true\nlimit-mm-per-prompt: {image: 2}\n"
    )
    assert _diagnostics(yls, "good", text) == []


def test_accepted_corpus_files_are_quiet(yls: RawClient) -> None:
    rows = [
        json.loads(line) for line in (CORPUS / "verdicts-0.33.0.jsonl").read_text().splitlines()
    ]
    noisy = {}
    for index, row in enumerate(rows):
        if not row["ok"] or row["file"] in ABBREVIATED:
            continue
        text = (CORPUS / row["file"]).read_text(encoding="utf-8")
        found = _diagnostics(yls, f"corpus-{index}", text)
        if found:
            noisy[row["file"]] = [d["message"] for d in found]
    assert noisy == {}
