"""A user's proposer class for speculative decoding: an experimental interface.

## What vLLM does
With `method: custom_class` (or a draft `model` that names a class path, which vLLM reads as
that method), `SpeculativeConfig.__post_init__` warns (vllm/config/speculative.py:1338):
"Using a custom class-based proposer backend. This is an experimental feature and the
proposer interface is subject to breaking changes in future vLLM releases." The class is
loaded as written, so this is information: a development hook to pin to one vLLM release.

## Example
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
speculative-config:
  method: custom_class
  model: my_pkg.proposer.MyProposer
  num_speculative_tokens: 2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
speculative-config:
  method: ngram
  prompt_lookup_max: 4
  num_speculative_tokens: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC641"
NAME = "custom-class-proposer"
VLLM_SOURCE = "vllm/config/speculative.py:1338"
CATALOGUE = ("warn.speculative.custom_class",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or config.method != "custom_class":
        return
    where = config.span("method") if config.has("method") else config.anchor
    yield finding(
        CODE,
        Severity.INFO,
        where,
        "Using a custom class-based proposer backend. This is an experimental feature and "
        "the proposer interface is subject to breaking changes in future vLLM releases. "
        "Pin the vLLM release the class was written for.",
        source=VLLM_SOURCE,
    )
