"""`use-replayssm` with a Mamba backend, buffer or KV connector it cannot work with.

## What vLLM does
`VllmConfig.validate_mamba_cached_kernel` (vllm/config/vllm.py:3454-3553) first refuses a
model without ReplaySSM support, then checks:
- the FlashInfer backend with `replayssm-buffer-len` above 16;
- speculative decoding on a Mamba2 model needs `mamba-backend: flashinfer` and
  `replayssm-buffer-len` >= 1 + `num_speculative_tokens` (KDA models, Kimi Linear, use
  the triton RecoverSSM path instead, so these two are warnings);
- speculative decoding on a Mamba2 model with Mamba prefix caching (`mamba_cache_mode`
  `align`, which `MambaModelConfig.verify_and_update_config` sets for a hybrid model when
  `enable-prefix-caching` is on): "FlashInfer ReplaySSM speculative decoding does not
  support prefix caching; use --disable-prefix-caching" (vllm.py:3509; a warning unless
  the model's config.json shows it is not a KDA model);
- without speculative decoding, the FlashInfer backend with Mamba prefix caching
  (vllm.py:3528), and a backend other than `triton` or `flashinfer` (the `cpu` one is
  refused on every path);
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
from vllm_config_lsp.rules.config.vllm.recoverssm_pipeline import (
    KDA_ARCHITECTURES,
    served_architecture,
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
    "vllm.replayssm_spec.prefix",
    "vllm.replayssm.fi_prefix",
)

BACKEND_SOURCE = "vllm/config/vllm.py:3533"
SPEC_BACKEND_SOURCE = "vllm/config/vllm.py:3522"
SPEC_BUFFER_SOURCE = "vllm/config/vllm.py:3515"
CONNECTOR_SOURCE = "vllm/config/vllm.py:3549"
SPEC_PREFIX_SOURCE = "vllm/config/vllm.py:3509"
FI_PREFIX_SOURCE = "vllm/config/vllm.py:3528"
SPEC_PREFIX_MESSAGE = (
    "FlashInfer ReplaySSM speculative decoding does not support prefix caching; use "
    "--disable-prefix-caching"
)
FI_PREFIX_MESSAGE = (
    "FlashInfer ReplaySSM does not support prefix caching yet; use --disable-prefix-caching"
)
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
    yield from prefix_caching_refusals(
        model,
        CODE,
        (SPEC_PREFIX_SOURCE, SPEC_PREFIX_MESSAGE),
        (FI_PREFIX_SOURCE, FI_PREFIX_MESSAGE),
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


def prefix_caching_refusals(
    model: ConfigModel, code: str, spec: tuple[str, str], flashinfer: tuple[str, str]
) -> Iterator[Finding]:
    """The two Mamba prefix-caching refusals of `validate_mamba_cached_kernel` ((source,
    vLLM's words) of each: 0.32.0 names the cache mode, 0.33.0 prefix caching):
    `enable-prefix-caching: true` turns a hybrid model's `mamba_cache_mode` to `align`
    (`MambaModelConfig.verify_and_update_config`; a model without ReplaySSM support, hybrid
    or not, is refused before). A KDA model that speculates runs RecoverSSM instead."""
    if switched_on(model, "use-replayssm") is None:
        return
    caching = switched_on(model, "enable-prefix-caching")
    if caching is None:
        return
    tokens = speculative_tokens(model)
    if tokens is not None and tokens.value > 0:
        arch = served_architecture(model)
        if arch in KDA_ARCHITECTURES:
            return
        report = error if arch is not None else warning
        source, words = spec
        yield report(code, caching, words + ("." + KDA if arch is None else "."), source)
        return
    backend = given(model, "mamba-backend")
    if backend is not None and str(backend.value).lower() == "flashinfer":
        source, words = flashinfer
        yield error(
            code,
            caching,
            f"{words} (`enable-prefix-caching` makes the Mamba cache mode `align`; or use "
            "`mamba-backend: triton`).",
            source,
        )
