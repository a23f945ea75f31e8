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

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import MULTIMODAL_GATE
from vllm_config_lsp.rules.support import field_issues, field_path, finding, shown
from vllm_config_lsp.vllm.config_model import ConfigModel

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


def check(model: ConfigModel) -> Iterator[Finding]:
    for value, issue in field_issues(model, BOUND_KINDS):
        node = issue.node
        if node is None:
            continue
        where = (
            field_path(value.spec.name, issue.path)
            if value.spec.dataclass_name
            else value.spec.name
        )
        # vLLM builds MultiModalConfig only for a multimodal model (vllm/config/model.py:881).
        multimodal = issue.class_name == "MultiModalConfig"
        gate = f". {MULTIMODAL_GATE}" if multimodal else ""
        yield finding(
            CODE,
            Severity.WARNING if multimodal else Severity.ERROR,
            (node.start, node.end),
            f"{issue.message} ({issue.class_name}.{'.'.join(issue.path)}, "
            f"got {shown(node.value)} in `{where}`){gate}",
            source=value.spec.source or VLLM_SOURCE,
        )
