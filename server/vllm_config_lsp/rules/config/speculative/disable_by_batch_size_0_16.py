"""`disable_by_batch_size` below 2, which vLLM 0.8.5 to 0.16.0 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC356`),
`SpeculativeConfig._verify_args` refuses a batch-size threshold for turning speculation off
below 2: "Expect the batch size threshold of disabling speculative decoding is > 1, but got
self.disable_by_batch_size=1" (vllm/config/__init__.py:2366-2370 in 0.10.2). Speculation
is skipped once more requests than this are running; at 1 it would never run. From 0.11.2
the field has the bound too (`ge=2`), which refuses first (VC203); 0.17.1 on keep only that.

## Example
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config: '{"method": "ngram", "num_speculative_tokens": 3, "disable_by_batch_size": 1}'
```

## Fixed
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config: '{"method": "ngram", "num_speculative_tokens": 3, "disable_by_batch_size": 8}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_number, spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC356"
NAME = "disable-by-batch-size-0-16"
#: Gone from the release the other rules transcribe: read from 0.10.2 (the oracle's
#: release), run for the releases whose wheel has the same check.
TRANSCRIBES = "0.10.2"
VLLM_SOURCE = "vllm/config/__init__.py:2368"


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    threshold = as_number(config.value("disable_by_batch_size")) if config else None
    if config is None or threshold is None or threshold >= 2 or threshold != int(threshold):
        return  # a fraction is pydantic's to refuse (not an int)
    yield finding(
        CODE,
        Severity.ERROR,
        config.span("disable_by_batch_size"),
        "Expect the batch size threshold of disabling speculative decoding is > 1, but got "
        f"self.disable_by_batch_size={int(threshold)}. vLLM {model.version} refuses to start: set "
        "`disable_by_batch_size` to 2 or more (speculation pauses above that many running "
        "requests), or remove it.",
        source=VLLM_SOURCE,
    )
