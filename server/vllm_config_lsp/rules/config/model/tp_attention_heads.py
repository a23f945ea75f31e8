"""`tensor-parallel-size` does not divide the model's number of attention heads.

## What vLLM does
Tensor parallelism splits every attention layer by heads, so each GPU must get a whole
number of them. `ModelConfig.verify_with_parallel_config` refuses the start with
`Total number of attention heads (28) must be divisible by tensor parallel size (8).`
(vllm/config/model.py:1557-1563), after the model's config.json has been read: on a GPU
node, minutes into the start. The head count is `num_attention_heads` of the language
model's config (`text_config` for a multimodal model). The fixes offer the nearest sizes
that divide it, a power of two first (GPU counts usually are).

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
tensor-parallel-size: 8
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
tensor-parallel-size: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given_field, is_int, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC601"
NAME = "tp-attention-heads"
VLLM_SOURCE = "vllm/config/model.py:1560"
CATALOGUE = ("model.tp.heads",)


def nearest_divisors(total: int, wanted: int) -> list[int]:
    """Sizes dividing `total` near `wanted`: the largest power of two below it, then the
    closest divisors below and above."""
    divisors = [d for d in range(1, total + 1) if total % d == 0]
    below = [d for d in divisors if d < wanted]
    above = [d for d in divisors if d > wanted]
    powers = [d for d in below if d & (d - 1) == 0]
    picks = [powers[-1]] if powers else []
    picks += below[-1:] + above[:1]
    return list(dict.fromkeys(picks))


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    tp = given_field(model, "ParallelConfig", "tensor_parallel_size")
    if config is None or tp is None or not is_int(tp.value) or tp.value < 1:
        return
    heads = config.num_attention_heads
    if not heads or heads % tp.value == 0:
        return
    fixes: list[Fix | None] = [
        replace(model, tp, str(size), f"Set {tp.written} to {size}", preferred=i == 0)
        for i, size in enumerate(nearest_divisors(heads, tp.value))
    ]
    yield error(
        CODE,
        tp,
        f"Total number of attention heads ({heads}) must be divisible by tensor parallel "
        f"size ({tp.value}). {config.where.name} has {heads} heads: use a size that "
        "divides it.",
        VLLM_SOURCE,
        fixes,
    )
