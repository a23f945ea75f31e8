"""Write schemas/vllm-<version>.platform.json: what a release's platform checks compare
against the GPU, read from its wheel with `ast` (never imported).

`quantization_min_capability`: for each `--quantization` method of `get_quantization_config`
(vllm/model_executor/layers/quantization/__init__.py), the integer its config class's
`get_min_capability()` returns, which `VllmConfig._get_quantization_config` compares with
the GPU's (vllm/config/vllm.py). A method whose class computes it (no literal `return N`)
is left out: unknown, never guessed.

Run: python tools/generate_platform_tables.py --version 0.33.0 [--wheel PATH]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHEELS = Path.home() / ".cache" / "vllm-config-lsp" / "wheels"
QUANT = "vllm/model_executor/layers/quantization/"


def _wheel(version: str, given: Path | None) -> Path:
    if given is not None:
        return given
    found = sorted(WHEELS.glob(f"vllm-{version}-*.whl"))
    if not found:
        raise SystemExit(f"no wheel for {version} in {WHEELS} (pip download --no-deps vllm==…)")
    return found[0]


def _classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def _literal_min_capability(cls: ast.ClassDef) -> int | bool | None:
    """The `return N` of `get_min_capability`; False when the class does not define it."""
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and node.name == "get_min_capability":
            returns = [n for n in ast.walk(node) if isinstance(n, ast.Return)]
            values = [r.value for r in returns]
            if len(values) == 1 and isinstance(values[0], ast.Constant):
                value = values[0].value
                return value if isinstance(value, int) else None
            return None
    return False


def _min_capability(archive: zipfile.ZipFile, module: str, name: str, depth: int = 0) -> int | None:
    """Follow the class (and its bases in the same module or imported ones) to a literal."""
    if depth > 5:
        return None
    path = module.replace(".", "/") + ".py"
    try:
        tree = ast.parse(archive.read(path))
    except KeyError:
        return None
    cls = _classes(tree).get(name)
    if cls is None:
        return None
    found = _literal_min_capability(cls)
    if found is not False:
        return found if isinstance(found, int) else None
    imports = _imports(tree, module)
    for base in cls.bases:
        if isinstance(base, ast.Name):
            where = imports.get(base.id, (module, base.id))
            result = _min_capability(archive, where[0], where[1], depth + 1)
            if result is not None:
                return result
    return None


def _imports(tree: ast.AST, module: str) -> dict[str, tuple[str, str]]:
    """`from .x import Y` (anywhere, function bodies included) → {Y: (module, Y)}."""
    package = module.rsplit(".", 1)[0]
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            base = node.module
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{node.module}"
            for alias in node.names:
                found[alias.asname or alias.name] = (base, alias.name)
    return found


def quantization_table(archive: zipfile.ZipFile) -> dict[str, int]:
    module = QUANT.rstrip("/").replace("/", ".")
    tree = ast.parse(archive.read(QUANT + "__init__.py"))
    imports = _imports(tree, module + ".__init__")
    table: dict[str, int] = {}
    for node in ast.walk(tree):
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if not (isinstance(target, ast.Name) and target.id == "method_to_config"):
            continue
        assert isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Dict)
        for key, value in zip(node.value.keys, node.value.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(value, ast.Name):
                where = imports.get(value.id)
                if where is None:
                    continue
                capability = _min_capability(archive, *where)
                if capability is not None:
                    table[str(key.value)] = capability
    return dict(sorted(table.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--version", required=True)
    parser.add_argument("--wheel", type=Path, default=None)
    args = parser.parse_args(argv)
    with zipfile.ZipFile(_wheel(args.version, args.wheel)) as archive:
        data = {
            "version": args.version,
            "generated_by": "tools/generate_platform_tables.py",
            "quantization_min_capability": quantization_table(archive),
        }
    out = ROOT / "schemas" / f"vllm-{args.version}.platform.json"
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(data['quantization_min_capability'])} methods)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
