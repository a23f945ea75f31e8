"""Write schemas/flag-history.json: when each flag and config field existed (and what vLLM
said deprecating it), read from every release's catalogue, so a check does not read all of
them (`vllm.flag_history`). Run after adding or regenerating a catalogue:

    python tools/generate_flag_history.py          # rewrite it
    python tools/generate_flag_history.py --check  # exit 1 if the committed one is stale

A file that names other releases than the catalogues present is not used (the timeline is
read from the catalogues then); tests/vllm/test_flag_history_file.py fails when it is stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))

from generated_file import write_or_check  # noqa: E402
from vllm_config_lsp.vllm.flag_history import HISTORY_FILE, history_data  # noqa: E402

TARGET = ROOT / "schemas" / HISTORY_FILE
COMMAND = "python tools/generate_flag_history.py"


def render() -> str:
    return json.dumps(history_data(), ensure_ascii=False, separators=(",", ":")) + "\n"


def main() -> int:
    return write_or_check(TARGET, render, COMMAND, __doc__.splitlines()[0])


if __name__ == "__main__":
    raise SystemExit(main())
