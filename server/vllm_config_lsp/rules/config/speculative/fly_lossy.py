"""FLy verification (`rejection_sample_method: fly`): lossy, as vLLM cautions.

## What vLLM does
Once FLy's settings pass `SpeculativeConfig._verify_args` (VC467), vLLM cautions "FLy
verification is a lossy speculative decoding method and may degrade model outputs."
(vllm/config/speculative.py:2031-2034) and starts with it: drafts are accepted more
loosely than the target model would sample them. Information: the setting applies as
written.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 4
  rejection_sample_method: fly
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import spec, spec_tokens
from vllm_config_lsp.rules.config.speculative.spec_fly import refusal
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC388"
NAME = "fly-lossy"
VLLM_SOURCE = "vllm/config/speculative.py:2031"
CATALOGUE = ("warn.speculative.fly.lossy",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or config.value("rejection_sample_method") != "fly":
        return
    if spec_tokens(config) is None or refusal(config) is not None:
        return  # not known, or refused first (VC467)
    yield finding(
        CODE,
        Severity.INFO,
        config.span("rejection_sample_method"),
        "FLy verification is a lossy speculative decoding method and may degrade model "
        "outputs. Drafts are accepted more loosely than the target model would sample "
        "(`rejection_sample_method: standard` keeps the outputs exact).",
        source=VLLM_SOURCE,
    )
