"""Write schemas/prebuilt-catalogue.json: the newest release's catalogue joined with its
shared definitions, which `vllm.catalogue` reads instead of parsing every release's
definitions at the first check. Run after regenerating the catalogues:

    python tools/generate_prebuilt_catalogue.py          # rewrite it
    python tools/generate_prebuilt_catalogue.py --check  # exit 1 if the committed one is stale

A file joined from other inputs (their sizes differ) is not used; tests/vllm/
test_prebuilt_catalogue.py fails when it is stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))

from generated_file import write_or_check  # noqa: E402
from vllm_config_lsp.vllm.catalogue import (  # noqa: E402
    DEFAULT_VERSION,
    PREBUILT_FILE,
    joined,
    prebuilt_inputs,
)

TARGET = ROOT / "schemas" / PREBUILT_FILE
COMMAND = "python tools/generate_prebuilt_catalogue.py"


def render() -> str:
    built = {
        "version": DEFAULT_VERSION,
        "inputs": prebuilt_inputs(DEFAULT_VERSION),
        "x-vllm": joined(DEFAULT_VERSION),
    }
    return json.dumps(built, ensure_ascii=False, separators=(",", ":")) + "\n"


def main() -> int:
    return write_or_check(TARGET, render, COMMAND, __doc__.splitlines()[0])


if __name__ == "__main__":
    raise SystemExit(main())
