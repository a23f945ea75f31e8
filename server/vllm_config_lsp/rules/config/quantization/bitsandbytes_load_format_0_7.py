"""BitsAndBytes quantization without the bitsandbytes load format, or the other way round, which
vLLM 0.6.6 and 0.7.3 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC842`),
`EngineArgs.create_engine_config` keeps the quantization method and the weight loader
consistent before anything else is built (vllm/engine/arg_utils.py:1106-1120 in 0.7.3):
`quantization: bitsandbytes` (or a `qlora-adapter-name-or-path`) with another
`load-format` is refused with "BitsAndBytes quantization and QLoRA adapter only support
'bitsandbytes' load format, but got auto", and `load-format: bitsandbytes` (or a QLoRA
adapter) with another quantization with "BitsAndBytes load format and QLoRA adapter only
support 'bitsandbytes' quantization, but got None". The default load format is `auto`, so
`quantization: bitsandbytes` alone is refused. vLLM 0.8 on sets the load format itself.
A `.gguf` model file makes both `gguf` first; the rule says nothing for one.

## Example
```yaml
# vllm-config: version=0.7.3
quantization: bitsandbytes
```

## Fixed
```yaml
# vllm-config: version=0.7.3
quantization: bitsandbytes
load-format: bitsandbytes
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args, first_set
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC842"
NAME = "bitsandbytes-load-format-0-7"
#: Gone from the release the other rules transcribe (0.8 sets the load format itself): read
#: from 0.7.3, run for the releases whose wheel has the same checks.
TRANSCRIBES = "0.7.3"
VLLM_SOURCE = "vllm/engine/arg_utils.py:1111"
QUANTIZATION_SOURCE = "vllm/engine/arg_utils.py:1118"
BNB = "bitsandbytes"


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "model", "quantization", "load-format", "qlora-adapter-name-or-path")
    if a is None or str(a["model"].value or "").endswith(".gguf"):
        return
    quantization, load, qlora = a["quantization"], a["load_format"], a["qlora_adapter_name_or_path"]
    adapter = qlora.value is not None
    if (quantization.value == BNB or adapter) and load.value != BNB:
        where, source = first_set(load, quantization, qlora), VLLM_SOURCE
        said = (
            "BitsAndBytes quantization and QLoRA adapter only support 'bitsandbytes' load "
            f"format, but got {load.value}"
        )
        fix = "`load-format: bitsandbytes`"
    elif (load.value == BNB or adapter) and quantization.value != BNB:
        where, source = first_set(quantization, load, qlora), QUANTIZATION_SOURCE
        said = (
            "BitsAndBytes load format and QLoRA adapter only support 'bitsandbytes' "
            f"quantization, but got {quantization.value}"
        )
        fix = "`quantization: bitsandbytes`"
    else:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        where.where,
        f"{said}. vLLM {model.version} refuses to start: add {fix}.",
        source=source,
    )
