"""`use-replayssm` with speculative decoding or a Mamba backend other than Triton, which
vLLM 0.27.1-0.29.0 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC833`),
`VllmConfig.validate_mamba_cached_kernel` refuses, after a model without ReplaySSM
support (VC623), any speculative tokens: "--use-replayssm does not support speculative
decoding" (vllm/config/vllm.py:2574-2575 in 0.28.0; 0.29.0 runs Kimi's RecoverSSM there
instead), then any `mamba-backend` but `triton`: "--use-replayssm requires --mamba-backend
triton" (vllm/config/vllm.py:2576-2577; 0.29.0:2893-2894). Every check before these
refuses too, so such a file never starts. 0.30.0 added the FlashInfer kernels and
speculative ReplaySSM (VC337).

## Example
```yaml
# vllm-config: version=0.28.0
model: nvidia/NVIDIA-Nemotron-Nano-9B-v2
use-replayssm: true
mamba-backend: flashinfer
```

## Fixed
```yaml
# vllm-config: version=0.28.0
model: nvidia/NVIDIA-Nemotron-Nano-9B-v2
use-replayssm: true
mamba-backend: triton
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given, replace, speculative_tokens, switched_on
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC833"
NAME = "replayssm-0-28"
#: Gone from the release the other rules transcribe: read from 0.28.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.28.0"
VLLM_SOURCE = "vllm/config/vllm.py:2577"
SPEC_SOURCE = "vllm/config/vllm.py:2575"


def check(model: ConfigModel) -> Iterator[Finding]:
    if switched_on(model, "use-replayssm") is None:
        return
    tokens = speculative_tokens(model)
    if tokens is not None and tokens.value > 0:
        yield error(
            CODE,
            tokens,
            f"--use-replayssm does not support speculative decoding (vLLM {model.version} "
            "replays Mamba states for plain decoding only).",
            SPEC_SOURCE,
        )
        return
    backend = given(model, "mamba-backend")
    if backend is None or str(backend.value).lower() == "triton":
        return
    yield error(
        CODE,
        backend,
        f"--use-replayssm requires --mamba-backend triton (vLLM {model.version} has "
        "ReplaySSM kernels for Triton only).",
        VLLM_SOURCE,
        [replace(model, backend, "triton", "Use `triton`")],
    )
