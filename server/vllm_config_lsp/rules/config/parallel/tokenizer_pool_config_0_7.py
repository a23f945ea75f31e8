"""A tokenizer pool of another type than ray, or extra config that is not a JSON object, which
vLLM 0.6.6 and 0.7.3 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC841`), a `tokenizer-pool-size`
other than 0 makes `TokenizerPoolConfig.create_config` parse `tokenizer-pool-extra-config`
as JSON and build the pool config, whose `__post_init__` refuses (vllm/config.py:1165-1170
in 0.7.3): a `tokenizer-pool-type` other than `ray` ("Unknown pool type: thread"; the flag is
free text), and extra config that parses to something other than an object ("extra_config
must be a dictionary."). With `tokenizer-pool-size: 0` (the default) neither is read.
Later releases dropped the tokenizer pool (VC120 says so).

## Example
```yaml
# vllm-config: version=0.7.3
tokenizer-pool-size: 4
tokenizer-pool-type: thread
```

## Fixed
```yaml
# vllm-config: version=0.7.3
tokenizer-pool-size: 4
tokenizer-pool-type: ray
```
"""

import json
from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC841"
NAME = "tokenizer-pool-config-0-7"
#: Gone from the release the other rules transcribe (the pool went in 0.8): read from 0.7.3,
#: run for the releases whose wheel has the same checks.
TRANSCRIBES = "0.7.3"
VLLM_SOURCE = "vllm/config.py:1168"
EXTRA_SOURCE = "vllm/config.py:1170"
FLAGS = ("tokenizer-pool-size", "tokenizer-pool-type", "tokenizer-pool-extra-config")


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, *FLAGS)
    if a is None or not a["tokenizer_pool_size"].value:
        return
    kind, extra = a["tokenizer_pool_type"], a["tokenizer_pool_extra_config"]
    if kind.explicit and isinstance(kind.value, str) and kind.value != "ray":
        yield finding(
            CODE,
            Severity.ERROR,
            kind.where,
            f"Unknown pool type: {kind.value}. vLLM {model.version} refuses to start: "
            "its tokenizer pool runs on ray only (`tokenizer-pool-type: ray`), or set "
            "`tokenizer-pool-size: 0` for synchronous tokenization.",
            source=VLLM_SOURCE,
        )
        return  # vLLM stops at the first
    if extra.explicit and isinstance(extra.value, str) and not _object(extra.value):
        yield finding(
            CODE,
            Severity.ERROR,
            extra.where,
            f"extra_config must be a dictionary. vLLM {model.version} refuses to start: "
            "`tokenizer-pool-extra-config` is parsed as JSON and must be an object "
            '(`{"runtime_env": …}`).',
            source=EXTRA_SOURCE,
        )


def _object(text: str) -> bool:
    """JSON that parses to an object; text that does not parse is json's own refusal (not
    this check's), so it counts as an object here."""
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return True
