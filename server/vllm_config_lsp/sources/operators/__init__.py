"""The operators and charts that build vLLM's argv from resources of their own, one module
each: every module with an `OPERATOR` (a `reader.Operator`) in this package is one, as
every module with a `CODE` in `rules/` is a rule. Its docstring names the operator source it
transcribes (repository, path, commit); the Kubernetes reader (`sources.kubernetes`) reads
Pods and containers and calls each operator's hooks where they apply.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from vllm_config_lsp.sources.operators.reader import Operator


@cache
def operators() -> tuple[Operator, ...]:
    """Every operator module's `OPERATOR`, in module name order."""
    found: list[Operator] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        declared = getattr(module, "OPERATOR", None)
        if isinstance(declared, Operator):
            found.append(declared)
    return tuple(found)


@cache
def embedded_keys() -> frozenset[str]:
    """The keys whose string value some operator reads as a YAML document."""
    return frozenset(key for operator in operators() for key in operator.embedded_keys)
