"""`enable-auto-tool-choice` is set without a `tool-call-parser`.

## What vLLM does
`validate_parsed_serve_args` refuses `--enable-auto-tool-choice` when no
`--tool-call-parser` is given: `Error: --enable-auto-tool-choice requires
--tool-call-parser` (vllm/entrypoints/common/cli_args.py:553-554). It runs right after
argparse, before the engine starts. Auto tool choice lets the model decide to call a tool;
the parser is what turns the model's output back into OpenAI tool calls, and there is no
default because each model family writes tool calls differently.

## Example
```yaml
model: NousResearch/Hermes-3-Llama-3.1-8B
enable-auto-tool-choice: true
```

## Fixed
```yaml
model: NousResearch/Hermes-3-Llama-3.1-8B
enable-auto-tool-choice: true
tool-call-parser: hermes
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC501"
NAME = "auto-tool-choice-without-parser"
VLLM_SOURCE = "vllm/entrypoints/common/cli_args.py:554"
CATALOGUE = ("serve.auto_tool_parser",)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "enable-auto-tool-choice", "tool-call-parser")
    if a is None or not a["enable_auto_tool_choice"].value or a["tool_call_parser"].value:
        return
    switch = a["enable_auto_tool_choice"]
    removal = switch.removal(model, "Remove `enable-auto-tool-choice`")
    yield finding(
        CODE,
        Severity.ERROR,
        switch.where,
        "Error: --enable-auto-tool-choice requires --tool-call-parser. Add "
        "`tool-call-parser: <name>` for the model's tool-call format (e.g. `hermes`, "
        "`llama3_json`, `mistral`), or remove `enable-auto-tool-choice`.",
        source=VLLM_SOURCE,
        fixes=[removal] if removal else [],
    )
