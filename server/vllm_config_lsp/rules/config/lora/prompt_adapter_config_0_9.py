"""Prompt adapters turned on without `max-prompt-adapter-token`, or with fewer than one adapter,
which vLLM 0.6.6 to 0.9.2 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC845`), `enable-prompt-adapter`
makes `EngineArgs.create_engine_config` build a `PromptAdapterConfig`, whose
`__post_init__` refuses (vllm/config.py:3069-3075 in 0.9.2) a `max-prompt-adapters` below 1
("max_prompt_adapters (0) must be >= 1.") and a `max-prompt-adapter-token` left at its
default 0 ("max_prompt_adapter_token must be set."): `enable-prompt-adapter: true` alone is
refused. Prompt adapters are a V0 feature: in 0.8.5 and 0.9.2 they make vLLM pick the V0
engine (or refuse `VLLM_USE_V1=1` earlier, in other words). vLLM 0.10 dropped them (VC120).

## Example
```yaml
# vllm-config: version=0.9.2
enable-prompt-adapter: true
```

## Fixed
```yaml
# vllm-config: version=0.9.2
enable-prompt-adapter: true
max-prompt-adapter-token: 64
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import is_int
from vllm_config_lsp.rules._frontend import args, first_set
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC845"
NAME = "prompt-adapter-config-0-9"
#: Gone from the release the other rules transcribe (prompt adapters went in 0.10): read
#: from 0.9.2, run for the releases whose wheel has the same checks.
TRANSCRIBES = "0.9.2"
VLLM_SOURCE = "vllm/config.py:3075"
COUNT_SOURCE = "vllm/config.py:3072"
FLAGS = ("enable-prompt-adapter", "max-prompt-adapters", "max-prompt-adapter-token")


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, *FLAGS)
    if a is None or a["enable_prompt_adapter"].value is not True:
        return
    count, tokens = a["max_prompt_adapters"], a["max_prompt_adapter_token"]
    enabled = a["enable_prompt_adapter"]
    if is_int(count.value) and count.value < 1:
        where, source = first_set(count, enabled), COUNT_SOURCE
        said = f"max_prompt_adapters ({count.value}) must be >= 1."
        fix = "set `max-prompt-adapters` to 1 or more"
    elif tokens.value == 0:
        where, source = first_set(tokens, enabled), VLLM_SOURCE
        said = "max_prompt_adapter_token must be set."
        fix = "add `max-prompt-adapter-token` (the number of virtual tokens of the largest adapter)"
    else:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        where.where,
        f"{said} vLLM {model.version} refuses to start with prompt adapters enabled: {fix}.",
        source=source,
    )
