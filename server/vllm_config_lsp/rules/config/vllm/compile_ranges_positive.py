"""A compile range endpoint that is not a positive token count.

## What vLLM does
`VllmConfig._set_compile_ranges` (vllm/config/vllm.py:2658-2735) runs on every platform and
asserts that each `compilation-config.compile_ranges_endpoints` entry is above 0: the
endpoints split the token range into the ranges vLLM compiles separately, so 0 or a
negative count cannot bound one.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
compilation-config:
  compile_ranges_endpoints: [0, 64]
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
compilation-config:
  compile_ranges_endpoints: [8, 64]
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import compilation_field, is_int
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC339"
NAME = "compile-ranges-positive"
VLLM_SOURCE = "vllm/config/vllm.py:2728"
CATALOGUE = ("vllm.compile_ranges.positive",)


def check(model: ConfigModel) -> Iterator[Finding]:
    endpoints = compilation_field(model, "compile_ranges_endpoints")
    if endpoints is None or not isinstance(endpoints.value, list):
        return
    container = endpoints.entry.value if endpoints.entry is not None else None
    items = container.items if container is not None and container.items else []
    for index, value in enumerate(endpoints.value):
        if is_int(value) and value <= 0:
            where = (
                (items[index].start, items[index].end) if index < len(items) else endpoints.where
            )
            yield finding(
                CODE,
                Severity.ERROR,
                where,
                f"Invalid compile range endpoint: {value} (an assertion in vLLM). Compile "
                "range endpoints are token counts and must be above 0.",
                source=VLLM_SOURCE,
            )
            return
