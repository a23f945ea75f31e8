"""A number is outside the bounds vLLM's config class declares (`Field(gt=…, le=…)`).

## What vLLM does
Config fields carry pydantic constraints; building the config class fails with
`Input should be greater than 0` (inside a JSON config, already while parsing arguments;
for plain flags, when vLLM builds its engine config).

## Example
```yaml
model: Qwen/Qwen3-8B
gpu-memory-utilization: 1.5
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
gpu-memory-utilization: 0.9
```
"""

import math
from collections.abc import Iterator
from typing import Any

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._model_config import MULTIMODAL_GATE
from vllm_config_lsp.rules.support import field_issues, field_path, finding, shown, site_of
from vllm_config_lsp.vllm.catalogue import FieldSpec
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.pydantic_lax import FieldIssue

CODE = "VC203"
NAME = "out-of-range"
VLLM_SOURCE = "vllm/config/utils.py:71"

BOUND_KINDS = {
    "greater_than",
    "greater_than_equal",
    "less_than",
    "less_than_equal",
    "multiple_of",
    "too_short",
}
#: How each constraint reads in the user's terms.
_PHRASES = {"gt": "above {}", "ge": "at least {}", "lt": "below {}", "le": "at most {}"}


def check(model: ConfigModel) -> Iterator[Finding]:
    for value, issue in field_issues(model, BOUND_KINDS):
        node = issue.node
        if node is None:
            continue
        site = site_of(model, value.use.token)
        name = site.written if site is not None else value.spec.name
        where = field_path(name, issue.path) if value.spec.dataclass_name else name
        # vLLM builds MultiModalConfig only for a multimodal model (vllm/config/model.py:881).
        multimodal = issue.class_name == "MultiModalConfig"
        gate = f". {MULTIMODAL_GATE}" if multimodal else ""
        spec = _field(model, issue)
        bounds = _bounds(spec)
        said = f"`{where}` must be {bounds}" if bounds else f"`{where}`"
        yield finding(
            CODE,
            Severity.WARNING if multimodal else Severity.ERROR,
            _inner(model.text, node.start, node.end),
            f"{issue.message}: {said}, got {shown(node.value)}{gate}",
            source=value.spec.source or VLLM_SOURCE,
            fixes=_fixes(model.text, node.start, node.end, node.value, spec),
        )


def _field(model: ConfigModel, issue: FieldIssue) -> FieldSpec | None:
    cls = model.catalogue.classes.get(issue.class_name)
    return cls.fields.get(issue.path[-1]) if cls is not None and issue.path else None


def _bounds(spec: FieldSpec | None) -> str:
    """ "above 0 and at most 1": the field's bounds as a user reads them."""
    if spec is None:
        return ""
    said = [
        phrase.format(spec.constraints[key])
        for key, phrase in _PHRASES.items()
        if key in spec.constraints
    ]
    if "multiple_of" in spec.constraints:
        said.append(f"a multiple of {spec.constraints['multiple_of']}")
    return " and ".join(said)


def _inner(text: str, start: int, end: int) -> tuple[int, int]:
    """The text vLLM receives: inside the quotes of a quoted scalar or word."""
    if end - start >= 2 and text[start] in "'\"" and text[end - 1] == text[start]:
        return start + 1, end - 1
    return start, end


def _number(value: Any) -> bool:
    """A finite number (an int always is: `math.isfinite` of a 400-digit one overflows)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def _valid(value: Any, constraints: dict[str, Any]) -> bool:
    """Whether `value` meets every bound (a bound that is no number is not checked here)."""
    for key, bound in constraints.items():
        if not _number(bound):
            continue
        if key == "gt" and not value > bound:
            return False
        if key == "ge" and not value >= bound:
            return False
        if key == "lt" and not value < bound:
            return False
        if key == "le" and not value <= bound:
            return False
        if key == "multiple_of" and (not bound or value % bound != 0):
            return False
    return True


def _nearest(value: Any, spec: FieldSpec) -> Any:
    """The valid value nearest to `value`, where there is one to write (a strict bound of a
    float has none)."""
    bounds, integer = spec.constraints, isinstance(value, int) and "float" not in spec.annotation
    candidates = []
    for key in ("le", "ge"):
        if key in bounds:
            candidates.append(bounds[key])
    if integer:
        candidates += [bounds["gt"] + 1] if "gt" in bounds else []
        candidates += [bounds["lt"] - 1] if "lt" in bounds else []
    if "multiple_of" in bounds and _number(bounds["multiple_of"]) and bounds["multiple_of"]:
        step = bounds["multiple_of"]
        below = value // step * step  # floor division: exact for a 400-digit int
        candidates += [below, below if below == value else below + step]
    valid = [c for c in candidates if _number(c) and _valid(c, bounds)]
    return min(valid, key=lambda c: abs(c - value)) if valid else None


def _fixes(text: str, start: int, end: int, value: Any, spec: FieldSpec | None) -> list[Fix]:
    """Set the nearest valid value (preferred), or the default; as written inside the quotes
    a quoted value has."""
    if spec is None or not _number(value):
        return []
    where = _inner(text, start, end)
    fixes = []
    nearest = _nearest(value, spec)
    if nearest is not None:
        title = f"Set `{_text(nearest)}`, the nearest valid value"
        fixes.append(Fix(title, (TextEdit(*where, _text(nearest)),), safe=False, preferred=True))
    default = spec.default
    if _number(default) and default != nearest and _valid(default, spec.constraints):
        title = f"Set `{_text(default)}`, vLLM's default"
        fixes.append(
            Fix(title, (TextEdit(*where, _text(default)),), safe=False, preferred=not fixes)
        )
    return fixes


def _text(value: Any) -> str:
    return repr(value) if isinstance(value, float) and not value.is_integer() else str(int(value))
