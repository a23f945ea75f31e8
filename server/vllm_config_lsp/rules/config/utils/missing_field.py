"""A JSON-valued config lacks a field vLLM requires.

## What vLLM does
Config classes with a field that has no default refuse to be built without it; pydantic
reports `Field required` (e.g. the watermark's secret `key`,
vllm/config/watermarking.py:30).

## Example
```yaml
model: Qwen/Qwen3-8B
watermark-config:
  algorithm: gumbel
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
watermark-config:
  algorithm: gumbel
  key: 42
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import field_issues, field_path, finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC207"
NAME = "missing-field"
VLLM_SOURCE = "vllm/config/utils.py:71"


def check(model: ConfigModel) -> Iterator[Finding]:
    for value, issue in field_issues(model, {"missing"}):
        node = issue.node
        if node is None:
            continue
        yield finding(
            CODE,
            Severity.ERROR,
            (node.start, node.end),
            f"Field required: `{field_path(value.spec.name, issue.path)}`",
            source=VLLM_SOURCE,
        )
