"""`decode-context-parallel-size` does not divide `tensor-parallel-size` (as older releases
assert it).

## What vLLM does
Up to the releases this rule names (`vllm-config-lsp rules VC391`),
`EngineArgs.create_engine_config` asserts that the tensor-parallel size is a multiple of
the decode context parallel size before it builds the cache config: `tp_size=4 must be
divisible bydcp_size=3.` (vllm/engine/arg_utils.py:1398-1406 in 0.11.2; the missing space
is vLLM's). Decode context parallelism reuses the GPUs of a tensor-parallel group and splits
it into TP / DCP groups. Later releases check the same in `ParallelConfig`, together with
prefill context parallelism (VC315).

## Example
```yaml
# vllm-config: version=0.11.2
model: deepseek-ai/DeepSeek-V3
tensor-parallel-size: 8
decode-context-parallel-size: 3
```

## Fixed
```yaml
# vllm-config: version=0.11.2
model: deepseek-ai/DeepSeek-V3
tensor-parallel-size: 8
decode-context-parallel-size: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import Given, error, field_value, first_given, is_int
from vllm_config_lsp.rules.config.parallel.context_parallel_sizes import dcp_sizes
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC391"
NAME = "dcp-divides-tp"
#: The assert is gone from the release the other rules transcribe: this one is read from
#: 0.11.2, and runs for the releases whose wheel has the same check.
TRANSCRIBES = "0.11.2"
VLLM_SOURCE = "vllm/engine/arg_utils.py:1403"

CLASS = "ParallelConfig"


def check(model: ConfigModel) -> Iterator[Finding]:
    found = not_dividing(model)
    if found is not None:
        yield error(CODE, *found, VLLM_SOURCE)


def not_dividing(model: ConfigModel) -> tuple[Given, str] | None:
    """Where the file sets a decode context parallel size that does not divide the
    tensor-parallel size, and vLLM's words for it (the same in the EngineArgs assert and
    in the ParallelConfig raise that replaced it, VC810)."""
    tp = field_value(model, CLASS, "tensor_parallel_size")
    dcp = field_value(model, CLASS, "decode_context_parallel_size")
    if not (is_int(tp) and is_int(dcp)) or min(tp, dcp) < 1 or tp % dcp == 0:
        return None
    anchor = first_given(model, CLASS, "decode_context_parallel_size", "tensor_parallel_size")
    if anchor is None:
        return None
    return anchor, f"tp_size={tp} must be divisible bydcp_size={dcp}. {dcp_sizes(tp)}"
