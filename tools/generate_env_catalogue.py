#!/usr/bin/env python3
"""Generate `schemas/envs-<version>.json`: vLLM's environment variables of each catalogued
release, read from the wheel's `vllm/envs.py` with `ast` (vLLM is never imported), and
`docs/catalogue/envs.md` with its coverage line.

The wheels are the ones `tools/generate_schemas.py` reads (`pip download --no-deps`, cached
in ~/.cache/vllm-config-lsp/wheels). Every release with a `schemas/catalogue-*.json` gets
one file, so the two catalogues cover the same releases:

    python tools/generate_env_catalogue.py             # every catalogued release
    python tools/generate_env_catalogue.py --version 0.33.0 [--wheel PATH]

Each file has, per variable, its parse `kind` (see `vllm_source.environ`), `default`,
`choices`, `doc` (the comment above it in `envs.py`), `source`, `read_in` (modules that read
`envs.NAME`), and `since` (the oldest catalogued release that has it); `removed` lists the
variables of older releases this one no longer has, with the last release that had them
and what replaced them (`vllm_source.environ_replacements`); `validate_environ` is the
line that logs an unknown `VLLM_*` name, `read_all_at_start` whether the engine core's
`enable_envs_cache()` evaluates every getter on each start.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vllm_source.environ import environ_facts
from vllm_source.environ_replacements import REPLACEMENTS
from vllm_source.wheel import DEFAULT_CACHE, WheelSource, fetch_wheel

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = "tools/generate_env_catalogue.py"
DOC = ROOT / "docs" / "catalogue" / "envs.md"


def _key(version: str) -> tuple[int, ...]:
    import re

    return tuple(int(part) for part in re.findall(r"\d+", version))


def catalogued(out: Path) -> list[str]:
    found = [p.name[len("catalogue-") : -len(".json")] for p in out.glob("catalogue-*.json")]
    return sorted(found, key=_key)


def extract_all(
    versions: list[str], cache_dir: Path, wheels: dict[str, Path]
) -> dict[str, dict[str, Any]]:
    facts: dict[str, dict[str, Any]] = {}
    for version in versions:
        wheel = wheels.get(version) or fetch_wheel(version, cache_dir)
        facts[version] = {"version": version, **environ_facts(WheelSource(wheel))}
        print(f"{version}: {len(facts[version]['variables'])} variables", file=sys.stderr)
    return facts


def histories(facts: dict[str, dict[str, Any]]) -> dict[str, tuple[str, str]]:
    """name → (first release with it, last release with it), over the catalogued ones."""
    seen: dict[str, tuple[str, str]] = {}
    for version, fact in facts.items():  # oldest first
        for name in fact["variables"]:
            first = seen.get(name, (version, version))[0]
            seen[name] = (first, version)
    return seen


def documents(facts: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    history = histories(facts)
    versions = list(facts)
    out: dict[str, dict[str, Any]] = {}
    for at, version in enumerate(versions):
        fact = facts[version]
        variables = {
            name: {**entry, "since": history[name][0]} for name, entry in fact["variables"].items()
        }
        older = set().union(*(facts[v]["variables"] for v in versions[:at])) if at else set()
        removed: dict[str, Any] = {}
        for name in sorted(older - set(variables)):
            last = max((v for v in versions[:at] if name in facts[v]["variables"]), key=_key)
            entry = {"last": last, "kind": facts[last]["variables"][name]["kind"]}
            entry.update(_replacement(name, facts[last], version))
            removed[name] = {**entry, **REPLACEMENTS.get(name, {})}
        out[version] = {
            "version": version,
            "generator": GENERATOR,
            "validate_environ": fact.get("validate_environ"),
            "read_all_at_start": fact.get("read_all_at_start", False),
            "read_all_site": fact.get("read_all_site"),
            "variables": variables,
            "removed": removed,
        }
    return out


def _flags(version: str) -> set[str]:
    path = ROOT / "schemas" / f"catalogue-{version}.json"
    return set(json.loads(path.read_text(encoding="utf-8")).get("flags", {}))


def _replacement(name: str, last: dict[str, Any], version: str) -> dict[str, str]:
    """What the last release with the variable says replaced it: a config field it read
    the variable into (with a deprecation warning naming the field's flag). The flag is
    the field's own (`--attention-backend`) where `version` has one, else the dotted
    `--<class>-config.<field>`."""
    field = last.get("config_fields", {}).get(name)
    if field is None:
        return {}
    stem = field["class"].removesuffix("Config").lower()
    flags = _flags(version)
    own = f"{stem}-{field['field'].replace('_', '-')}"
    flag = f"--{own}" if own in flags else f"--{stem}-config.{field['field']}"
    if f"{stem}-config" not in flags and own not in flags:
        return {}
    return {
        "flag": flag,
        "note": f"read into {field['class']}.{field['field']} until {last['version']}",
        "source": f"{field['source']} in vLLM {last['version']} (deprecated in favour of "
        f"the config field)",
    }


def render_doc(docs: dict[str, dict[str, Any]]) -> str:
    versions = list(docs)
    kinds: dict[str, int] = {}
    latest = docs[versions[-1]]
    for entry in latest["variables"].values():
        kinds[entry["kind"]] = kinds.get(entry["kind"], 0) + 1
    judged = sum(n for k, n in kinds.items() if k != "computed")
    lines = [
        f"<!-- GENERATED by {GENERATOR} from the wheels' vllm/envs.py; do not edit. -->",
        "",
        "# vLLM's environment variables",
        "",
        f"{len(versions)} releases catalogued ({versions[0]} to {versions[-1]}); "
        f"{versions[-1]}: {len(latest['variables'])} variables, {judged} with a parse rule "
        f"the checks judge, {kinds.get('computed', 0)} computed (read, never judged).",
        "",
        "Generated into `schemas/envs-<version>.json` by "
        f"`python {GENERATOR}` (format in the tool's docstring). Parse kinds of "
        f"{versions[-1]}: "
        + ", ".join(f"`{k}` {n}" for k, n in sorted(kinds.items(), key=lambda x: -x[1]))
        + ".",
        "",
        "| release | variables | new | removed | `validate_environ` | every getter read at start |",
        "|---|---|---|---|---|---|",
    ]
    previous: set[str] = set()
    for version in versions:
        doc = docs[version]
        names = set(doc["variables"])
        new = len(names - previous) if previous else len(names)
        gone = len(previous - names)
        site = doc["validate_environ"] or "none"
        start = doc["read_all_site"] if doc["read_all_at_start"] else "no"
        lines.append(
            f"| {version} | {len(names)} | {new} | {gone} | `{site}` | "
            + (f"`{start}` |" if start != "no" else "no |")
        )
        previous = names
    lines += ["", "## Removed variables with a replacement", ""]
    lines += ["| variable | last release | replacement | source |", "|---|---|---|---|"]
    for name, entry in sorted(docs[versions[-1]]["removed"].items()):
        if "note" in entry:
            what = f"`{entry['flag']}`" if "flag" in entry else entry["note"]
            lines.append(f"| `{name}` | {entry['last']} | {what} | {entry['source']} |")
    return "\n".join(lines) + "\n"


def render(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--version", action="append", help="only this release (repeatable)")
    ap.add_argument("--wheel", type=Path, help="the wheel of the one --version given")
    ap.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE, help="wheel cache")
    ap.add_argument("--out", type=Path, default=ROOT / "schemas", help="output directory")
    args = ap.parse_args(argv)
    versions = catalogued(args.out)
    wheels = {}
    if args.wheel and args.version and len(args.version) == 1:
        wheels[args.version[0]] = args.wheel
    facts = extract_all(versions, args.cache_dir, wheels)
    docs = documents(facts)
    for version in args.version or versions:
        (args.out / f"envs-{version}.json").write_text(render(docs[version]), encoding="utf-8")
    DOC.write_text(render_doc(docs), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
