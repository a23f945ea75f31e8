"""The speculative-method tables the rules share (`rules/_model_config.py`) against each
release's own source, read from its cached wheel with `ast`: `use_eagle()`'s tuple, and the
methods the async-scheduling check lets through (VC800, VC643). A release whose wheel is not
cached (`tools/generate_schemas.py` fills the cache) is skipped."""

from __future__ import annotations

import ast
import zipfile
from pathlib import Path
from typing import Any

import pytest
from vllm_config_lsp.rules._model_config import USE_EAGLE, async_scheduled, release_tuple
from vllm_config_lsp.vllm.catalogue import available_versions, load_catalogue

CACHE = Path("~/.cache/vllm-config-lsp/wheels").expanduser()
#: The words of the raise (or the incompatibility) whose `if` decides async scheduling's methods.
ASYNC_WORDS = ("async scheduling is only supported", "-based speculative decoding")
#: The releases with `vllm/config/speculative.py` and async scheduling's method check.
SPECULATIVE = [v for v in available_versions() if release_tuple(v) >= (0, 11)]


def _wheel(version: str) -> zipfile.ZipFile:
    found = sorted(CACHE.glob(f"vllm-{version}-*.whl"))
    if not found:
        pytest.skip(f"vllm {version}'s wheel is not cached")
    return zipfile.ZipFile(found[0])


def _tree(version: str, path: str) -> ast.Module:
    return ast.parse(_wheel(version).read(path).decode("utf-8"))


def _literals(tree: ast.Module) -> dict[str, set[str]]:
    """Module-level `X = Literal[...]` aliases, nested ones resolved."""
    assigned = {
        node.targets[0].id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }

    def members(node: ast.expr) -> set[str]:
        if isinstance(node, ast.Name):
            return members(assigned[node.id])
        if isinstance(node, ast.Constant):
            return {node.value}
        assert isinstance(node, ast.Subscript), ast.dump(node)
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return set().union(*(members(item) for item in items))

    return {
        name: members(value) for name, value in assigned.items() if "Literal" in ast.dump(value)
    }


def _refuses(test: ast.expr, method: str, literals: dict[str, set[str]]) -> bool:
    """Evaluate an `a and b` of `….method not in get_args(X)`, `!= "m"`, `not in (…)`."""
    parts = test.values if isinstance(test, ast.BoolOp) else [test]
    if any(isinstance(part, ast.BoolOp) for part in parts):  # a and (b and c)
        return all(_refuses(part, method, literals) for part in parts)
    for part in parts:
        if isinstance(part, ast.Compare) and ast.unparse(part.left).endswith(".method"):
            op, (right,) = part.ops[0], part.comparators
            if isinstance(right, ast.Call):  # get_args(X)
                values: Any = literals[ast.unparse(right.args[0])]
            else:
                values = ast.literal_eval(right)
            inside = method == values if isinstance(op, ast.NotEq) else method in values
            if inside:
                return False
    return True


def _async_test(tree: ast.Module) -> ast.expr:
    """The `if` test right above the async-scheduling method check of `__post_init__`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            text = ast.unparse(node.body[0]) if node.body else ""
            method_test = ".method not in get_args(EagleModelTypes)" in ast.unparse(node.test)
            if method_test and any(words in text for words in ASYNC_WORDS):
                test = node.test
                if isinstance(test, ast.BoolOp) and "is not None" in ast.unparse(test.values[0]):
                    return ast.BoolOp(ast.And(), test.values[1:])  # spec_config is not None and (…)
                return test
    raise AssertionError("no async-scheduling method check")


@pytest.mark.parametrize("version", SPECULATIVE)
def test_use_eagle_is_the_release_s_own(version: str) -> None:
    tree = _tree(version, "vllm/config/speculative.py")
    (function,) = [
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "use_eagle"
    ]
    returned = [n.value for n in ast.walk(function) if isinstance(n, ast.Return)]
    assert isinstance(returned[0], ast.Compare)
    methods = set(load_catalogue(version).value_sets["speculative_methods"].values)
    assert set(ast.literal_eval(returned[0].comparators[0])) == USE_EAGLE & methods


@pytest.mark.parametrize("version", SPECULATIVE)
def test_async_methods_are_the_release_s_own(version: str) -> None:
    literals = _literals(_tree(version, "vllm/config/speculative.py"))
    test = _async_test(_tree(version, "vllm/config/vllm.py"))
    catalogue = load_catalogue(version)
    mtp = set(catalogue.value_sets["mtp_model_types"].values)
    settled = {"mtp" if m in mtp else m for m in catalogue.value_sets["speculative_methods"].values}
    settled.discard("[ngram]")  # becomes ngram
    wrong = {m for m in settled if _refuses(test, m, literals) == async_scheduled(m, version)}
    assert not wrong, (version, sorted(wrong))
