"""The file is not valid YAML.

## What vLLM does
`vllm serve --config` reads the file with `yaml.safe_load`; a syntax error aborts the start
with PyYAML's message. The rest of the file is still checked here, skipping the broken line.

## Example
```yaml
model: Qwen/Qwen3-8B
max-model-len: [4096
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
max-model-len: 4096
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC001"
NAME = "yaml-syntax"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:646"


def check(model: ConfigModel) -> Iterator[Finding]:
    if model.origin is None:
        return
    for problem in model.origin.parsed.problems:
        yield finding(
            CODE,
            Severity.ERROR,
            (problem.start, problem.end),
            f"{problem.message} (YAML syntax error: vLLM cannot read the file)",
            source=VLLM_SOURCE,
        )
