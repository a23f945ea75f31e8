"""Write the SchemaStore form of the newest release's `vllm serve --config` schema.

`schemas/vllm-serve-config.schema.json` is `schemas/vllm-<newest>.schema.json` without the
engine's `x-vllm` metadata, with a stable `$id` (its raw URL on the main branch), so that
SchemaStore's catalog and yaml-language-server users can point at one address that follows
the newest release; `schemas/schemastore-catalog-entry.json` is the entry to propose to
SchemaStore's `catalog.json` (its file-match suggestions).

    python tools/export_schemastore.py            # rewrite both files
    python tools/export_schemastore.py --check    # exit 1 when they are stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = REPO / "schemas"
STABLE = SCHEMAS / "vllm-serve-config.schema.json"
ENTRY = SCHEMAS / "schemastore-catalog-entry.json"
RAW = "https://raw.githubusercontent.com/vllm-config-lsp/vllm-config-lsp/main/schemas/"
FILE_MATCH = ["*.vllm.yaml", "*.vllm.yml", "vllm-config.yaml", "vllm-config.yml"]


def _newest() -> Path:
    def key(path: Path) -> tuple[int, ...]:
        version = path.name.removeprefix("vllm-").removesuffix(".schema.json")
        return tuple(int(part) for part in version.split(".") if part.isdigit())

    found = [p for p in SCHEMAS.glob("vllm-*.schema.json") if p != STABLE]
    return max(found, key=key)


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if not k.startswith("x-vllm")}
    if isinstance(value, list):
        return [_strip(item) for item in value]
    return value


def render() -> tuple[str, str]:
    source = _newest()
    schema = _strip(json.loads(source.read_text(encoding="utf-8")))
    version = source.name.removeprefix("vllm-").removesuffix(".schema.json")
    stable = {
        "$schema": schema.pop("$schema"),
        "$id": RAW + STABLE.name,
        "title": f"vLLM `vllm serve --config` file (vLLM {version})",
        "description": f"The YAML file `vllm serve --config FILE` reads, as vLLM {version} "
        "accepts it (generated from its wheel by vllm-config-lsp).",
        **{k: v for k, v in schema.items() if k not in ("title", "description")},
    }
    entry = {
        "name": "vLLM serve config",
        "description": "vLLM `vllm serve --config` YAML file",
        "fileMatch": FILE_MATCH,
        "url": RAW + STABLE.name,
    }
    as_text = json.dumps(stable, indent=1, ensure_ascii=False) + "\n"
    return as_text, json.dumps(entry, indent=2) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the files are stale")
    args = parser.parse_args()
    stable, entry = render()
    if args.check:
        fresh = STABLE.is_file() and STABLE.read_text(encoding="utf-8") == stable
        return 0 if fresh and ENTRY.is_file() and ENTRY.read_text() == entry else 1
    STABLE.write_text(stable, encoding="utf-8")
    ENTRY.write_text(entry)
    return 0


if __name__ == "__main__":
    sys.exit(main())
