"""`use_heterogeneous_vocab` with a method, sampler or reduction it does not support.

## What vLLM does
A draft with its own vocabulary is only supported for plain draft models with greedy
draft sampling and full draft logits. `SpeculativeConfig._verify_args` stops the start
when the engine config is built with `use_heterogeneous_vocab only works with
method='draft_model'`, `use_heterogeneous_vocab currently only supports greedy draft
sampling. …` and `use_heterogeneous_vocab is not compatible with
use_local_argmax_reduction …` (vllm/config/speculative.py:1994-2011).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  model: Qwen/Qwen3-0.6B
  num_speculative_tokens: 4
  use_heterogeneous_vocab: true
  draft_sample_method: probabilistic
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  model: Qwen/Qwen3-0.6B
  num_speculative_tokens: 4
  use_heterogeneous_vocab: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_bool, spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC466"
NAME = "spec-heterogeneous-vocab"
VLLM_SOURCE = "vllm/config/speculative.py:1996"
CATALOGUE = ("spec.hetero_vocab.method", "spec.hetero_vocab.greedy", "spec.hetero_vocab.argmax")
KEY = "use_heterogeneous_vocab"


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or not as_bool(config.value(KEY, False)):
        return
    if config.method != "draft_model" and config.method_known:
        yield finding(
            CODE,
            Severity.ERROR,
            config.span("method"),
            f"use_heterogeneous_vocab only works with method='draft_model' (here "
            f"{config.method!r}).",
            source=VLLM_SOURCE,
        )
        return
    sampler = config.value("draft_sample_method", "greedy")
    if sampler != "greedy":
        yield finding(
            CODE,
            Severity.ERROR,
            config.span("draft_sample_method"),
            "use_heterogeneous_vocab currently only supports greedy draft sampling. Set "
            "draft_sample_method='greedy' (the default) or omit it.",
            source="vllm/config/speculative.py:2001",
        )
        return
    if as_bool(config.value("use_local_argmax_reduction", False)):
        yield finding(
            CODE,
            Severity.ERROR,
            config.span("use_local_argmax_reduction"),
            "use_heterogeneous_vocab is not compatible with use_local_argmax_reduction "
            "because token-level intersection requires the full draft logits.",
            source="vllm/config/speculative.py:2008",
        )
