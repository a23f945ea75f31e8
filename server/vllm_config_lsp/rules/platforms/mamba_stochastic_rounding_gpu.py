"""`enable-mamba-cache-stochastic-rounding` on a GPU that cannot round stochastically.

## What vLLM does
`MambaConfig.__post_init__` (vllm/config/mamba.py:83-104) refuses it off NVIDIA CUDA:
`Stochastic rounding for Mamba cache is only supported on NVIDIA CUDA platforms. Please do
not specify  `--enable-mamba-cache-stochastic-rounding`.`, and with the default `triton`
Mamba backend outside the SM100 family: `Stochastic rounding for Mamba cache with triton
backend requires compute capability 10.0 (data center Blackwell). The `cvt.rs` PTX
instruction is not supported on your GPU. Please do not specify
`--enable-mamba-cache-stochastic-rounding`, or set `--mamba-backend flashinfer`.`

## Example
```yaml
# vllm-config: gpu=H100-80GB
model: Qwen/Qwen3-8B
enable-mamba-cache-stochastic-rounding: true
mamba-ssm-cache-dtype: float16
```

## Fixed
```yaml
# vllm-config: gpu=H100-80GB
model: Qwen/Qwen3-8B
enable-mamba-cache-stochastic-rounding: true
mamba-ssm-cache-dtype: float16
mamba-backend: flashinfer
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import add_flag, error, field_value, removal, switched_on
from vllm_config_lsp.rules._platform import capability, on_target, vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC705"
NAME = "mamba-stochastic-rounding-gpu"
VLLM_SOURCE = "vllm/config/mamba.py:98"
CATALOGUE = ("mamba.sr.cuda", "mamba.sr.sm100")


def check(model: ConfigModel) -> Iterator[Finding]:
    rounding = switched_on(model, "enable-mamba-cache-stochastic-rounding")
    platform = vendor(model)
    if rounding is None or platform is None:
        return
    remove = removal(model, rounding, f"Remove `{rounding.written}`")
    if platform != "nvidia":
        yield error(
            CODE,
            rounding,
            "Stochastic rounding for Mamba cache is only supported on NVIDIA CUDA platforms. "
            "Please do not specify  `--enable-mamba-cache-stochastic-rounding`." + on_target(model),
            "vllm/config/mamba.py:89",
            [remove],
        )
        return
    device = capability(model)
    backend = field_value(model, "MambaConfig", "backend")
    if device is None or device[0] == 10 or str(backend).lower() != "triton":
        return
    yield error(
        CODE,
        rounding,
        "Stochastic rounding for Mamba cache with triton backend requires compute "
        "capability 10.0 (data center Blackwell). The `cvt.rs` PTX instruction is not "
        "supported on your GPU. Please do not specify "
        "`--enable-mamba-cache-stochastic-rounding`, or set `--mamba-backend flashinfer`."
        + on_target(model),
        VLLM_SOURCE,
        [add_flag(model, rounding, "mamba-backend", "flashinfer"), remove],
    )
