"""An attention backend name that vLLM does not have.

## What vLLM does
Attention backends are looked up by `AttentionBackendEnum[value.upper()]`, which stops the
start with `Unknown attention backend: 'X'. Valid options are: …`
(vllm/v1/attention/backends/registry.py:21-31). The lookup happens for
`--attention-backend` when the engine config is built (vllm/engine/arg_utils.py:2735), for
`attention-config.backend` and each `backend_per_kind` value while the arguments are parsed
(vllm/config/attention.py:216-262), for `speculative-config.attention_backend` when the
speculative config is built (vllm/config/speculative.py:1931-1936), and for
`mm-encoder-attn-backend` when the multimodal config is built (multimodal models only;
`XFORMERS` has its own message: it was removed) (vllm/config/multimodal.py:496-513).
`auto` means "let vLLM choose" everywhere except in `backend_per_kind` and
`mm-encoder-attn-backend`. Plugins can register more backends with `register_backend`.

## Example
```yaml
model: Qwen/Qwen3-8B
attention-backend: flash_attention
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
attention-backend: FLASH_ATTN
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import (
    MULTIMODAL_GATE,
    Given,
    name_fixes,
    plain,
    raw_node,
    value_set,
)
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC410"
NAME = "attention-backend-name"
VLLM_SOURCE = "vllm/config/attention.py:229"
CATALOGUE = (
    "attention.backend.enum",
    "attention.backend_per_kind.value",
    "spec.attention_backend.enum",
    "mm.encoder_attn.enum",
    "mm.encoder_attn.xformers",
)
SOURCES = {
    "attention-backend": "vllm/engine/arg_utils.py:2735",
    "attention-config": VLLM_SOURCE,
    "backend_per_kind": "vllm/config/attention.py:262",
    "speculative-config": "vllm/config/speculative.py:1935",
    "mm-encoder-attn-backend": "vllm/config/multimodal.py:513",
}
XFORMERS_SOURCE = "vllm/config/multimodal.py:502"


def _candidates(model: ConfigModel) -> Iterator[tuple[str, Given, bool]]:
    """(where it comes from, the value, whether `auto` means "choose")."""
    given = plain(model, "attention-backend")
    if given is not None:
        yield "attention-backend", given, True
    node = raw_node(model, "attention-config", "backend")
    if node is not None:
        yield "attention-config", Given(node.value, (node.start, node.end), ""), True
    per_kind = raw_node(model, "attention-config", "backend_per_kind")
    kinds = {kind.lower() for kind in value_set(model, "kv_cache_spec_kinds")}
    for entry in per_kind.entries or () if per_kind is not None else ():
        if entry.key not in kinds:
            break  # the kind is refused first (VC412)
        value = entry.value
        yield "backend_per_kind", Given(value.value, (value.start, value.end), ""), False
    node = raw_node(model, "speculative-config", "attention_backend")
    if node is not None:
        yield "speculative-config", Given(node.value, (node.start, node.end), ""), True
    given = plain(model, "mm-encoder-attn-backend")
    if given is not None:
        yield "mm-encoder-attn-backend", given, False


def check(model: ConfigModel) -> Iterator[Finding]:
    names = value_set(model, "attention_backends")
    if not names:
        return
    known = set(names)
    for origin, given, auto in _candidates(model):
        value = given.value
        if not isinstance(value, str) or (auto and value.lower() == "auto"):
            continue
        multimodal = origin == "mm-encoder-attn-backend"
        severity = Severity.WARNING if multimodal else Severity.ERROR
        gate = f" {MULTIMODAL_GATE}" if multimodal else ""
        if multimodal and value.upper() == "XFORMERS":
            yield finding(
                CODE,
                severity,
                given.span,
                "Attention backend 'XFORMERS' has been removed (See PR #29262 for details). "
                "Please select a supported attention backend, or remove the option to let "
                f"vLLM choose.{gate}",
                source=XFORMERS_SOURCE,
            )
            continue
        if value.upper() in known:
            continue
        choose = " (or `auto` to let vLLM choose)" if auto else ""
        yield finding(
            CODE,
            severity,
            given.span,
            f"Unknown attention backend: '{value.upper()}'. Valid options are: "
            f"{', '.join(names)}. Use one of these names{choose}; a plugin can register "
            f"more (`register_backend`).{gate}",
            source=SOURCES[origin],
            fixes=name_fixes(given.span, value, names),
        )
