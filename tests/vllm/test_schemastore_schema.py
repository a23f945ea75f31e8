"""The SchemaStore form of the newest release's `--config` schema
(`schemas/vllm-serve-config.schema.json`, written by `tools/export_schemastore.py`): fresh,
at a stable `$id`, with its file-match suggestions, valid JSON Schema 2020-12, and agreeing
with `check` on the bundled examples (an example `check` finds no error in validates)."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import yaml
from support import REPO, cli

STABLE = REPO / "schemas" / "vllm-serve-config.schema.json"
ENTRY = REPO / "schemas" / "schemastore-catalog-entry.json"


def test_the_stable_schema_is_fresh_and_addressed() -> None:
    fresh = subprocess.run(
        [sys.executable, str(REPO / "tools" / "export_schemastore.py"), "--check"], check=False
    )
    assert fresh.returncode == 0, "stale: run python tools/export_schemastore.py"
    schema = json.loads(STABLE.read_text())
    assert schema["$id"].endswith("/schemas/vllm-serve-config.schema.json")
    assert schema["$id"].startswith("https://")
    assert "x-vllm" not in STABLE.read_text()
    entry = json.loads(ENTRY.read_text())
    assert entry["url"] == schema["$id"]
    assert {"*.vllm.yaml", "vllm-config.yaml"} <= set(entry["fileMatch"])
    jsonschema.Draft202012Validator.check_schema(schema)


def test_the_bundled_examples_validate() -> None:
    validator = jsonschema.Draft202012Validator(json.loads(STABLE.read_text()))
    examples = sorted((REPO / "examples").glob("*.vllm.yaml"))
    assert examples
    valid = 0
    for example in examples:
        errors = list(validator.iter_errors(yaml.safe_load(example.read_text())))
        report = json.loads(cli("check", "--format", "json", str(example)).stdout)
        refused = any(row["severity"] == "error" for row in report)
        if not refused:  # vLLM starts with it: the schema must accept it too
            assert not errors, (example.name, [e.message for e in errors[:3]])
            valid += 1
        if errors:  # what the schema refuses, check refuses too
            assert refused, (example.name, [e.message for e in errors[:3]])
    assert valid >= 1
    llama = yaml.safe_load((REPO / "examples" / "llama-3.1-8b-serve.vllm.yaml").read_text())
    assert not list(validator.iter_errors(llama))
    assert list(validator.iter_errors({**llama, "max-num-seqs": "lots"}))
