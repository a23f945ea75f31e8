"""`draft_tensor_parallel_size` is neither 1 nor the target's tensor-parallel size.

## What vLLM does
A draft model runs either on one GPU or sharded exactly like the target.
`SpeculativeConfig._verify_and_get_draft_tp` stops the start with
`speculative_draft_tensor_parallel_size=N cannot be other value than 1 or target model
tensor_parallel_size` (vllm/config/speculative.py:1849-1870) when the engine config is
built, for methods that load a draft (`draft_model`, `eagle`, `eagle3`, `mtp`, …; n-gram,
suffix and custom proposers have none).

## Example
```yaml
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 4
speculative-config:
  model: meta-llama/Llama-3.2-1B-Instruct
  num_speculative_tokens: 4
  draft_tensor_parallel_size: 2
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

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._model_config import as_number, plain, spec
from vllm_config_lsp.rules.config.speculative.spec_draft_model_unsupported import refusal
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC463"
NAME = "spec-draft-tensor-parallel"
VLLM_SOURCE = "vllm/config/speculative.py:1866"
CATALOGUE = ("spec.draft_tp",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or not config.uses_draft:
        return
    if refusal(model) is not None:
        return  # the release stops at the draft model first (VC471)
    draft = as_number(config.value("draft_tensor_parallel_size"))
    given = plain(model, "tensor-parallel-size")
    tp = given.value if given is not None and isinstance(given.value, int) else 1
    if draft is None or draft in (1, tp):
        return
    where = config.span("draft_tensor_parallel_size")
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        f"speculative_draft_tensor_parallel_size={draft} cannot be other value than 1 or "
        f"target model tensor_parallel_size (here {tp}).",
        source=VLLM_SOURCE,
        fixes=[Fix("Use 1", (TextEdit(*where, "1"),), safe=False, preferred=True)],
    )
