"""No import cycle anywhere in the package, counting every file-level import: at module
level, under `TYPE_CHECKING` and inside functions (the lazy imports kept for start-up time).

import-linter's contracts (`pyproject.toml`) hold the layers between packages and inside
`lsp/`; a cycle inside one layer is what they cannot see, so the graph itself is read here
(with grimp, the graph builder import-linter uses) and its strongly connected components
are listed.
"""

from __future__ import annotations

import grimp
import pytest

PACKAGE = "vllm_config_lsp"

#: The cycle of issue 27 item 4, broken by the one start matcher (`sources/argv.py`, branch
#: wt-argv): the test expects failure while it alone remains.
BEING_BROKEN = frozenset(
    {
        "vllm_config_lsp.sources.gpu_claims",
        "vllm_config_lsp.sources.shell",
        "vllm_config_lsp.sources.yaml_hosts",
    }
)


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative:
    the graph has hundreds of modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    imported = sorted(graph.find_modules_directly_imported_by(target))
                    work.append((target, iter(imported)))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for module in ("a", "b", "c", "d"):
        graph.add_module(module)
    graph.add_import(importer="a", imported="b")
    graph.add_import(importer="b", imported="c")
    graph.add_import(importer="c", imported="a")
    graph.add_import(importer="c", imported="d")
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle_in_the_package() -> None:
    graph = grimp.build_graph(PACKAGE, exclude_type_checking_imports=False, cache_dir=None)
    found = _cycles(graph)
    if found and all(frozenset(cycle) == BEING_BROKEN for cycle in found):
        pytest.xfail("sources/: shell -> gpu_claims -> yaml_hosts -> shell (issue 27 item 4)")
    assert found == []
