"""`quantization` names a different method than the checkpoint was quantized with.

## What vLLM does
`ModelConfig._verify_quantization` (vllm/config/model.py:1383-1462) reads the checkpoint's
`quantization_config.quant_method` (normalised: lower case, ModelOpt by `quant_algo`,
`compressed_tensors` → `compressed-tensors`). Some methods may take over a checkpoint of
another format (`override_quantization_method`): ModelOpt, auto-round (→ `inc`), GPT-OSS
MXFP4 and `humming` always do; AWQ/GPTQ checkpoints may run as `awq_marlin`/`gptq_marlin`
or `moe_wna16` depending on the GPU. Anything else that differs from the checkpoint stops
the start with `Quantization method specified in the model config (awq) does not match the
quantization method specified in the quantization argument (gptq).` Leaving `quantization`
out lets vLLM take the checkpoint's method. A quantization method on an unquantized
checkpoint is online quantization and is fine.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct-AWQ
quantization: gptq
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct-AWQ
quantization: awq
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given_field, removal, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC605"
NAME = "quantization-mismatch"
VLLM_SOURCE = "vllm/config/model.py:1457"
CATALOGUE = ("model.quantization.mismatch",)

#: Checkpoint methods an override always claims, whatever `quantization` says
#: (modelopt.py `override_quantization_method`, inc.py, mxfp4.py for gpt_oss).
CLAIMED = ("modelopt", "modelopt_fp4", "modelopt_mixed", "modelopt_mxfp8", "mxfp8", "auto-round")
#: User methods that may run an AWQ/GPTQ checkpoint, depending on the GPU
#: (auto_awq.py:263, auto_gptq.py:214, moe_wna16.py:145).
FAMILY = {
    "awq": ("awq_marlin", "auto_awq", "moe_wna16"),
    "gptq": ("gptq_marlin", "auto_gptq", "moe_wna16"),
}
#: User methods whose override accepts any checkpoint (humming.py:179).
ALWAYS = ("humming",)
#: User methods that run checkpoints of another method, as public deployments show vLLM
#: starting: `--quantization deepseek_v4_fp8` on DeepSeek-V4-Pro's `fp8` checkpoint
#: (SemiAnalysisAI/InferenceX benchmarks/single_node/fixed_seq_len/dsv4_fp8_h200.sh,
#: tests/corpus/real/inferencex-dsv4-pro-fp8-h200-quant-no-autotune-v0.25.1.yaml).
RUNS = {"deepseek_v4_fp8": ("fp8",)}


def accepted(checkpoint: str, requested: str, model_type: str) -> bool:
    if requested == checkpoint or requested in ALWAYS or checkpoint in CLAIMED:
        return True
    if checkpoint in ("mxfp4", "gpt_oss_mxfp4") and model_type == "gpt_oss":
        return True
    return requested in FAMILY.get(checkpoint, ()) or checkpoint in RUNS.get(requested, ())


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    quant = given_field(model, "ModelConfig", "quantization")
    if config is None or quant is None or not isinstance(quant.value, str):
        return
    checkpoint = config.quant_method
    online = model.catalogue.value_sets.get("online_quantization_shorthands")
    if quant.value == "online" or (online is not None and quant.value in online):
        return  # online quantization is resolved before this check: not modelled here
    if checkpoint is None or accepted(checkpoint, quant.value, config.model_type):
        return
    yield error(
        CODE,
        quant,
        f"Quantization method specified in the model config ({checkpoint}) does not match "
        f"the quantization method specified in the `quantization` argument ({quant.value}). "
        f"{config.where.name} is a {checkpoint} checkpoint: leave `quantization` out to use "
        "it.",
        VLLM_SOURCE,
        [
            removal(model, quant, f"Remove `{quant.written}` (vLLM reads {checkpoint})"),
            replace(
                model, quant, checkpoint, f"Set {quant.written} to {checkpoint}", preferred=False
            ),
        ],
    )
