"""`custom-histogram-buckets` names an unknown metric family or gives unusable bounds.

## What vLLM does
`ObservabilityConfig` validates `custom_histogram_buckets` while the engine config is built
(vllm/config/observability.py:167-212). Before pydantic converts the bounds to floats it
refuses booleans (`bound True must be a number, not a boolean`); then, family by family,
an unknown family key (`unknown bucket family 'x'; known families: [...]`), an empty list
(`bucket list must not be empty`), a bound that is not finite or not above 0 (`bound 0.0
must be finite and greater than 0`) and bounds that do not strictly increase (`bounds
[...] must be strictly increasing`). Prometheus histograms need positive, increasing upper
bounds; the family key picks which vLLM histogram they replace.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
custom-histogram-buckets:
  request_latency: [1, 0.5, 10]
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
custom-histogram-buckets:
  request_latency: [0.5, 1, 10]
```
"""

import math
from collections.abc import Iterator

from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules.support import closest, finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC519"
NAME = "histogram-buckets"
VLLM_SOURCE = "vllm/config/observability.py:194"
CATALOGUE = (
    "obs.buckets.bool",
    "obs.buckets.family",
    "obs.buckets.empty",
    "obs.buckets.positive",
    "obs.buckets.increasing",
)

FLAG = "custom-histogram-buckets"
SOURCE = "vllm/config/observability.py:{}"


def _as_float(value: object) -> float | None:
    """pydantic's lax float: numbers and numeric strings."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _error(
    where: ValueNode | tuple[int, int], message: str, line: int, fixes: list[Fix] | None = None
) -> Finding:
    span = where if isinstance(where, tuple) else (where.start, where.end)
    return finding(
        CODE, Severity.ERROR, span, message, source=SOURCE.format(line), fixes=fixes or ()
    )


def _family_problem(entry: Entry, families: list[str]) -> Finding | None:
    family, node = entry.key, entry.value
    items = node.items or []
    bounds = [_as_float(item.value) for item in items]
    if any(b is None for b in bounds):
        return None  # a pydantic type error comes first
    if family not in families:
        suggestion = closest(family, families, cutoff=0.6)
        fixes = []
        if suggestion is not None and node.origin == "yaml":
            fixes.append(
                Fix(
                    f"Rename `{family}` to `{suggestion}`",
                    (TextEdit(entry.key_start, entry.key_end, suggestion),),
                    safe=False,
                    preferred=True,
                )
            )
        return _error(
            (entry.key_start, entry.key_end),
            f"custom_histogram_buckets: unknown bucket family {family!r}; known families: "
            f"{families}" + (f". Did you mean `{suggestion}`?" if suggestion else ""),
            194,
            fixes,
        )
    if not items:
        return _error(
            node, f"custom_histogram_buckets[{family!r}]: bucket list must not be empty", 199
        )
    for item, bound in zip(items, bounds, strict=True):
        assert bound is not None
        if not math.isfinite(bound) or bound <= 0:
            return _error(
                item,
                f"custom_histogram_buckets[{family!r}]: bound {bound!r} must be finite and "
                "greater than 0",
                205,
            )
    for index in range(1, len(bounds)):
        if bounds[index - 1] >= bounds[index]:  # type: ignore[operator]
            return _error(
                items[index],
                f"custom_histogram_buckets[{family!r}]: bounds {bounds} must be strictly "
                "increasing",
                210,
            )
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    value = model.flag(FLAG)
    families_set = model.catalogue.value_sets.get("histogram_bucket_families")
    if value is None or value.error is not None or value.tree is None or families_set is None:
        return
    tree = value.tree
    if not tree.is_object:
        return
    entries = tree.entries or []
    # mode="before": booleans are refused before anything else (observability.py:167-180).
    for entry in entries:
        for item in entry.value.items or ():
            if isinstance(item.value, bool):
                yield _error(
                    item,
                    f"custom_histogram_buckets[{entry.key!r}]: bound {item.value!r} must be a "
                    "number, not a boolean",
                    177,
                )
                return
    if not all(entry.value.is_array for entry in entries):
        return  # not dict[str, list[float]]: pydantic refuses the type first
    families = sorted(str(f) for f in families_set.values)
    latest = {entry.key: entry for entry in entries}  # JSON keeps the last duplicate
    for entry in latest.values():
        problem = _family_problem(entry, families)
        if problem is not None:
            yield problem
            return
