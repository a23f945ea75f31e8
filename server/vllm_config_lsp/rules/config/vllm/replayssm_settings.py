"""`use-replayssm` with a Mamba backend, buffer or KV connector it cannot work with.

## What vLLM does
`VllmConfig.validate_mamba_cached_kernel` (vllm/config/vllm.py:3454-3553) first refuses a
model without ReplaySSM support, then checks:
- the FlashInfer backend with `replayssm-buffer-len` above 16;
- speculative decoding on a Mamba2 model needs `mamba-backend: flashinfer` and
  `replayssm-buffer-len` >= 1 + `num_speculative_tokens` (KDA models, Kimi Linear, use
  the triton RecoverSSM path instead, so these two are warnings);
- without speculative decoding, a backend other than `triton` or `flashinfer` (the `cpu`
  one is refused on every path);
- a KV connector with a role (P/D disaggregation, KV offload): ReplaySSM's replay buffer
  is not part of the KV cache the connector moves, except for KDA RecoverSSM with
  speculative decoding.

## Example
```yaml
model: nvidia/NVIDIA-Nemotron-Nano-9B-v2
use-replayssm: true
mamba-backend: flashinfer
replayssm-buffer-len: 32
```

## Fixed
```yaml
model: nvidia/NVIDIA-Nemotron-Nano-9B-v2
use-replayssm: true
mamba-backend: flashinfer
replayssm-buffer-len: 16
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    error,
    given,
    json_given,
    removal,
    replace,
    speculative_tokens,
    switched_on,
    warning,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC337"
NAME = "replayssm-settings"
VLLM_SOURCE = "vllm/config/vllm.py:3484"
CATALOGUE = (
    "vllm.replayssm.fi_buffer",
    "vllm.replayssm.backend",
    "vllm.replayssm_spec.backend",
    "vllm.replayssm_spec.buffer",
    "vllm.replayssm.kv_connector",
)

BACKEND_SOURCE = "vllm/config/vllm.py:3533"
SPEC_BACKEND_SOURCE = "vllm/config/vllm.py:3522"
SPEC_BUFFER_SOURCE = "vllm/config/vllm.py:3515"
CONNECTOR_SOURCE = "vllm/config/vllm.py:3549"
DEFAULT_BUFFER = 16
KDA = " This applies unless the model is a KDA model (Kimi Linear), which uses RecoverSSM."


def check(model: ConfigModel) -> Iterator[Finding]:
    use = switched_on(model, "use-replayssm")
    if use is None:
        return
    backend = given(model, "mamba-backend")
    name = str(backend.value).lower() if backend is not None else "triton"
    buffer = given(model, "replayssm-buffer-len")
    length = buffer.value if buffer is not None else DEFAULT_BUFFER
    tokens = speculative_tokens(model)
    spec = tokens is not None and tokens.value > 0
    if backend is not None and name == "flashinfer" and buffer is not None and length > 16:
        yield error(
            CODE,
            buffer,
            "FlashInfer ReplaySSM requires --replayssm-buffer-len <= 16",
            VLLM_SOURCE,
            [replace(model, buffer, "16", "Use 16")],
        )
    if backend is not None and name not in ("triton", "flashinfer"):
        yield error(
            CODE,
            backend,
            "--use-replayssm requires --mamba-backend triton or flashinfer",
            BACKEND_SOURCE,
            [
                replace(
                    model, backend, "flashinfer" if spec else "triton", "Use a ReplaySSM backend"
                )
            ],
        )
    elif spec and tokens is not None:
        if name != "flashinfer":
            yield warning(
                CODE,
                backend or use,
                "Mamba2 ReplaySSM speculative decoding requires --mamba-backend flashinfer." + KDA,
                SPEC_BACKEND_SOURCE,
                [replace(model, backend, "flashinfer", "Use `flashinfer`")] if backend else [],
            )
        query = 1 + tokens.value
        if isinstance(length, int) and length < query:
            yield warning(
                CODE,
                buffer or tokens,
                "FlashInfer ReplaySSM speculative decoding requires --replayssm-buffer-len "
                f">= 1 + num_speculative_tokens ({query}); got {length}." + KDA,
                SPEC_BUFFER_SOURCE,
            )
    kind = json_given(model, "kv-transfer-config", "kv_connector")
    role = json_given(model, "kv-transfer-config", "kv_role")
    if kind is not None and kind.value is not None and role is not None and role.value:
        report = warning if spec else error
        yield report(
            CODE,
            kind,
            "--use-replayssm is incompatible with KV connectors (P/D disaggregation, KV "
            "cache offload)" + ("." + KDA if spec else ""),
            CONNECTOR_SOURCE,
            [removal(model, use, "Remove `use-replayssm`")],
        )
