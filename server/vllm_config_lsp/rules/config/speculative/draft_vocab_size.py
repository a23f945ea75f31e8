"""A draft model whose vocabulary size differs from the target model's.

## What vLLM does
With a plain draft checkpoint (`method: draft_model`, or no method and a draft that is not
an EAGLE/DFlash/DSpark/MTP head), the draft proposes token ids the target then verifies,
so both must share one vocabulary. `SpeculativeConfig.verify_equal_vocab_size_if_draft_model`
compares the two config.json `vocab_size`s and refuses: `Target and draft model should have
the same vocabulary size. Target model vocab_size=152064. Draft model vocab_size=151936.`
(vllm/config/speculative.py:2039-2054), unless `use_heterogeneous_vocab` is on. Qwen2.5's
small and large models are the classic case: same tokenizer, padded embedding tables.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: Qwen/Qwen2.5-0.5B-Instruct
  num_speculative_tokens: 3
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: Qwen/Qwen2.5-0.5B-Instruct
  num_speculative_tokens: 3
  use_heterogeneous_vocab: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import draft, draft_method, served, speculative
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC614"
NAME = "draft-vocab-size"
VLLM_SOURCE = "vllm/config/speculative.py:2049"
CATALOGUE = ("spec.vocab_equal",)


def check(model: ConfigModel) -> Iterator[Finding]:
    target, proposer = served(model), draft(model)
    if target is None or proposer is None or proposer.config is None or proposer.name is None:
        return
    config = speculative(model) or {}
    if config.get("use_heterogeneous_vocab", (False,))[0] is True:
        return
    if draft_method(model, proposer.config, proposer.name) != "draft_model":
        return
    ours, theirs = target.vocab_size, proposer.config.vocab_size
    if ours is None or theirs is None or ours == theirs:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        proposer.where,
        f"Target and draft model should have the same vocabulary size. Target model "
        f"vocab_size={ours}. Draft model vocab_size={theirs}. Using models with different "
        "tokenizers can cause out-of-bounds errors during speculative decoding. Pick a draft "
        "with the target's vocabulary, or set `use_heterogeneous_vocab: true`.",
        source=VLLM_SOURCE,
    )
