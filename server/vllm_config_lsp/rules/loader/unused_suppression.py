"""A suppression comment names a rule that reports nothing there, or no rule at all.

## What vLLM does
Nothing: `# vllm-config: disable=CODE` comments are this linter's, and vLLM's YAML loader
skips comments. A suppression that no longer hides anything (the problem was fixed, the
line moved, or the code is misspelt) would silently hide the next real problem on that
line, so it is reported, like ruff's unused `noqa`. Unused codes are found by the engine
after all rules ran (`suppression.apply`); this module reports the codes no rule has.

## Example
```yaml
model: Qwen/Qwen3-8B
max-num-seqs: 256  # vllm-config: disable=VC101
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
max-num-seqs: 256
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules.suppression import UNUSED_CODE, comments
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = UNUSED_CODE
NAME = "unused-suppression"
VLLM_SOURCE = None


def check(model: ConfigModel) -> Iterator[Finding]:
    from vllm_config_lsp.rules import all_rules

    known = {rule.code for rule in all_rules()}
    for comment in comments(model):
        for directive in comment.directives:
            if not directive.codes:
                yield Finding(
                    CODE,
                    Severity.INFO,
                    directive.start,
                    directive.end,
                    f"`{directive.kind}=` names no rule code (write e.g. `{directive.kind}=VC101`)",
                )
            for ref in directive.codes:
                if ref.code in known:
                    continue
                yield Finding(
                    CODE,
                    Severity.INFO,
                    ref.start,
                    ref.end,
                    f"`{ref.code}` is not a vllm-config rule code (`vllm-config-lsp rules` "
                    "lists them)",
                    fixes=(
                        Fix(
                            f"Remove `{ref.code}`",
                            (TextEdit(ref.start, ref.end, ""),),
                            safe=False,
                        ),
                    ),
                )
