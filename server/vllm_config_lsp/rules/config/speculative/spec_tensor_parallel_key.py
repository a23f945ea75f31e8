"""`speculative-config` sets `tensor_parallel_size`; the key is `draft_tensor_parallel_size`.

## What vLLM does
`SpeculativeConfig._verify_args` stops the start with `'tensor_parallel_size' is not a
valid argument in the speculative_config. Please pass 'draft_tensor_parallel_size'
instead.` (vllm/config/speculative.py:1938-1944) when the engine config is built.

## Example
```yaml
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 4
speculative-config:
  model: meta-llama/Llama-3.2-1B-Instruct
  num_speculative_tokens: 4
  tensor_parallel_size: 1
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 4
speculative-config:
  model: meta-llama/Llama-3.2-1B-Instruct
  num_speculative_tokens: 4
  draft_tensor_parallel_size: 1
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules.support import finding, rename_in_place
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC461"
NAME = "spec-tensor-parallel-key"
VLLM_SOURCE = "vllm/config/speculative.py:1941"
CATALOGUE = ("spec.tp_key",)
KEY = "tensor_parallel_size"


def check(model: ConfigModel) -> Iterator[Finding]:
    tree = model.json_tree("speculative-config")
    entry = tree.entry(KEY) if tree is not None and tree.is_object else None
    if entry is None or entry.value.value is None:
        return
    written = model.text[entry.key_start : entry.key_end]
    old = KEY if KEY in written else KEY.replace("_", "-")
    edit = rename_in_place(model.text, entry.key_start, entry.key_end, old, "draft_" + old)
    yield finding(
        CODE,
        Severity.ERROR,
        (entry.key_start, entry.key_end),
        "'tensor_parallel_size' is not a valid argument in the speculative_config. Please "
        "pass 'draft_tensor_parallel_size' instead.",
        source=VLLM_SOURCE,
        fixes=[Fix(f"Rename to `draft_{old}`", (edit,), preferred=True)] if edit else [],
    )
