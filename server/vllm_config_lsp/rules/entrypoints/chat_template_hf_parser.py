"""A custom chat template with the `hf` tool-call or reasoning parser: a caution.

## What vLLM does
`validate_parsed_serve_args` (vllm/entrypoints/common/cli_args.py:544) warns when
`chat-template` is set and `tool-call-parser` or `reasoning-parser` is `hf`: "--chat-template
is set; the hf parser still expects the checkpoint's output format." Both apply as written;
the `hf` parser reads the output format the checkpoint's own template teaches the model, so a
template that changes it can break parsing. Information.

## Example
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
enable-auto-tool-choice: true
tool-call-parser: hf
chat-template: ./template.jinja
```

## Fixed
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
enable-auto-tool-choice: true
tool-call-parser: hf
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import given
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC640"
NAME = "chat-template-hf-parser"
VLLM_SOURCE = "vllm/entrypoints/common/cli_args.py:544"
CATALOGUE = ("warn.serve.chat_template.hf_parser",)


def check(model: ConfigModel) -> Iterator[Finding]:
    template = given(model, "chat-template")
    parsers = [given(model, flag) for flag in ("tool-call-parser", "reasoning-parser")]
    hf = next((p for p in parsers if p is not None and p.value == "hf"), None)
    if template is None or template.value is None or hf is None:
        return
    yield finding(
        CODE,
        Severity.INFO,
        template.where,
        "--chat-template is set; the hf parser still expects the checkpoint's output "
        f"format. Keep the checkpoint's output format in the template, or pick the "
        f"`{hf.label}` written for the template's format.",
        source=VLLM_SOURCE,
    )
