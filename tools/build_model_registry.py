"""Regenerate schemas/models/registry.json: the config.json facts of the models people
deploy, for the model-aware checks and the memory budget when a model's files are not on
the machine.

    python tools/build_model_registry.py [--mirror /work/.mirror] [--check]

Every entry comes from a public copy of the model's config.json named in
tools/model_registry_sources.json (repository, path, commit), read from a local git
snapshot of that repository (`<mirror>/<owner>+<name>/repo`, as the search tool's `fetch`
lays them out; any bare clone there works). Nothing is typed in by hand: an id without a
source is left out. Weight bytes come from a safetensors index (`metadata.total_size`) the
sources name, the same way.

Only the config.json keys the product reads are kept: every top-level key of a source
config that is a string literal in the model-aware code (vllm/model_files.py,
vllm/memory_budget.py, rules/) — a superset of what the rules and the budget look up by
name — with its whole value. `--check` exits 1 when the registry on disk differs from what
the sources and the code give now.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "server" / "vllm_config_lsp"
SOURCES = REPO / "tools" / "model_registry_sources.json"
OUTPUT = REPO / "schemas" / "models" / "registry.json"
#: The code whose string literals say which config.json keys are read.
READERS = ("vllm/model_files.py", "vllm/memory_budget.py", "rules")


def literals() -> set[str]:
    """Every string constant of the model-aware code."""
    found: set[str] = set()
    for part in READERS:
        path = PACKAGE / part
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            tree = ast.parse(file.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.add(node.value)
    return found


def git_dir(mirror: Path, repository: str) -> Path:
    folder = mirror / repository.replace("/", "+") / "repo"
    if not folder.is_dir():
        raise SystemExit(
            f"no snapshot of {repository} at {folder}: fetch it (search tool `fetch "
            f"github:{repository}`) or clone it there (`git clone --bare`)"
        )
    return folder


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "--git-dir", str(folder), *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} in {folder}: {done.stderr.strip()}")
    return done.stdout


def read_source(mirror: Path, repository: str, commit: str, path: str) -> dict[str, Any]:
    data = json.loads(git(git_dir(mirror, repository), "show", f"{commit}:{path}"))
    if not isinstance(data, dict):
        raise SystemExit(f"{repository}@{commit}:{path} is not a JSON object")
    return data


#: Sub-configs of config.json whose own keys are kept only where the code names them (a
#: quantization config may list every quantized layer: megabytes nothing reads).
FILTERED = ("quantization_config", "compression_config")


def kept_keys(config: dict[str, Any], read: set[str]) -> dict[str, Any]:
    """The keys of `config` the code names, with their values (those of FILTERED, and
    ModelOpt's `quantization` in them, with their named keys only)."""
    kept: dict[str, Any] = {}
    for key, value in config.items():
        if key not in read:
            continue
        if key in FILTERED and isinstance(value, dict):
            value = {k: v for k, v in value.items() if k in read}
            if isinstance(value.get("quantization"), dict):
                value["quantization"] = {
                    k: v for k, v in value["quantization"].items() if k in read
                }
        kept[key] = value
    return kept


def hub_id(file_name: str, suffix: str, exclude: tuple[str, ...] = ()) -> str | None:
    """`ORG--NAME_config.json` → `ORG/NAME` (Hub ids hold no `--`)."""
    stem = file_name.removesuffix(suffix)
    if file_name.endswith(exclude):
        return None
    if stem == file_name or stem.count("--") != 1:
        return None
    org, name = stem.split("--")
    return f"{org}/{name}" if org and name else None


def build(mirror: Path) -> dict[str, Any]:
    sources = json.loads(SOURCES.read_text(encoding="utf-8"))
    read = literals()
    found: dict[str, tuple[dict[str, Any], dict[str, str]]] = {}
    for folder in sources["folders"]:
        repository, commit = folder["repository"], folder["commit"]
        names = git(
            git_dir(mirror, repository), "ls-tree", "--name-only", commit, folder["folder"] + "/"
        )
        for path in sorted(names.split()):
            exclude = tuple(folder.get("exclude", ()))
            model_id = hub_id(path.rsplit("/", 1)[-1], folder["suffix"], exclude)
            if model_id is None:
                continue
            config = read_source(mirror, repository, commit, path)
            found[model_id] = (config, {"repository": repository, "path": path, "commit": commit})
    for entry in sources["files"]:
        config = read_source(mirror, entry["repository"], entry["commit"], entry["path"])
        cite = {k: entry[k] for k in ("repository", "path", "commit")}
        found[entry["id"]] = (config, cite)
    fields: set[str] = set()
    models: dict[str, Any] = {}
    for model_id, (config, cite) in sorted(found.items()):
        kept = kept_keys(config, read)
        fields.update(kept)
        models[model_id] = {"config": kept, "source": cite}
    for entry in sources["weights"]:
        index = read_source(mirror, entry["repository"], entry["commit"], entry["path"])
        total = (index.get("metadata") or {}).get("total_size")
        if entry["id"] in models and isinstance(total, int) and total > 0:
            models[entry["id"]]["total_size"] = total
            models[entry["id"]]["total_size_source"] = {
                k: entry[k] for k in ("repository", "path", "commit")
            }
    return {
        "about": (
            "Generated by tools/build_model_registry.py from tools/model_registry_sources.json: "
            "the config.json keys vllm-config-lsp reads, for models whose files are not local. "
            "Each entry cites the public copy of its config.json (repository, path, commit)."
        ),
        "fields": sorted(fields),
        "unsourced": sorted(sources.get("unsourced", [])),
        "models": models,
    }


def render(registry: dict[str, Any]) -> str:
    return json.dumps(registry, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    registry = build(args.mirror)
    text = render(registry)
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.is_file() else ""
        if current != text:
            print(f"{OUTPUT} is not what the sources give: run {Path(__file__).name}")
            return 1
        return 0
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"{OUTPUT.relative_to(REPO)}: {len(registry['models'])} models")
    return 0


if __name__ == "__main__":
    sys.exit(main())
