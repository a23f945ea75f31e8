"""`reasoning-parser` names a parser that older releases' StructuredOutputsConfig refuses.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC385`), `StructuredOutputsConfig`
checks its `reasoning_parser` in a pydantic validator against the registered parsers:
`ValueError: invalid reasoning parser: X (chose from { ... })`
(vllm/config/structured_outputs.py:79-82 in 0.12.0). A `structured-outputs-config` JSON is
validated while the command line is parsed, and `--reasoning-parser` is copied into that
config while `EngineArgs.create_engine_config` builds the engine config (where a non-empty
flag wins over the JSON's key); either way vLLM does not start, headless launches
included. An empty name means no parser. A `--reasoning-parser-plugin` (or the JSON's
`reasoning_parser_plugin`) is imported first and may register more names, so with a plugin
the name is not checked here. Later releases dropped the validator and look the name up
elsewhere (VC506).

## Example
```yaml
# vllm-config: version=0.11.2
model: zai-org/GLM-4.5-Air
headless: true
reasoning-parser: glm47
```

## Fixed
```yaml
# vllm-config: version=0.11.2
model: zai-org/GLM-4.5-Air
headless: true
reasoning-parser: glm45
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._frontend import Unparsed, arg, chose_from, plugin_set, unknown_parser
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC385"
NAME = "reasoning-parser-registered"
#: The validator is gone from the release the other rules transcribe: this one is read
#: from 0.12.0, and runs for the releases whose wheel has the same check.
TRANSCRIBES = "0.12.0"
VLLM_SOURCE = "vllm/config/structured_outputs.py:79"
CATALOGUE = ("serve.reasoning_parser.known",)

SECTION = "structured-outputs-config"


def check(model: ConfigModel) -> Iterator[Finding]:
    known = model.catalogue.value_sets.get("reasoning_parsers")
    if known is None or plugin_set(model, "reasoning-parser-plugin"):
        return
    plugin = model.json_setting(SECTION, "reasoning_parser_plugin")
    if plugin is not None and isinstance(plugin.value, str) and len(plugin.value) > 3:
        return
    try:
        flag = arg(model, "reasoning-parser")
    except Unparsed:
        return
    if flag.value:
        name, where, editable = flag.value, flag.where, True
    else:
        nested = model.json_setting(SECTION, "reasoning_parser")
        if nested is None or not nested.value:
            return
        name, where = nested.value, (nested.start, nested.end)
        editable = nested.node is not None and nested.node.origin == "yaml"
    if not isinstance(name, str) or name in known:
        return
    names = sorted(str(v) for v in known.values)
    yield unknown_parser(
        CODE,
        chose_from("reasoning parser", name, names),
        name,
        names,
        where,
        plugin="reasoning-parser-plugin",
        source=VLLM_SOURCE,
        editable=editable,
    )
