#!/usr/bin/env python3
"""Write docs/catalogue/vllm-warnings-0.33.0.json: vLLM's start-up warnings, classified.

Every `logger.warning`/`warning_once`/`warn`/`info_once` and `warnings.warn` call that
`vllm serve` can reach up to `create_engine_config()` is read from the wheel with `ast`
(`vllm_source.warning_sites`; vLLM is never imported): the config classes
(vllm/config/*.py), `vllm/engine/arg_utils.py`, the serve and API-server argument code, the
argparse utilities and the platforms' `check_and_update_config`. Each site gets its
judgement from `vllm_source.warning_classes` (kind, what happens to the setting, or why it
is not applicable); a site without one, or a judgement without its site, stops the run.

    python tools/generate_warning_catalogue.py [--wheel PATH] [--check]

`--check` compares with the committed file instead of writing it (tests run it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vllm_source.warning_classes import CLASSES, Applies
from vllm_source.warning_sites import WarningSite, warning_sites
from vllm_source.wheel import WheelSource, fetch_wheel

VERSION = "0.33.0"
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "catalogue" / f"vllm-warnings-{VERSION}.json"
#: What `vllm serve` runs before its engine starts (module file, or a folder's files).
WHOLE_FILES = (
    "vllm/config/",
    "vllm/engine/arg_utils.py",
    "vllm/entrypoints/common/cli_args.py",
    "vllm/entrypoints/openai/api_server.py",
    "vllm/entrypoints/cli/serve.py",
    "vllm/utils/argparse_utils.py",
)
#: Of the platforms, only the hook `VllmConfig.__post_init__` calls.
PLATFORMS = "vllm/platforms/"
PLATFORM_HOOKS = frozenset({"check_and_update_config"})


def sites(source: WheelSource) -> list[WarningSite]:
    found: list[WarningSite] = []
    for path in sorted(source.paths()):
        if any(
            path == f or (f.endswith("/") and path.startswith(f) and path.count("/") == 2)
            for f in WHOLE_FILES
        ):
            found += warning_sites(path, source.text(path))
        elif path.startswith(PLATFORMS) and path.count("/") == 2:
            found += warning_sites(path, source.text(path), PLATFORM_HOOKS)
    return found


def catalogue(found: list[WarningSite]) -> dict[str, Any]:
    keys = {f"{site.file}:{site.line}" for site in found}
    unjudged = sorted(keys - CLASSES.keys())
    stale = sorted(CLASSES.keys() - keys)
    if unjudged or stale:
        sys.exit(f"warning_classes.py is out of date: unjudged {unjudged}, without a site {stale}")
    applies, others = [], []
    for site in found:
        where = f"{site.file}:{site.line}"
        judged = CLASSES[where]
        common = {
            "source": where,
            "function": site.function,
            "call": site.call,
            "guards": list(site.guards),
            "message": site.message,
        }
        if isinstance(judged, Applies):
            applies.append(
                {
                    "id": "warn." + judged.id,
                    "kind": judged.kind,
                    "effect": judged.effect,
                    "settings": list(judged.settings),
                    "condition": judged.condition,
                    **common,
                }
            )
        else:
            others.append({"kind": judged.kind, "reason": judged.reason, **common})
    ids = [entry["id"] for entry in applies]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        sys.exit(f"warning ids used twice: {repeated}")
    return {
        "generated": "by tools/generate_warning_catalogue.py from the vLLM wheel; do not edit",
        "vllm_version": VERSION,
        "scope": [*WHOLE_FILES, PLATFORMS + "*.py: check_and_update_config"],
        "warnings": applies,
        "not_applicable": others,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--wheel", type=Path, help="the vllm-0.33.0 wheel (default: pip download, cached)"
    )
    parser.add_argument("--check", action="store_true", help="fail if the committed file differs")
    args = parser.parse_args(argv)
    source = WheelSource(args.wheel or fetch_wheel(VERSION))
    text = json.dumps(catalogue(sites(source)), indent=1) + "\n"
    if args.check:
        if OUT.read_text(encoding="utf-8") != text:
            print(
                f"{OUT} is stale: run python tools/generate_warning_catalogue.py", file=sys.stderr
            )
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
