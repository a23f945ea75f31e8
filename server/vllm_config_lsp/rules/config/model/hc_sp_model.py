"""`enable-hc-sp` with tensor parallelism on a model class that does not implement HC-SP.

## What vLLM does
With `--enable-hc-sp` and `tensor_parallel_size > 1`,
`ModelConfig.verify_with_parallel_config` first requires a CUDA or ROCm host (`--enable-hc-sp
currently requires CUDA or ROCm`), then a model class that implements the `SupportsHCSP`
interface: `--enable-hc-sp is not supported for this model` (vllm/config/model.py:1549-1553).
A model without it is therefore refused on every host, with one message or the other.
Which classes implement it comes from schemas/vllm-0.33.0.models.json (read from vLLM's
sources).

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
enable-hc-sp: true
tensor-parallel-size: 2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import registry_flag, resolve_runner, served, written_arch
from vllm_config_lsp.rules._engine import error, given_field, is_int, removal, switched_on
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC622"
NAME = "hc-sp-model"
VLLM_SOURCE = "vllm/config/model.py:1553"
CATALOGUE = ("model.hc_sp.model",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    enabled = switched_on(model, "enable-hc-sp")
    tp = given_field(model, "ParallelConfig", "tensor_parallel_size")
    if config is None or enabled is None or tp is None or not is_int(tp.value) or tp.value < 2:
        return
    found = resolve_runner(model)
    if found is None or registry_flag(model, found.arch, "supports_hc_sp") is not False:
        return
    yield error(
        CODE,
        enabled,
        f"--enable-hc-sp is not supported for this model: {written_arch(config, found.arch)} "
        f"({config.where.name}) does not implement `SupportsHCSP`. (On a host without "
        "CUDA or ROCm vLLM stops one step earlier: `--enable-hc-sp currently requires "
        "CUDA or ROCm`.)",
        VLLM_SOURCE,
        [removal(model, enabled)],
    )
