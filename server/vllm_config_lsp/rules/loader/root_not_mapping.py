"""The file is empty or is not a mapping of flag names to values.

## What vLLM does
`load_config_file` iterates `config.items()` over what `yaml.safe_load` returned; an empty
file (`None`), a list or a plain value has no `.items()` and vLLM stops with an
`AttributeError`.

## Example
```yaml
- model: Qwen/Qwen3-8B
- tensor-parallel-size: 2
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from yaml.nodes import MappingNode

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC002"
NAME = "root-not-mapping"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:652"

_PYTHON_TYPE = {"seq": "list", "str": "str", "int": "int", "float": "float", "bool": "bool"}


def check(model: ConfigModel) -> Iterator[Finding]:
    if model.origin is None:
        return
    root = model.origin.parsed.root
    if isinstance(root, MappingNode):
        return
    if root is None:
        if model.origin.parsed.problems:
            return  # the syntax error is the real story
        where = (0, 0)
        kind = "NoneType"
    else:
        where = span(root)
        kind = _PYTHON_TYPE.get(root.tag.rsplit(":", 1)[-1], "str")
        if root.tag.endswith(":null"):
            kind = "NoneType"
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        f"'{kind}' object has no attribute 'items': a vLLM config file must be a mapping "
        "of flag names to values (`model: …`, `tensor-parallel-size: 2`, …)",
        source=VLLM_SOURCE,
    )
