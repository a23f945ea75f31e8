"""`num_speculative_tokens` without a draft `model` in the older releases whose
`SpeculativeConfig` knows only `mtp`, `ngram` and `suffix` as methods that need none.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC348`), `SpeculativeConfig.__post_init__`
settles `model` when `num_speculative_tokens` is set without one: `mtp` (and the MTP
variants such as `deepseek_mtp`, renamed to `mtp` first) reuses the target model, `ngram`
(`[ngram]`) and `suffix` need no weights. Every other method, and no method at all, stops
the start with `num_speculative_tokens was provided but without speculative model.`
(vllm/config/speculative.py:241-268 in 0.11.2). Later releases keep the check but add
methods that bring their own proposer (`dspark`, `ngram_gpu`, `extract_hidden_states`) and
default a missing method to `draft_model` (VC302).

## Example
```yaml
# vllm-config: version=0.11.2
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config: '{"num_speculative_tokens": 3}'
```

## Fixed
```yaml
# vllm-config: version=0.11.2
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config: '{"method": "ngram", "num_speculative_tokens": 3}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.config.speculative.speculative_tokens_without_model import without_model
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC348"
NAME = "speculative-tokens-without-model-0-11"
#: The check's branches changed in the release the other rules transcribe: this one is
#: read from 0.11.2, and runs for the releases whose wheel has the same check.
TRANSCRIBES = "0.11.2"
VLLM_SOURCE = "vllm/config/speculative.py:266"

#: Methods whose branch fills `model` itself (speculative.py:247-264 in 0.11.2).
SELF_SUFFICIENT = ("mtp", "ngram", "[ngram]", "suffix")


def check(model: ConfigModel) -> Iterator[Finding]:
    found = without_model(model)
    if found is None:
        return
    tokens, method, mtp_types = found
    if method in mtp_types.values or method in SELF_SUFFICIENT:
        return
    why = "no `method` is given" if method is None else f"method `{method}` needs a checkpoint"
    yield finding(
        CODE,
        Severity.ERROR,
        tokens[1],
        "num_speculative_tokens was provided but without speculative model. In vLLM "
        f"{model.version} {why}: add `model: <draft>` to speculative-config, or use "
        "`ngram` or `suffix` (no weights) or `mtp` (the target's own MTP layers).",
        source=VLLM_SOURCE,
    )
