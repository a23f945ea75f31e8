"""A speculative-decoding option that only one method supports is set for another.

## What vLLM does
`SpeculativeConfig` stops the start when the engine config is built with
`dspark_draft_topk is only supported by DSpark` (vllm/config/speculative.py:1640-1641),
`index_share_for_mtp_iteration is only supported with method='mtp'` (1704-1708) and
`draft_lm_head_quantization is not supported for method 'X'.` (eagle, eagle3 and mtp
only; 1953-1959). Checked here when the method is certain: with `draft_model` and a
draft checkpoint, vLLM may still re-detect the method from the draft's name.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 4
  index_share_for_mtp_iteration: true
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC468"
NAME = "spec-method-only-options"
VLLM_SOURCE = "vllm/config/speculative.py:1706"
CATALOGUE = ("spec.dspark_topk.method", "spec.index_share.method", "spec.lm_head_quant.method")


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or not config.method_known:
        return
    method = config.method
    if config.has("dspark_draft_topk") and method != "dspark" and config.uses_draft:
        yield finding(
            CODE,
            Severity.ERROR,
            config.span("dspark_draft_topk"),
            f"dspark_draft_topk is only supported by DSpark (method here: {method!r}).",
            source="vllm/config/speculative.py:1641",
        )
        return
    if config.has("index_share_for_mtp_iteration") and method != "mtp":
        yield finding(
            CODE,
            Severity.ERROR,
            config.span("index_share_for_mtp_iteration"),
            "index_share_for_mtp_iteration is only supported with method='mtp' (method "
            f"here: {method!r}).",
            source=VLLM_SOURCE,
        )
        return
    if config.has("draft_lm_head_quantization") and method not in ("eagle", "eagle3", "mtp"):
        yield finding(
            CODE,
            Severity.ERROR,
            config.span("draft_lm_head_quantization"),
            f"draft_lm_head_quantization is not supported for method {method!r}. Only eagle, "
            "eagle3 and mtp drafts share the target's quantized lm_head.",
            source="vllm/config/speculative.py:1956",
        )
