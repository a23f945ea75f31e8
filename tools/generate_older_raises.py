#!/usr/bin/env python3
"""List the refusals of older vLLM releases that 0.33.0 no longer has, from their wheels.

For every catalogued release, the `raise` statements of its config classes' checks
(`__post_init__`, `_verify_*`/`verify_*`, `_validate*`/`validate*`, `_check_*`, pydantic
validators) in `vllm/config*` and `vllm/engine/arg_utils.py` are read with `ast` (the same
reading as `vllm_source.check_sites`). A refusal is *gone* when no raise of 0.33.0's config
code says the same words. Each gone refusal is listed once, with the releases that have it
(their own `file:line`), its function and message, and the rule that transcribes it (a rule
whose `checks` in that release's catalogue cite the site) or the reason none does
(`docs/catalogue/not-implemented/older-raises.json`).

    python tools/generate_older_raises.py [--out docs/catalogue/older-raises.json]

Wheels come from the cache `tools/generate_schemas.py` fills (`pip download --no-deps
vllm==X`); vLLM is never imported.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from vllm_source.check_sites import Found, _found, _scopes, _walk
from vllm_source.wheel import DEFAULT_CACHE, WheelSource, fetch_wheel

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = "0.33.0"
OUT = ROOT / "docs" / "catalogue" / "older-raises.json"
REASONS = ROOT / "docs" / "catalogue" / "not-implemented" / "older-raises.json"
#: The functions whose raises are a config's checks.
CHECKER = re.compile(
    r"(^|\.)(__post_init__|_?verify\w*|_?validate\w*|_?check\w*|create_engine_config)$"
)


def _files(src: WheelSource) -> list[str]:
    return [
        path
        for path in src.paths()
        if path.startswith("vllm/config") or path == "vllm/engine/arg_utils.py"
    ]


def raises(src: WheelSource, every: bool = False) -> list[tuple[str, Found]]:
    """(file, check) of each raise with a message in the checks of a release's config code
    (`every`: in any function of that code)."""
    out = []
    for path in _files(src):
        tree = ast.parse(src.text(path), filename=path)
        for qualname, body in _scopes(tree.body):
            if not every and not CHECKER.search(qualname):
                continue
            for where, stmt in _walk(body):
                if isinstance(stmt, ast.Raise):
                    found = _found(qualname, where, stmt)
                    if found.words:
                        out.append((path, found))
    return out


def versions() -> list[str]:
    """The catalogued releases, oldest first."""
    names = [
        p.name[len("catalogue-") : -len(".json")]
        for p in (ROOT / "schemas").glob("catalogue-*.json")
    ]
    return sorted(names, key=lambda v: [int(n) for n in re.findall(r"\d+", v)])


def _key(found: Found) -> str:
    return " ".join(found.words)


def covered_by(version: str) -> dict[str, str]:
    """Site of that release → the rules whose checks cite it there."""
    data = json.loads((ROOT / "schemas" / f"catalogue-{version}.json").read_text("utf-8"))
    out: dict[str, str] = {}
    for code, sites in (data.get("checks") or {}).items():
        for entry in sites.values():
            out.setdefault(entry["source"], code)
    return out


def gone(cache: Path) -> list[dict[str, Any]]:
    reference = {_key(f) for _, f in raises(WheelSource(fetch_wheel(REFERENCE, cache)), True)}
    reasons = json.loads(REASONS.read_text("utf-8")) if REASONS.exists() else {}
    table: dict[tuple[str, str], dict[str, Any]] = {}
    for version in versions():
        if version == REFERENCE:
            continue
        rules = covered_by(version)
        for path, found in raises(WheelSource(fetch_wheel(version, cache))):
            if _key(found) in reference:
                continue
            short = found.qualname.rsplit(".", 1)[-1]
            row = table.setdefault(
                (short, _key(found)),
                {"function": found.qualname, "message": found.message, "releases": {}},
            )
            site = f"{path}:{found.line}"
            row["releases"][version] = site
            if site in rules:
                row.setdefault("rules", set()).add(rules[site])
    out = []
    for row in table.values():
        newest = list(row["releases"].values())[-1]
        newest_version = list(row["releases"])[-1]
        rules = sorted(row.pop("rules", ()))
        out.append(
            {
                "id": f"{newest_version}:{newest}",
                **row,
                "status": ", ".join(rules) if rules else reasons.get(f"{newest_version}:{newest}"),
            }
        )
    return sorted(out, key=lambda r: r["id"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE)
    args = ap.parse_args(argv)
    rows = gone(args.cache_dir)
    doc = {
        "generated": "tools/generate_older_raises.py",
        "reference": REFERENCE,
        "scope": "raise statements of vllm/config* and vllm/engine/arg_utils.py in functions "
        "matching " + CHECKER.pattern,
        "refusals": rows,
    }
    args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    done = sum(1 for r in rows if r["status"])
    print(
        f"{len(rows)} refusals gone from {REFERENCE}; {done} with a rule or a reason",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
