"""Stochastic rounding of the Mamba cache without a float16 SSM cache.

## What vLLM does
`VllmConfig.__post_init__` refuses `enable_stochastic_rounding` (the
`--enable-mamba-cache-stochastic-rounding` flag) unless
`mamba_ssm_cache_dtype` is `float16` (vllm/config/vllm.py:1592-1604): the rounding
targets the float16 SSM state. It applies to every model. With `mamba-ssm-cache-dtype`
unset (`auto`) vLLM refuses too, except for the few hybrid models whose config hook fills
in the SSM dtype (NemotronH, Qwen3.5 read it from the checkpoint): a warning then.

## Example
```yaml
model: nvidia/NVIDIA-Nemotron-Nano-9B-v2
enable-mamba-cache-stochastic-rounding: true
mamba-ssm-cache-dtype: float32
```

## Fixed
```yaml
model: nvidia/NVIDIA-Nemotron-Nano-9B-v2
enable-mamba-cache-stochastic-rounding: true
mamba-ssm-cache-dtype: float16
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import add_flag, error, given, replace, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC325"
NAME = "mamba-stochastic-rounding-fp16"
VLLM_SOURCE = "vllm/config/vllm.py:1599"
CATALOGUE = ("vllm.mamba_sr.fp16",)

MESSAGE = (
    "Stochastic rounding for Mamba cache requires the SSM cache to be float16. Please "
    "set it explicitly, by specifying `--mamba-ssm-cache-dtype float16`, or disable "
    "stochastic rounding by not specifying `--enable-mamba-cache-stochastic-rounding`."
)


def check(model: ConfigModel) -> Iterator[Finding]:
    rounding = given(model, "enable-mamba-cache-stochastic-rounding")
    if rounding is None or rounding.value is not True:
        return
    ssm = given(model, "mamba-ssm-cache-dtype")
    if ssm is not None and ssm.value == "float16":
        return
    if ssm is not None and ssm.value != "auto":
        yield error(
            CODE,
            ssm,
            f"{MESSAGE} (`{ssm.label}` is `{ssm.value}`.)",
            VLLM_SOURCE,
            [replace(model, ssm, "float16", "Use `float16`")],
        )
        return
    fix = add_flag(model, rounding, "mamba-ssm-cache-dtype", "float16") if ssm is None else None
    yield warning(
        CODE,
        rounding,
        f"{MESSAGE} The SSM cache dtype is `auto`: vLLM refuses this unless the model's "
        "own config sets float16 SSM state (NemotronH, Qwen3.5 hooks).",
        VLLM_SOURCE,
        [fix],
    )
