"""`decode-context-parallel-size` does not fit the tensor/prefill-context parallel sizes.

## What vLLM does
`ParallelConfig._validate_parallel_config` (vllm/config/parallel.py:593-607), run when the
engine config is built: without prefill context parallelism (PCP = 1), decode context
parallelism reuses the tensor-parallel ranks, so TP must be a multiple of DCP
(`tp_size=4 must be divisible by dcp_size=3.`). With PCP > 1, DCP must be 1, PCP, or
TP x PCP (it can only span whole axes).

## Example
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
tensor-parallel-size: 4
decode-context-parallel-size: 3
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
tensor-parallel-size: 4
decode-context-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, field_value, first_given, is_int
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC315"
NAME = "context-parallel-sizes"
VLLM_SOURCE = "vllm/config/parallel.py:600"
CATALOGUE = ("parallel.dcp_divides_tp", "parallel.dcp_with_pcp")

PCP_SOURCE = "vllm/config/parallel.py:602"
CLASS = "ParallelConfig"


def dcp_sizes(tp: int) -> str:
    """The decode context parallel sizes a tensor-parallel size allows, as advice."""
    sizes = [n for n in range(1, tp + 1) if tp % n == 0]
    return (
        "Decode context parallelism splits the tensor-parallel ranks: with "
        f"TP={tp} use one of {sizes}."
    )


def check(model: ConfigModel) -> Iterator[Finding]:
    tp = field_value(model, CLASS, "tensor_parallel_size")
    pcp = field_value(model, CLASS, "prefill_context_parallel_size")
    dcp = field_value(model, CLASS, "decode_context_parallel_size")
    if not (is_int(tp) and is_int(pcp) and is_int(dcp)) or min(tp, pcp, dcp) < 1:
        return  # Field(ge=1) refuses these first
    anchor = first_given(
        model,
        CLASS,
        "decode_context_parallel_size",
        "tensor_parallel_size",
        "prefill_context_parallel_size",
    )
    if anchor is None:
        return
    if pcp == 1:
        if tp % dcp != 0:
            yield error(
                CODE,
                anchor,
                f"tp_size={tp} must be divisible by dcp_size={dcp}. {dcp_sizes(tp)}",
                VLLM_SOURCE,
            )
        return
    valid = sorted({1, pcp, tp * pcp})
    if dcp not in valid:
        yield error(
            CODE,
            anchor,
            "When PCP is enabled, DCP must be disabled, span the PCP axis, or span the "
            f"full TP x PCP axis. Got TP={tp}, PCP={pcp}, DCP={dcp}; valid DCP sizes are "
            f"{valid}.",
            PCP_SOURCE,
        )
