"""LoRA on an Inkling model while the serving host keeps Inkling's fused all-reduce on.

## What vLLM does
`LoRAConfig.verify_with_model_config` refuses LoRA for any architecture with `Inkling` in
its name unless the environment sets `INKLING_MULTIMEM_AR=0`: `Inkling LoRA requires
INKLING_MULTIMEM_AR=0: the Lamport fused-collective path bypasses the LoRA-wrapped wo_ud
and dense down_proj layers on decode-sized batches, silently dropping their LoRA.`
(vllm/config/lora.py:162-169; unset counts as `1`). The variable belongs to the serving
host, which a config file cannot set: like vLLM, this rule reads the environment it runs
in, so exporting `INKLING_MULTIMEM_AR=0` where the linter runs (and where vLLM runs)
silences it.

## Example
```yaml
model: synthetic/inkling
enable-lora: true
```

## Fixed
```yaml
model: synthetic/inkling
```
"""

import os
from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC637"
NAME = "inkling-lora"
VLLM_SOURCE = "vllm/config/lora.py:165"
CATALOGUE = ("lora.inkling",)

ESCAPE = "INKLING_MULTIMEM_AR"


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    lora = given(model, "enable-lora")
    if config is None or lora is None or lora.value is not True:
        return
    if not any("Inkling" in arch for arch in config.architectures):
        return
    if os.environ.get(ESCAPE, "1") == "0":
        return
    yield error(
        CODE,
        lora,
        "Inkling LoRA requires INKLING_MULTIMEM_AR=0: the Lamport fused-collective path "
        "bypasses the LoRA-wrapped wo_ud and dense down_proj layers on decode-sized batches, "
        f"silently dropping their LoRA. Set {ESCAPE}=0 in the environment vLLM runs in (and "
        "here, to silence this), or serve without LoRA.",
        VLLM_SOURCE,
        [removal(model, lora)],
    )
