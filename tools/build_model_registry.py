"""Regenerate schemas/models/registry.json: the config.json facts of the models people
deploy, for the model-aware checks and the memory budget when a model's files are not on
the machine.

    python tools/build_model_registry.py            # write the registry (offline)
    python tools/build_model_registry.py --check    # exit 1 if it is not up to date
    python tools/build_model_registry.py --coverage ../shared/corpus
    python tools/build_model_registry.py --refresh [--mirror /work/.mirror]
    python tools/build_model_registry.py --rank ../shared/corpus [--mirror /work/.mirror]
    python tools/build_model_registry.py --top      # the top list's coverage (offline)

The registry is generated offline from tools/model_registry_sources.json, which is
committed: for each Hub id, the fields of its config.json (every top-level key; of a
quantization or compression config only the keys the code names, since those may list
every quantized layer) and where they were read, `source` (repository, path, commit of a
public copy; `source_check` says how it was checked against another copy where one was
found), and where a public copy of the safetensors index gives it, `total_size` with
its own `total_size_source` (and `total_size_note`: why that copy is the Hub's); for a
ModelOpt checkpoint whose quantization sits in its own `hf_quant_config.json` (read by
vLLM where config.json has no quantization_config), that file's quantization keys as
`hf_quant_config` with `hf_quant_config_source`. Nothing is typed in by hand: an id
without a source is left out and listed in `unsourced` with why.

Only the keys the product reads reach the registry: every top-level key that is a string
literal in the model-aware code (vllm/model_files.py, vllm/memory_budget.py, rules/), a
superset of what the rules and the budget look up by name, with its whole value. So a rule
that starts reading a new key needs only a regeneration, not a new download.

`--refresh` re-reads the sources file's entries from local git snapshots of the cited
repositories (`<mirror>/<owner>+<name>/repo`, as the search tool's `fetch` lays them out;
any bare clone there works) at the cited commits, and adds the ids of its `snapshots`
folders (one `ORG--NAME<suffix>` file per id). An entry whose snapshot or commit is not
there is kept as it is. `--coverage CORPUS` counts the literal Hub ids of the shared
corpus (its deployments' invocations and its real `--config` files) the registry has (and
how many of those carry a sourced `total_size`, which the weights checks need), and lists
the others.

`--rank CORPUS` writes the sources file's `top` list: the TOP Hub ids most named in public
deployments, counted as the corpus's literal ids (as `--coverage` counts them) plus one for
each of vLLM's recipes (vllm-project/recipes `models/**/*.yaml`, read from its snapshot in
the mirror at its newest commit, which the list records) that names the id as its
`model_id` or a variant's; ties go to the id the deployments name more, then by name. The
list is committed, so `--top` reports offline how many of those ids the registry has and
why each other one is not there.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
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


#: Sub-configs of config.json whose own keys are kept only where the code names them (a
#: quantization config may list every quantized layer: megabytes nothing reads).
FILTERED = ("quantization_config", "compression_config")


def filtered(config: dict[str, Any], read: set[str]) -> dict[str, Any]:
    """`config` with the sub-configs of FILTERED (and ModelOpt's `quantization` in them)
    cut down to the keys the code names."""
    kept: dict[str, Any] = {}
    for key, value in config.items():
        if key in FILTERED and isinstance(value, dict):
            value = {k: v for k, v in value.items() if k in read}
            if isinstance(value.get("quantization"), dict):
                value["quantization"] = {
                    k: v for k, v in value["quantization"].items() if k in read
                }
        kept[key] = value
    return kept


def kept_keys(config: dict[str, Any], read: set[str]) -> dict[str, Any]:
    """The keys of `config` the code names, with their values."""
    return {k: v for k, v in filtered(config, read).items() if k in read}


def kept_quant(quant: dict[str, Any], read: set[str]) -> dict[str, Any]:
    """Of a ModelOpt `hf_quant_config.json` (which vLLM reads as config.json's
    quantization_config where that has none), what `filtered` keeps of a quantization_config."""
    kept: dict[str, Any] = filtered({"quantization_config": quant}, read)["quantization_config"]
    return kept


# --------------------------------------------------------------------------- offline build


def load_sources(path: Path = SOURCES) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def build(sources: dict[str, Any]) -> dict[str, Any]:
    """The registry the committed sources give, with no network and no snapshot."""
    read = literals()
    fields: set[str] = set()
    models: dict[str, Any] = {}
    for model_id, entry in sorted(sources["models"].items()):
        kept = kept_keys(entry["config"], read)
        fields.update(kept)
        out: dict[str, Any] = {"config": kept, "source": entry["source"]}
        if isinstance(entry.get("total_size"), int) and entry["total_size"] > 0:
            out["total_size"] = entry["total_size"]
            out["total_size_source"] = entry["total_size_source"]
        if isinstance(entry.get("hf_quant_config"), dict):
            out["hf_quant_config"] = kept_quant(entry["hf_quant_config"], read)
            out["hf_quant_config_source"] = entry["hf_quant_config_source"]
        models[model_id] = out
    return {
        "about": (
            "Generated by tools/build_model_registry.py from tools/model_registry_sources.json: "
            "the config.json keys vllm-config-lsp reads, for models whose files are not local. "
            "Each entry cites the public copy of its config.json (repository, path, commit)."
        ),
        "fields": sorted(fields),
        "unsourced": sorted(sources.get("unsourced", {})),
        "models": models,
    }


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- refresh


def git_dir(mirror: Path, repository: str) -> Path | None:
    folder = mirror / repository.replace("/", "+") / "repo"
    return folder if folder.is_dir() else None


def git(folder: Path, *args: str) -> str | None:
    done = subprocess.run(
        ["git", "--git-dir", str(folder), *args], capture_output=True, text=True, check=False
    )
    return done.stdout if done.returncode == 0 else None


def read_json(mirror: Path, cite: dict[str, str]) -> dict[str, Any] | None:
    """The JSON object at `cite` in its repository's snapshot, if the snapshot has it."""
    folder = git_dir(mirror, cite["repository"])
    text = git(folder, "show", f"{cite['commit']}:{cite['path']}") if folder else None
    data = json.loads(text) if text is not None else None
    return data if isinstance(data, dict) else None


def hub_id(file_name: str, suffix: str, exclude: tuple[str, ...] = ()) -> str | None:
    """`ORG--NAME_config.json` → `ORG/NAME` (Hub ids hold no `--`)."""
    stem = file_name.removesuffix(suffix)
    if file_name.endswith(exclude):
        return None
    if stem == file_name or stem.count("--") != 1:
        return None
    org, name = stem.split("--")
    return f"{org}/{name}" if org and name else None


def folder_entries(mirror: Path, folder: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Hub id → citation of each config file of a `snapshots` folder."""
    repository, commit = folder["repository"], folder["commit"]
    snapshot = git_dir(mirror, repository)
    names = git(snapshot, "ls-tree", "--name-only", commit, folder["folder"] + "/") or ""
    found: dict[str, dict[str, str]] = {}
    for path in sorted(names.split()):
        model_id = hub_id(path.rsplit("/", 1)[-1], folder["suffix"], tuple(folder["exclude"]))
        if model_id is not None:
            found[model_id] = {"repository": repository, "path": path, "commit": commit}
    return found


def refresh(sources: dict[str, Any], mirror: Path) -> list[str]:
    """Re-read every entry (and add each snapshot folder's ids) from `mirror`; the ids
    whose snapshot was not there."""
    read = literals()
    models: dict[str, Any] = sources["models"]
    for folder in sources["snapshots"]:
        for model_id, cite in folder_entries(mirror, folder).items():
            models.setdefault(model_id, {"source": cite})
            quant = folder.get("quant_suffix")
            if quant and models[model_id]["source"] == cite:
                sibling = {**cite, "path": cite["path"].removesuffix(folder["suffix"]) + quant}
                if read_json(mirror, sibling) is not None:
                    models[model_id]["hf_quant_config_source"] = sibling
    missing: list[str] = []
    for model_id, entry in sorted(models.items()):
        config = read_json(mirror, entry["source"])
        if config is None:
            if "config" not in entry:
                del models[model_id]
            missing.append(model_id)
            continue
        entry["config"] = filtered(config, read)
        quant_cite = entry.get("hf_quant_config_source")
        quant = read_json(mirror, quant_cite) if quant_cite else None
        if quant is not None:
            entry["hf_quant_config"] = kept_quant(quant, read)
        weights = entry.get("total_size_source")
        index = read_json(mirror, weights) if weights else None
        total = (index or {}).get("metadata", {}).get("total_size")
        if isinstance(total, int) and total > 0:
            entry["total_size"] = total
    return missing


# --------------------------------------------------------------------------- coverage

_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def corpus_ids(corpus: Path) -> dict[str, int]:
    """Literal Hub id → how often the corpus names it: the `model` of each invocation of
    deployments/invocations.jsonl and the `model:` of each real `--config` file."""
    import yaml

    counts: dict[str, int] = {}
    names: list[Any] = []
    for line in (corpus / "deployments" / "invocations.jsonl").read_text().splitlines():
        names.append(json.loads(line).get("model"))
    for path in sorted((corpus / "real").glob("*.y*ml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        names.append(data.get("model") if isinstance(data, dict) else None)
    for name in names:
        if isinstance(name, str) and _HUB_ID.match(name):
            counts[name] = counts.get(name, 0) + 1
    return counts


def coverage(registry: dict[str, Any], corpus: Path) -> str:
    counts = corpus_ids(corpus)
    misses = sorted((n for n in counts if n not in registry["models"]), key=lambda n: -counts[n])
    hit = len(counts) - len(misses)
    sized = sum(1 for n in counts if "total_size" in registry["models"].get(n, {}))
    unsourced = registry.get("unsourced_why", {})
    lines = [
        f"{hit} of {len(counts)} literal Hub ids ({100 * hit / max(len(counts), 1):.0f} %),"
        f" {sized} of them with a sourced total_size"
    ]
    lines += [f"  miss {counts[n]:3d}  {n}  {unsourced.get(n, '')}".rstrip() for n in misses]
    return "\n".join(lines)


# --------------------------------------------------------------------------- top list

#: How many of the most-named ids the registry is measured against (issue 29's goal).
TOP = 60
RECIPES = "vllm-project/recipes"


def model_ids(data: Any) -> list[str]:
    """Every `model_id` string of a recipe (its model's and each variant's)."""
    if isinstance(data, dict):
        found = [v for k, v in data.items() if k == "model_id" and isinstance(v, str)]
        return found + [i for k, v in data.items() if k != "model_id" for i in model_ids(v)]
    if isinstance(data, list):
        return [i for v in data for i in model_ids(v)]
    return []


def recipe_ids(mirror: Path) -> tuple[str, dict[str, int]]:
    """The recipes snapshot's newest commit, and Hub id → how many recipes name it."""
    import yaml

    folder = git_dir(mirror, RECIPES)
    commit = (git(folder, "rev-parse", "HEAD") or "").strip() if folder else ""
    if not folder or not commit:
        raise SystemExit(f"no snapshot of {RECIPES} under {mirror}")
    counts: dict[str, int] = {}
    for path in (git(folder, "ls-tree", "-r", "--name-only", commit, "models/") or "").split():
        if path.endswith((".yaml", ".yml")):
            recipe = yaml.safe_load(git(folder, "show", f"{commit}:{path}") or "")
            for name in set(model_ids(recipe)):
                if _HUB_ID.match(name):
                    counts[name] = counts.get(name, 0) + 1
    return commit, counts


def rank(corpus: Path, mirror: Path) -> dict[str, Any]:
    """The `top` list of the sources file: the TOP ids the corpus and the recipes name most."""
    deployed = corpus_ids(corpus)
    commit, recipes = recipe_ids(mirror)
    names = set(deployed) | set(recipes)
    order = sorted(
        names, key=lambda n: (-deployed.get(n, 0) - recipes.get(n, 0), -deployed.get(n, 0), n)
    )
    return {
        "counted": f"{corpus.name} deployments and real configs; {RECIPES} @ {commit}",
        "ids": [
            {"id": n, "deployments": deployed.get(n, 0), "recipes": recipes.get(n, 0)}
            for n in order[:TOP]
        ],
    }


def top_coverage(sources: dict[str, Any]) -> str:
    """How many of the committed `top` ids the registry has, and why each other is not."""
    ids = [entry["id"] for entry in sources["top"]["ids"]]
    misses = [n for n in ids if n not in sources["models"]]
    hit = len(ids) - len(misses)
    sized = sum(1 for n in ids if "total_size" in sources["models"].get(n, {}))
    lines = [
        f"{hit} of the {len(ids)} most-named Hub ids ({100 * hit / max(len(ids), 1):.0f} %),"
        f" {sized} of them with a sourced total_size"
    ]
    why = sources.get("unsourced", {})
    lines += [f"  miss {ids.index(n) + 1:3d}  {n}  {why.get(n, '')}".rstrip() for n in misses]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--refresh", action="store_true", help="re-read the sources' snapshots")
    parser.add_argument("--mirror", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--coverage", type=Path, metavar="CORPUS", help="the shared corpus")
    parser.add_argument("--rank", type=Path, metavar="CORPUS", help="write the top list")
    parser.add_argument("--top", action="store_true", help="the top list's coverage")
    parser.add_argument("--sources", type=Path, default=SOURCES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sources = load_sources(args.sources)
    if args.rank:
        sources["top"] = rank(args.rank, args.mirror)
        args.sources.write_text(render(sources), encoding="utf-8")
        print(top_coverage(sources))
        return 0
    if args.top:
        print(top_coverage(sources))
        return 0
    if args.refresh:
        missing = refresh(sources, args.mirror)
        args.sources.write_text(render(sources), encoding="utf-8")
        if missing:
            print(f"kept as they were (no snapshot of their source): {', '.join(missing)}")
    registry = build(sources)
    text = render(registry)
    if args.coverage:
        print(coverage({**registry, "unsourced_why": sources.get("unsourced", {})}, args.coverage))
        return 0
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
