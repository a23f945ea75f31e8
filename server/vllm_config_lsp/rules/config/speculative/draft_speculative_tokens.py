"""A draft checkpoint without `num_speculative_tokens`, or with a count its heads cannot make.

## What vLLM does
Once `SpeculativeConfig` has read the draft model's config.json
(vllm/config/speculative.py:1584-1617): a draft that declares `n_predict` (MTP/Medusa-style
heads) supplies the default count, and a larger `num_speculative_tokens` must be a multiple
of it (`num_speculative_tokens:5 must be divisible by n_predict=2`, the heads are reused in
rounds). A plain draft model declares none, so without `num_speculative_tokens` the start
stops with `A speculative model was provided, but num_speculative_tokens was not
provided`.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: Qwen/Qwen2.5-0.5B-Instruct
  use_heterogeneous_vocab: true
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: Qwen/Qwen2.5-0.5B-Instruct
  num_speculative_tokens: 4
  use_heterogeneous_vocab: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import draft, draft_method, int_value, served, speculative
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC615"
NAME = "draft-speculative-tokens"
VLLM_SOURCE = "vllm/config/speculative.py:1615"
CATALOGUE = ("spec.tokens_required_model", "spec.n_predict_divisible")

DIVISIBLE_SOURCE = "vllm/config/speculative.py:1609"


def check(model: ConfigModel) -> Iterator[Finding]:
    proposer = draft(model)
    if served(model) is None or proposer is None or proposer.config is None:
        return
    if proposer.name is None:
        return
    if draft_method(model, proposer.config, proposer.name) != "draft_model":
        return  # EAGLE/DFlash/DSpark/MTP heads rewrite the draft config first
    config = speculative(model) or {}
    tokens, where, _ = config.get("num_speculative_tokens", (None, proposer.where, ""))
    n_predict = int_value(proposer.config.raw.get("n_predict"))
    if tokens is None:
        if n_predict is None:
            yield finding(
                CODE,
                Severity.ERROR,
                proposer.where,
                "A speculative model was provided, but `num_speculative_tokens` was not "
                "provided: the draft's config.json has no `n_predict` to default to. Add "
                "`num_speculative_tokens` (3-5 is typical).",
                source=VLLM_SOURCE,
            )
        return
    count = int_value(tokens)
    if n_predict and count is not None and count > n_predict and count % n_predict:
        yield finding(
            CODE,
            Severity.ERROR,
            where,
            f"num_speculative_tokens:{count} must be divisible by n_predict={n_predict} "
            "(the draft's heads are reused in rounds).",
            source=DIVISIBLE_SOURCE,
        )
