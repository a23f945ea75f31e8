"""`reasoning-parser` names a parser vLLM does not have.

## What vLLM does
vLLM looks the name up in its registry of reasoning parsers in two places:
- `--reasoning-parser` (or `reasoning-config.reasoning_parser`) becomes the parser of
  `ReasoningConfig`, whose `initialize_token_ids` asks
  `ReasoningParserManager.get_reasoning_parser` while the engine config is built:
  `KeyError: Reasoning parser 'X' not found. Available parsers: ...`
  (vllm/reasoning/abs_reasoning_parsers.py:256, called from vllm/config/reasoning.py:84).
- `structured-outputs-config.reasoning_parser` is checked before the API server starts:
  `KeyError: invalid reasoning parser: X (chose from { ... })`
  (vllm/entrypoints/common/cli_args.py:625-632); headless launches skip that check.

`none` (any case) for `--reasoning-parser` means "no parser". `--reasoning-parser-plugin`
can register more names, so with a plugin the name is not checked here. In the releases
whose `StructuredOutputsConfig` checks the name itself (0.11, 0.12) that check refuses it
first, in its own words (VC385).

## Example
```yaml
model: deepseek-ai/DeepSeek-R1-Distill-Qwen-7B
reasoning-parser: deepseek_r2
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-R1-Distill-Qwen-7B
reasoning-parser: deepseek_r1
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._frontend import (
    Unparsed,
    arg,
    chose_from,
    plugin_set,
    starts_api_server,
    unknown_parser,
)
from vllm_config_lsp.rules.config.structured_outputs.reasoning_parser_registered import (
    CODE as STRUCTURED_OUTPUTS_CHECK,
)
from vllm_config_lsp.vllm.config_model import ConfigModel, Setting

CODE = "VC506"
NAME = "unknown-reasoning-parser"
VLLM_SOURCE = "vllm/entrypoints/common/cli_args.py:629"
CATALOGUE = ("serve.reasoning_parser.known",)

CONFIG_SOURCE = "vllm/reasoning/abs_reasoning_parsers.py:256"


def _named(model: ConfigModel) -> Iterator[tuple[str, tuple[int, int], bool, bool]]:
    """(name, where, from the API-server check, plain YAML text) of every parser name
    vLLM looks up."""
    try:
        flag = arg(model, "reasoning-parser")
    except Unparsed:
        return
    flag_name = flag.value
    if isinstance(flag_name, str) and flag_name.lower() == "none":
        flag_name = ""  # parse_reasoning_parser (arg_utils.py:188)
    if flag_name:
        yield flag_name, flag.where, False, True
    else:
        nested = model.json_setting("reasoning-config", "reasoning_parser")
        if nested is not None and nested.value:
            yield nested.value, (nested.start, nested.end), False, _plain(nested)
    so = model.json_setting("structured-outputs-config", "reasoning_parser")
    if so is not None and so.value and starts_api_server(model):
        yield so.value, (so.start, so.end), True, _plain(so)


def _plain(setting: Setting) -> bool:
    return setting.node is not None and setting.node.origin == "yaml"


def check(model: ConfigModel) -> Iterator[Finding]:
    known = model.catalogue.value_sets.get("reasoning_parsers")
    if known is None or plugin_set(model, "reasoning-parser-plugin"):
        return
    if STRUCTURED_OUTPUTS_CHECK in model.catalogue.checks:
        return  # StructuredOutputsConfig refuses the name first, in its words (VC385)
    names = sorted(str(v) for v in known.values)
    for name, where, api_check, editable in _named(model):
        if not isinstance(name, str) or name in known:
            continue
        if api_check:
            said = chose_from("reasoning parser", name, names)
            source = VLLM_SOURCE
        else:
            said = f"Reasoning parser '{name}' not found. Available parsers: {', '.join(names)}."
            source = CONFIG_SOURCE
        yield unknown_parser(
            CODE,
            said,
            name,
            names,
            where,
            plugin="reasoning-parser-plugin",
            source=source,
            editable=editable,
        )
