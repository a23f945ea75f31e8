"""Returning routed experts (`enable-return-routed-experts`) from a model without experts.

## What vLLM does
`--enable-return-routed-experts` turns on the auxiliary output, which
`VllmConfig._verify_aux_output_compatibility` (vllm/config/vllm.py:1187-1206) checks before
anything else: it needs Model Runner V2, a generate runner and then a mixture-of-experts
model (`ModelConfig.is_moe`: an expert count above 0 in config.json, read from
`num_experts`, `moe_num_experts`, `n_routed_experts` or `num_local_experts`). A dense model
is refused with `AuxOutput Connector only supports MoE models.`; on a host without Model
Runner V2 the same configuration is refused one check earlier, so it never starts.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
enable-return-routed-experts: true
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, removal, switched_on
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC628"
NAME = "aux-output-dense-model"
VLLM_SOURCE = "vllm/config/vllm.py:1206"
CATALOGUE = ("vllm.aux.moe",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    enabled = switched_on(model, "enable-return-routed-experts")
    if config is None or enabled is None or config.num_experts > 0:
        return
    yield error(
        CODE,
        enabled,
        "AuxOutput Connector only supports MoE models. "
        f"{config.where.name} is a dense model (no experts in its config.json), so it has "
        "no routed experts to return.",
        VLLM_SOURCE,
        [removal(model, enabled)],
    )
