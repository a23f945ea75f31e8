#!/usr/bin/env python3
"""Keeps the README's editor snippets identical to the files the editor tests run.

In README.md, between `<!-- editors:start -->` and `<!-- editors:end -->`, a line
`<!-- snippet: editors/PATH -->` is followed by a fenced code block holding that file.

    python editors/readme_snippets.py           # rewrite those blocks from the files
    python editors/readme_snippets.py --check   # exit 1 if one differs (tests/editors)
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
START, END = "<!-- editors:start -->", "<!-- editors:end -->"
BLOCK = re.compile(
    r"(?P<marker><!-- snippet: (?P<path>[^ ]+) -->\n)(?P<fence>```[\w-]*\n)"
    r"(?P<body>.*?)(?P<close>^```\n)",
    re.DOTALL | re.MULTILINE,
)


def section(text: str) -> tuple[int, int]:
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"README.md has no {START} … {END} section")
    return start, end


def snippets(text: str | None = None) -> dict[str, str]:
    """path → the README's copy, for every snippet block in the editors section."""
    text = README.read_text(encoding="utf-8") if text is None else text
    start, end = section(text)
    return {m["path"]: m["body"] for m in BLOCK.finditer(text, start, end)}


def rewrite(text: str) -> str:
    start, end = section(text)

    def replace(match: re.Match[str]) -> str:
        body = (ROOT / match["path"]).read_text(encoding="utf-8")
        return match["marker"] + match["fence"] + body + match["close"]

    return text[:start] + BLOCK.sub(replace, text[start:end]) + text[end:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = README.read_text(encoding="utf-8")
    new = rewrite(text)
    if args.check:
        stale = [
            p
            for p, body in snippets(text).items()
            if body != (ROOT / p).read_text(encoding="utf-8")
        ]
        for path in stale:
            print(f"README.md: the snippet of {path} differs from the file", file=sys.stderr)
        return 1 if stale else 0
    if new != text:
        README.write_text(new, encoding="utf-8")
        print("README.md: snippets updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
