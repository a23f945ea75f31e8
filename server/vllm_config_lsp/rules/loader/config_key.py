"""A `config:` key inside a config file is ignored.

## What vLLM does
Only the command line's `--config FILE` is expanded (argparse_utils.py:371, before the file
is read); a `config:` key inside the file becomes `--config other.yaml` after expansion and
argparse merely stores the path. The other file is never read.

## Example
```yaml
model: Qwen/Qwen3-8B
config: base.yaml
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, remove_pair_fix, span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC107"
NAME = "config-key"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:371"


def check(model: ConfigModel) -> Iterator[Finding]:
    for use in model.result.uses:
        pair = use.token.pair
        if use.spec.dest != "config" or pair is None:
            continue
        fix = remove_pair_fix(model, pair, safe=True)
        yield finding(
            CODE,
            Severity.WARNING,
            span(pair.key_node),
            "vLLM ignores `config:` inside a config file: only `--config` on the command line "
            "is read. Merge the other file's settings into this one",
            source=VLLM_SOURCE,
            fixes=[fix] if fix else [],
        )
