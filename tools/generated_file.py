"""The command line of a generator of one committed file: write it, or `--check` it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_or_check(target: Path, render: Callable[[], str], command: str, about: str) -> int:
    """`command` (what regenerates `target`) is named when `--check` finds it stale."""
    parser = argparse.ArgumentParser(description=about)
    parser.add_argument("--check", action="store_true", help=f"exit 1 if {target.name} is stale")
    args = parser.parse_args()
    text = render()
    shown = target.relative_to(ROOT)
    if args.check:
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            print(f"{shown} is stale: run `{command}`", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {shown}")
    return 0
