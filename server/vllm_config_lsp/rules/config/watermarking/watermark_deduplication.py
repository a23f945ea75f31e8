"""Gumbel watermarking without context deduplication, or with a short history: vLLM cautions.

## What vLLM does
`WatermarkConfig.validate_watermark_settings` cautions, for the `gumbel` and
`dual_key_gumbel` algorithms with `deduplicate_contexts: none` or a
`deduplicate_contexts_max_history` below 1024, "Gumbel-max watermarking with context
deduplication disabled or limited to fewer than 1024 positions may increase the frequency
of degenerate generations, including repetition loops. …"
(vllm/config/watermarking.py:62-80). The settings apply as written: information.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
watermark-config:
  key: 42
  algorithm: gumbel
  deduplicate_contexts: none
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
watermark-config:
  key: 42
  algorithm: gumbel
  deduplicate_contexts: single_turn
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import json_given
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC389"
NAME = "watermark-deduplication"
VLLM_SOURCE = "vllm/config/watermarking.py:69"
CATALOGUE = ("warn.watermarking.deduplication",)
GUMBEL = ("gumbel", "dual_key_gumbel")
#: `_MIN_RECOMMENDED_DEDUP_HISTORY` (vllm/config/watermarking.py:18).
HISTORY = 1024


def check(model: ConfigModel) -> Iterator[Finding]:
    if model.flag("watermark-config") is None:
        return
    algorithm = json_given(model, "watermark-config", "algorithm")
    cls = model.catalogue.classes.get("WatermarkConfig")
    default = cls.fields["algorithm"].default if cls and "algorithm" in cls.fields else None
    if (algorithm.value if algorithm is not None else default) not in GUMBEL:
        return
    dedup = json_given(model, "watermark-config", "deduplicate_contexts")
    history = json_given(model, "watermark-config", "deduplicate_contexts_max_history")
    short = history is not None and isinstance(history.value, int) and history.value < HISTORY
    off = dedup is not None and dedup.value == "none"
    culprit = dedup if off else history if short else None
    if culprit is None:  # the defaults: single_turn over 8192 positions
        return
    yield finding(
        CODE,
        Severity.INFO,
        culprit.where,
        "Gumbel-max watermarking with context deduplication disabled or limited to fewer "
        f"than {HISTORY} positions may increase the frequency of degenerate generations, "
        f"including repetition loops. Use deduplicate_contexts='single_turn' or 'all' with "
        f"deduplicate_contexts_max_history at least {HISTORY} or null to mitigate this.",
        source=VLLM_SOURCE,
    )
