"""An n-gram window bound below 1, which vLLM 0.8.5 to 0.10.2 refuse themselves.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC349`), for `method: ngram` (or
`model: ngram` / `[ngram]`) `SpeculativeConfig.__post_init__` copies a missing bound from
the other one (both missing: 5 and 5), then refuses `prompt_lookup_min` below 1 with
"prompt_lookup_min=0 must be > 0" and `prompt_lookup_max` below 1 with
"prompt_lookup_max=0 must be > 0" (vllm/config/__init__.py:2089-2094 in 0.10.2). Later
releases put the bound on the fields (pydantic's `ge=1`: VC203). A window of 0 tokens
matches nothing.

## Example
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config: '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_min": 0}'
```

## Fixed
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config: '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_min": 1}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_number, spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC349"
NAME = "ngram-lookup-positive-0-10"
#: Gone from the release the other rules transcribe (a field bound took its place): read
#: from 0.10.2, run for the releases whose wheel has the same check.
TRANSCRIBES = "0.10.2"
VLLM_SOURCE = "vllm/config/__init__.py:2091"
MAX_SOURCE = "vllm/config/__init__.py:2094"


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or config.method != "ngram":
        return
    low = as_number(config.value("prompt_lookup_min"))
    high = as_number(config.value("prompt_lookup_max"))
    low = high if low is None else low  # vLLM copies the bound given (__init__.py:2077-2087)
    high = low if high is None else high
    if low is None or high is None:
        return  # neither given: 5 and 5
    for key, other, bound, source in (
        ("prompt_lookup_min", "prompt_lookup_max", low, VLLM_SOURCE),
        ("prompt_lookup_max", "prompt_lookup_min", high, MAX_SOURCE),
    ):
        if bound < 1:
            yield finding(
                CODE,
                Severity.ERROR,
                config.span(key if config.has(key) else other),
                f"{key}={_shown(bound)} must be > 0: vLLM {model.version} refuses to start "
                f"(set `{key}` to 1 or more: the n-gram window counts prompt tokens).",
                source=source,
            )
            return  # vLLM stops at the first


def _shown(number: float) -> str:
    return str(int(number)) if number == int(number) else str(number)
