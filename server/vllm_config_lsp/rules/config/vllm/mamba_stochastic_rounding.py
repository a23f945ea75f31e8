"""Stochastic rounding of the Mamba cache without a float16 SSM cache.

## What vLLM does
`VllmConfig.__post_init__` refuses `enable_stochastic_rounding` (the
`--enable-mamba-cache-stochastic-rounding` flag) unless
`mamba_ssm_cache_dtype` is `float16` (vllm/config/vllm.py:1592-1604): the rounding
targets the float16 SSM state. It applies to every model. With `mamba-ssm-cache-dtype`
unset (`auto`) vLLM refuses too, except for the few hybrid models whose config hook fills
in the SSM dtype (vllm/model_executor/models/config.py:812-979): NemotronH takes the
checkpoint's `mamba_ssm_cache_dtype` (else float32), Qwen3.5 and its descendants its
`mamba_ssm_dtype`. When the model's config.json is at hand, the rule reads it as the hook
does (an error unless that gives float16); without it, a warning.

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
from vllm_config_lsp.rules._checkpoint import served
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
    hooked = _hook_dtype(model)
    if hooked is not None:
        if hooked != "float16":
            yield error(
                CODE,
                rounding,
                f"{MESSAGE} The SSM cache dtype is `auto`, and this model's config makes it "
                f"{hooked}.",
                VLLM_SOURCE,
                [fix],
            )
        return
    yield warning(
        CODE,
        rounding,
        f"{MESSAGE} The SSM cache dtype is `auto`: vLLM refuses this unless the model's "
        "own config sets float16 SSM state (NemotronH, Qwen3.5 hooks).",
        VLLM_SOURCE,
        [fix],
    )


#: Architectures whose config hook reads the SSM dtype from the checkpoint:
#: (architectures, config.json key, value when the key is absent).
HOOKS = (
    (
        ("NemotronHForCausalLM", "NemotronHPuzzleForCausalLM", "NemotronH_Nano_VL_V2"),
        "mamba_ssm_cache_dtype",
        "float32",
    ),
    (
        (
            "Qwen3_5ForCausalLM",
            "Qwen3_5ForConditionalGeneration",
            "Qwen3_5MoeForCausalLM",
            "Qwen3_5MoeForConditionalGeneration",
            "Qwen4ExpForCausalLM",
            "Qwen4ExpForConditionalGeneration",
            "Qwen4ExpMTP",
            "ColQwen3_5",
            "D3ForSequenceClassification",
        ),
        "mamba_ssm_dtype",
        "auto",
    ),
)


def _hook_dtype(model: ConfigModel) -> str | None:
    """The SSM cache dtype vLLM ends up with for `auto`, from the model's config.json
    (None: the files are not at hand, or `hf-overrides` may change the architecture)."""
    config = served(model)
    if config is None or config.architecture is None or model.flag("hf-overrides"):
        return None
    for architectures, key, absent in HOOKS:
        if config.architecture in architectures:
            value = config.get(key)
            return str(value) if value is not None else absent
    return "auto"
