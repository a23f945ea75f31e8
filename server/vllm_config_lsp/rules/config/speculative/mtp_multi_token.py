"""More than one speculative token from a single MTP layer: a caution about acceptance.

## What vLLM does
When the method is MTP (written `mtp`, or a model-specific name that becomes it) and
`num_speculative_tokens` is above 1, `SpeculativeConfig.__post_init__` warns (vllm/config/
speculative.py:1491): "Enabling num_speculative_tokens > 1 will run multiple times of
forward on same MTP layer,which may result in lower acceptance rate". The tokens are drafted
as written; the caution is about the acceptance rate, so this is information. The MTP drafts
of Step-3.5, Step-5 and Inkling (draft types `step3p5_mtp`, `step5_mtp`, `inkling_mtp`, set by
`hf_config_override`, speculative.py:1041-1093) are exempt; when the model's files are not
known here the message says so.

## Example
```yaml
model: Qwen/Qwen3-Next-80B-A3B-Instruct
speculative-config:
  method: mtp
  num_speculative_tokens: 3
```

## Fixed
```yaml
model: Qwen/Qwen3-Next-80B-A3B-Instruct
speculative-config:
  method: mtp
  num_speculative_tokens: 1
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import draft_checkpoint
from vllm_config_lsp.rules._engine import speculative_tokens
from vllm_config_lsp.rules._model_config import spec, spec_tokens
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC397"
NAME = "mtp-multi-token"
VLLM_SOURCE = "vllm/config/speculative.py:1491"
CATALOGUE = ("warn.speculative.mtp.multi_token",)

#: Checkpoints whose MTP draft vLLM exempts: by architecture or model type
#: (speculative.py:1041, 1054, 1088) and the draft types they become (:1489).
EXEMPT_ARCHS = frozenset(
    {
        "Step3p5ForCausalLM",
        "Step3p7ForConditionalGeneration",
        "Step5ForCausalLM",
        "Step5ForConditionalGeneration",
    }
)
EXEMPT_TYPES = frozenset(
    {"step5", "step5_vl", "inkling_mm_model", "inkling_model"}
    | {"step3p5_mtp", "step5_mtp", "inkling_mtp"}
)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or config.method != "mtp":
        return
    tokens = spec_tokens(config)
    where = speculative_tokens(model)
    if tokens is None or tokens <= 1 or where is None:
        return
    checkpoint = draft_checkpoint(model, config.method)
    unless = ""
    if checkpoint is None:
        unless = " (unless the model is Step-3.5, Step-5 or Inkling, whose MTP drafts are exempt)"
    elif checkpoint.method != "mtp" or (
        checkpoint.config.model_type in EXEMPT_TYPES
        or EXEMPT_ARCHS.intersection(checkpoint.config.architectures)
    ):
        return
    yield finding(
        CODE,
        Severity.INFO,
        where.where,
        "Enabling num_speculative_tokens > 1 will run multiple times of forward on same MTP "
        f"layer,which may result in lower acceptance rate{unless}. Measure the acceptance "
        "rate, and keep `num_speculative_tokens: 1` if it drops.",
        source=VLLM_SOURCE,
    )
