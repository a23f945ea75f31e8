"""`use-replayssm` on a model class without ReplaySSM kernels.

## What vLLM does
ReplaySSM replays a Mamba layer's cached state updates instead of recomputing them; only
the hybrid models whose class declares `supports_replayssm` (NemotronH) implement it.
`VllmConfig.validate_mamba_cached_kernel` refuses the option for any other model once it
has read config.json: `--use-replayssm is not supported for architecture
'Qwen2ForCausalLM'` (vllm/config/vllm.py:3474-3478). Which classes declare it comes from
schemas/vllm-0.33.0.models.json (read from vLLM's sources).

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
use-replayssm: true
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import registry_flag, resolve_runner, served, written_arch
from vllm_config_lsp.rules._engine import error, removal, switched_on
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC623"
NAME = "replayssm-arch"
VLLM_SOURCE = "vllm/config/vllm.py:3476"
CATALOGUE = ("vllm.replayssm.arch",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    enabled = switched_on(model, "use-replayssm")
    if config is None or enabled is None:
        return
    found = resolve_runner(model)
    if found is None or registry_flag(model, found.arch, "supports_replayssm") is not False:
        return
    shown = written_arch(config, found.arch)
    yield error(
        CODE,
        enabled,
        f"--use-replayssm is not supported for architecture '{shown}': only hybrid Mamba "
        "models whose class declares `supports_replayssm` (NemotronH) have ReplaySSM "
        "kernels.",
        VLLM_SOURCE,
        [removal(model, enabled)],
    )
