"""Generate ``schemas/vllm-<version>.models.json``: vLLM's model architecture registry.

Model-aware rules need to know, for the architecture named in a checkpoint's config.json,
what vLLM's model class declares: multimodal, pipeline parallel, LoRA, HC-SP, ReplaySSM,
hybrid/attention-free. vLLM answers that at run time by importing the class
(vllm/model_executor/models/registry.py `_ModelInfo.from_model_cls`); here the same flags
are read from the wheel's source with ``ast``, never importing vLLM: the registry's
architecture → (module, class) tables, then each class's bases followed through the
package's imports, in C3 method resolution order, up to the interface protocols
(`SupportsPP` sets `supports_pp = True`…) and any class-level override
(`supports_pp = False`). Pipeline parallelism also needs the class's `forward` to accept
`intermediate_tensors` (interfaces.py `_supports_pp_inspect`), read from the first
`forward` in that order. A class whose bases cannot all be followed inside vLLM gets
``"resolved": false`` and the rules treat its flags as unknown. Checked against the real
registry in the oracle's venv: 556 flag values of 89 importable sampled classes, all equal.

    python tools/generate_model_registry.py --version 0.33.0 [--wheel PATH] [--out schemas/]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_source.wheel import DEFAULT_CACHE, WheelSource, fetch_wheel

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = "vllm.model_executor.models.registry"
PACKAGE = "vllm.model_executor.models"
#: registry.py tables → the role an architecture has in vLLM.
TABLES = {
    "_TEXT_GENERATION_MODELS": "generate",
    "_EMBEDDING_MODELS": "embedding",
    "_LATE_INTERACTION_MODELS": "late_interaction",
    "_REWARD_MODELS": "reward",
    "_TOKEN_CLASSIFICATION_MODELS": "token_classification",
    "_SEQUENCE_CLASSIFICATION_MODELS": "sequence_classification",
    "_MULTIMODAL_MODELS": "multimodal",
    "_SPECULATIVE_DECODING_MODELS": "speculative",
    "_TRANSFORMERS_SUPPORTED_MODELS": "transformers",
    "_TRANSFORMERS_BACKEND_MODELS": "transformers_backend",
}
#: Class attributes the interface protocols set (interfaces.py, interfaces_base.py).
FLAGS = (
    "supports_multimodal",
    "supports_pp",
    "supports_lora",
    "supports_hc_sp",
    "supports_replayssm",
    "is_hybrid",
    "is_attention_free",
    "has_inner_state",
    "is_pooling_model",
    "supports_transcription",
)
#: Methods `is_vllm_model`/`is_text_generation_model` look for (interfaces_base.py:108-147).
VLLM_MODEL_METHODS = ("__init__", "embed_input_ids", "forward", "compute_logits")
#: Bases outside vLLM that contribute none of the flags.
NEUTRAL = {"Module", "nn.Module", "Protocol", "Generic", "object", "ABC"}


class Classes:
    """Class definitions and imported names of vLLM modules, looked up lazily."""

    def __init__(self, source: WheelSource) -> None:
        self.source = source

    def find(self, module: str, name: str, depth: int = 0) -> tuple[str, ast.ClassDef] | None:
        """The ClassDef `name` refers to in `module`, following imports and aliases."""
        tree = self.source.tree(module)
        if tree is None or depth > 8:
            return None
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                return module, node
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Name)
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            ):
                return self.find(module, node.value.id, depth + 1)
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        target = self._absolute(module, node)
                        if target is not None:
                            return self.find(target, alias.name, depth + 1)
        return None

    def _absolute(self, module: str, node: ast.ImportFrom) -> str | None:
        if node.level == 0:
            return node.module if (node.module or "").startswith("vllm") else None
        parts = module.split(".")
        if not self.source.is_package(module):
            parts = parts[:-1]
        base = parts[: len(parts) - (node.level - 1)]
        return ".".join([*base, node.module] if node.module else base)


def _flag_value(node: ast.stmt) -> tuple[str, bool] | None:
    """`flag = True/False` or `flag: ClassVar[...] = True/False` in a class body."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target, value = node.targets[0], node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        target, value = node.target, node.value
    else:
        return None
    if (
        isinstance(target, ast.Name)
        and target.id in FLAGS
        and isinstance(value, ast.Constant)
        and isinstance(value.value, bool)
    ):
        return target.id, value.value
    return None


def _base_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return ast.unparse(node)
    if isinstance(node, ast.Subscript):  # Generic[T], SupportsX[...]
        return _base_name(node.value)
    return None


def _accepts(function: ast.FunctionDef | ast.AsyncFunctionDef, keyword: str) -> bool:
    """`supports_kw`: a parameter of that name, or `**kwargs`."""
    args = function.args
    names = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    return keyword in names or args.kwarg is not None


Key = tuple[str, str]


class Hierarchy:
    """C3 method resolution orders of vLLM classes, as far as `ast` can follow the bases
    (`torch`/`transformers`/typing bases contribute nothing and are left out)."""

    def __init__(self, classes: Classes) -> None:
        self.classes = classes
        self.nodes: dict[Key, ast.ClassDef] = {}
        self.unresolved: set[Key] = set()
        self._mro: dict[Key, list[Key]] = {}

    def mro(self, module: str, name: str) -> list[Key] | None:
        found = self.classes.find(module, name)
        if found is None:
            return None
        key = (found[0], found[1].name)
        if key not in self._mro:
            self.nodes[key] = found[1]
            self._mro[key] = []  # guards against cycles
            self._mro[key] = [key, *self._merge(key, found[1])]
        return self._mro[key]

    def _merge(self, key: Key, node: ast.ClassDef) -> list[Key]:
        parents: list[list[Key]] = []
        for base in node.bases:
            base_name = _base_name(base)
            if base_name in NEUTRAL or (base_name or "").startswith(
                ("nn.", "torch.", "transformers.")
            ):
                continue
            if base_name is None or "." in base_name:
                self.unresolved.add(key)
                continue
            parent = self.mro(key[0], base_name)
            if parent is None:
                self.unresolved.add(key)
                continue
            parents.append(list(parent))
        sequences = [*parents, [p[0] for p in parents]]
        out: list[Key] = []
        while any(sequences):
            sequences = [seq for seq in sequences if seq]
            head = next(
                (seq[0] for seq in sequences if not any(seq[0] in s[1:] for s in sequences)),
                None,
            )
            if head is None:  # inconsistent order: Python would refuse the class anyway
                self.unresolved.add(key)
                return out
            out.append(head)
            sequences = [[k for k in seq if k != head] for seq in sequences]
        return out


def _string_tuple(node: ast.stmt, name: str) -> tuple[str, ...] | None:
    """`name = ("a", "b")` (or annotated) in a class body: the literal tuple of strings."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target, value = node.targets[0], node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        target, value = node.target, node.value
    else:
        return None
    if not (isinstance(target, ast.Name) and target.id == name):
        return None
    try:
        literal = ast.literal_eval(value)
    except ValueError:
        return None
    if isinstance(literal, (tuple, list)) and all(isinstance(v, str) for v in literal):
        return tuple(literal)
    return None


def _defines(node: ast.stmt, name: str) -> bool:
    """A method `name` (or a class attribute of that name) in a class body."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return node.name == name
    targets = node.targets if isinstance(node, ast.Assign) else []
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        targets = [node.target]
    return any(isinstance(t, ast.Name) and t.id == name for t in targets)


def inspect(hierarchy: Hierarchy, module: str, name: str) -> dict[str, Any]:
    """Flags of one class: the first definition along its method resolution order, as
    `getattr(cls, flag)` finds it. `is_text_generation_model` is interfaces_base.py's test
    (a vLLM model class, with `embed_input_ids` and `forward`, and a callable
    `compute_logits`); `supported_video_pruning_methods` is the class's tuple
    (`SupportsMultiModalPruning` gives `("evs",)`, model.py:884 compares against it)."""
    order = hierarchy.mro(module, name)
    flags: dict[str, bool] = {}
    forward: bool | None = None  # does the `forward` Python finds take intermediate_tensors?
    defined: set[str] = set()
    pruning: tuple[str, ...] | None = None
    for key in order or ():
        for stmt in hierarchy.nodes[key].body:
            flag = _flag_value(stmt)
            if flag is not None:
                flags.setdefault(*flag)
            defined.update(m for m in VLLM_MODEL_METHODS if _defines(stmt, m))
            if pruning is None:
                pruning = _string_tuple(stmt, "supported_video_pruning_methods")
            if (
                isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                and stmt.name == "forward"
                and forward is None
            ):
                forward = _accepts(stmt, "intermediate_tensors")
    out: dict[str, Any] = {flag: flags.get(flag, False) for flag in FLAGS}
    out["supports_pp"] = out["supports_pp"] and bool(forward)
    # `is_vllm_model` (interfaces_base.py:108): __init__, embed_input_ids and forward
    vllm_model = {"__init__", "embed_input_ids", "forward"} <= defined
    out["is_pooling_model"] = out["is_pooling_model"] and vllm_model
    out["is_text_generation_model"] = vllm_model and "compute_logits" in defined
    out["supported_video_pruning_methods"] = list(pruning or ())
    out["resolved"] = order is not None and not any(k in hierarchy.unresolved for k in order)
    return out


def registry_tables(source: WheelSource) -> dict[str, tuple[str, str, list[str]]]:
    """architecture → (module, class, roles) from registry.py's literal dicts."""
    tree = source.tree(REGISTRY)
    if tree is None:
        raise SystemExit(f"{REGISTRY} not found in the wheel")
    out: dict[str, tuple[str, str, list[str]]] = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)):
            continue
        role = TABLES.get(node.targets[0].id)
        if role is None or not isinstance(node.value, ast.Dict):
            continue
        for key, value in zip(node.value.keys, node.value.values, strict=True):
            if not isinstance(key, ast.Constant) or not isinstance(value, ast.Tuple):
                continue
            if not isinstance(key.value, str):
                continue
            module, cls = (str(ast.literal_eval(v)) for v in value.elts[:2])
            module = module if module.startswith("vllm.") else f"{PACKAGE}.{module}"
            previous = out.get(key.value)
            roles = [*(previous[2] if previous else []), role]
            out[key.value] = (module, cls, roles)
    return out


SPECULATIVE = "vllm.config.speculative"


def draft_rewrites(source: WheelSource) -> list[str]:
    """Model types `SpeculativeConfig.hf_config_override` looks at: a draft checkpoint of
    one of these types is rewritten (mostly into an MTP head) before its method is decided,
    so draft-only checks must not judge it as a plain `draft_model`."""
    for node in ast.walk(source.tree(SPECULATIVE)):
        if isinstance(node, ast.FunctionDef) and node.name == "hf_config_override":
            found: set[str] = set()
            for compare in ast.walk(node):
                if isinstance(compare, ast.Compare) and "model_type" in ast.unparse(compare.left):
                    for constant in (c for part in compare.comparators for c in ast.walk(part)):
                        if isinstance(constant, ast.Constant) and isinstance(constant.value, str):
                            found.add(constant.value)
            return sorted(found)
    return []


def build(version: str, source: WheelSource) -> dict[str, Any]:
    hierarchy = Hierarchy(Classes(source))
    architectures: dict[str, Any] = {}
    for arch, (module, cls, roles) in sorted(registry_tables(source).items()):
        entry: dict[str, Any] = {"module": module, "class": cls, "roles": roles}
        entry.update(inspect(hierarchy, module, cls))
        architectures[arch] = entry
    return {
        "version": version,
        "generated_by": "tools/generate_model_registry.py",
        "source": "vllm/model_executor/models/registry.py",
        "flags": [*FLAGS, "is_text_generation_model"],
        "architectures": architectures,
        "draft_rewritten_model_types": draft_rewrites(source),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default="0.33.0")
    parser.add_argument("--wheel", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "schemas")
    args = parser.parse_args(argv)
    wheel = args.wheel or fetch_wheel(args.version, DEFAULT_CACHE)
    document = build(args.version, WheelSource(wheel))
    target = args.out / f"vllm-{args.version}.models.json"
    target.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    total = len(document["architectures"])
    unresolved = sum(1 for e in document["architectures"].values() if not e["resolved"])
    print(f"wrote {target} ({total} architectures, {unresolved} unresolved)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
