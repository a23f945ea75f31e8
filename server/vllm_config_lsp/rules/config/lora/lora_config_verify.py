"""LoRA limits that vLLM 0.6.6 to 0.10.2 refuse in `LoRAConfig.__post_init__`.

## What vLLM does
Up to the releases this rule names (`vllm-config-lsp rules VC359`), with `enable-lora`,
`LoRAConfig.__post_init__` refuses (vllm/config/lora.py:104-121 in 0.10.2): a
`max-lora-rank` outside `(8, 16, 32, 64, 128, 256, 320, 512)` (0.6.6 and 0.7.3: up to 256)
("max_lora_rank (24) must be one of (8, 16, 32, 64, 128, 256, 320, 512)."), a
`lora-extra-vocab-size` outside `(256, 512)` (0.6.6 and 0.7.3 also take 0), `max-loras`
below 1, and `max-cpu-loras` below `max-loras` (a `max-cpu-loras` of 0 or less is passed
as unset: it becomes `max-loras`). Later releases check the rank through argparse choices
and the others through pydantic bounds or in other words (VC430).

## Example
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
enable-lora: true
max-lora-rank: 24
```

## Fixed
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
enable-lora: true
max-lora-rank: 32
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import is_int
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.catalogue import version_key
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC359"
NAME = "lora-config-verify"
#: Gone from the release the other rules transcribe: read from 0.10.2, run for the
#: releases whose wheel has the same checks.
TRANSCRIBES = "0.10.2"
SOURCE = "vllm/config/lora.py:{}"
VLLM_SOURCE = "vllm/config/lora.py:107"
#: The raise lines of 0.10.2: rank, extra vocabulary, max-loras, max-cpu-loras.
LINES = (107, 111, 115, 119)
FLAGS = ("enable-lora", "max-lora-rank", "lora-extra-vocab-size", "max-loras", "max-cpu-loras")


def _choices(version: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`possible_max_ranks` and `possible_lora_extra_vocab_size` of the release."""
    if version_key(version) < (0, 8):
        return (8, 16, 32, 64, 128, 256), (0, 256, 512)
    return (8, 16, 32, 64, 128, 256, 320, 512), (256, 512)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, *FLAGS)
    if a is None or a["enable_lora"].value is not True:
        return
    ranks, vocab = _choices(model.version)
    rank, extra = a["max_lora_rank"], a["lora_extra_vocab_size"]
    loras, cpu = a["max_loras"], a["max_cpu_loras"]
    said = None
    if rank.explicit and is_int(rank.value) and rank.value not in ranks:
        said = rank, 107, f"max_lora_rank ({rank.value}) must be one of {ranks}."
    elif extra.explicit and is_int(extra.value) and extra.value not in vocab:
        said = extra, 111, f"lora_extra_vocab_size ({extra.value}) must be one of {vocab}."
    elif loras.explicit and is_int(loras.value) and loras.value < 1:
        said = loras, 115, f"max_loras ({loras.value}) must be >= 1."
    elif (
        cpu.explicit
        and is_int(cpu.value)
        and cpu.value > 0
        and is_int(loras.value)
        and cpu.value < loras.value
    ):
        said = cpu, 119, f"max_cpu_loras ({cpu.value}) must be >= max_loras ({loras.value})"
    if said is None:
        return
    where, line, message = said
    yield finding(
        CODE,
        Severity.ERROR,
        where.where,
        f"{message} vLLM {model.version} refuses to start with LoRA enabled.",
        source=SOURCE.format(line),
    )
