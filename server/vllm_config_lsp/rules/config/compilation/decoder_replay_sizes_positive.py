"""Every `decoder_replay_cudagraph_capture_sizes` entry must be positive.

## What vLLM does
`CompilationConfig.__post_init__` refuses any `decoder_replay_cudagraph_capture_sizes`
entry `<= 0` with `All decoder_replay_cudagraph_capture_sizes must be positive`
(vllm/config/compilation.py:1047-1050), while the arguments are parsed. Each entry is a
batch size for which a decoder CUDA graph is captured; `0` or less is never a batch size.

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  decoder_replay_cudagraph_capture_sizes: [0, 8, 16]
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  decoder_replay_cudagraph_capture_sizes: [8, 16]
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules._model_config import as_number, json_given
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.sources.config_edits import remove_items
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC405"
NAME = "decoder-replay-sizes-positive"
VLLM_SOURCE = "vllm/config/compilation.py:1049"
CATALOGUE = ("compilation.decoder_replay_sizes.positive",)
FIELD = "decoder_replay_cudagraph_capture_sizes"


def check(model: ConfigModel) -> Iterator[Finding]:
    given = json_given(model, "compilation-config", FIELD)
    if given is None or given.node is None or given.node.items is None:
        return
    items = given.node.items
    values = [as_number(item.value) for item in items]
    bad = {i for i, v in enumerate(values) if v is not None and v <= 0}
    if not bad:
        return
    fixes = []
    edits = remove_items(model.text, given.node, bad)
    if edits is not None:
        fixes.append(Fix("Remove the non-positive sizes", tuple(edits), safe=False, preferred=True))
    first = items[min(bad)]
    yield finding(
        CODE,
        Severity.ERROR,
        (first.start, first.end),
        f"All {FIELD} must be positive (got {[item.value for item in items]}): remove "
        "the sizes that are zero or negative.",
        source=VLLM_SOURCE,
        fixes=fixes,
    )
