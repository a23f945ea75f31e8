"""`tool-call-parser` names a parser vLLM does not have (with auto tool choice on).

## What vLLM does
Before the API server binds its socket, `validate_api_server_args` checks the parser of
`--enable-auto-tool-choice` against the registered tool parsers and raises
`KeyError: invalid tool call parser: X (chose from { ... })`
(vllm/entrypoints/common/cli_args.py:616-622). The check only runs when vLLM starts an
API server (not with `headless` or `api-server-count: 0`) and only with auto tool choice
on; without it the name is not looked up at start-up. `--tool-parser-plugin` can register
more names, so with a plugin the name is not checked here.

## Example
```yaml
model: NousResearch/Hermes-3-Llama-3.1-8B
enable-auto-tool-choice: true
tool-call-parser: hermess
```

## Fixed
```yaml
model: NousResearch/Hermes-3-Llama-3.1-8B
enable-auto-tool-choice: true
tool-call-parser: hermes
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._frontend import (
    args,
    chose_from,
    plugin_set,
    starts_api_server,
    unknown_parser,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC505"
NAME = "unknown-tool-parser"
VLLM_SOURCE = "vllm/entrypoints/common/cli_args.py:620"
CATALOGUE = ("serve.tool_parser.known",)


def check(model: ConfigModel) -> Iterator[Finding]:
    known = model.catalogue.value_sets.get("tool_parsers")
    a = args(model, "enable-auto-tool-choice", "tool-call-parser")
    if known is None or a is None or not a["enable_auto_tool_choice"].value:
        return
    parser = a["tool_call_parser"]
    name = parser.value
    if not name or not isinstance(name, str) or name in known:
        return
    if not starts_api_server(model) or plugin_set(model, "tool-parser-plugin"):
        return
    names = sorted(str(v) for v in known.values)
    said = chose_from("tool call parser", name, names)
    yield unknown_parser(
        CODE, said, name, names, parser.where, plugin="tool-parser-plugin", source=VLLM_SOURCE
    )
