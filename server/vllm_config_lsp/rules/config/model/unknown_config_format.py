"""`config-format` names a format vLLM has no config parser for.

## What vLLM does
`--config-format` is a plain string for argparse (`str | ConfigFormat` for pydantic), so any
text passes both. `ModelConfig.__post_init__` loads the model's config through `get_config`,
which tries the formats in turn for `auto` and otherwise asks `get_config_parser`, refusing
a name outside its table with `Unknown config format `X`.` (vllm/transformers_utils/
config.py:543). A YAML null or an empty value reaches vLLM as the word `None` or as ``:
neither is a format. The table is open: `register_config_parser("X")` in a plugin adds `X`.

## Example
```yaml
model: Qwen/Qwen3-8B
config-format: HF
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
config-format: hf
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules.support import closest, finding, replace_fix, token_span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC352"
NAME = "unknown-config-format"
VLLM_SOURCE = "vllm/transformers_utils/config.py:543"
CATALOGUE = ("value_sets.config_formats",)

FLAG = "config-format"
VALUE_SET = "config_formats"
#: `get_config` detects the format itself for this one (transformers_utils/config.py:889).
DETECTED = "auto"


def check(model: ConfigModel) -> Iterator[Finding]:
    value = model.flag(FLAG)
    formats = model.catalogue.value_sets.get(VALUE_SET)
    if value is None or formats is None or value.error is not None or value.unresolved:
        return
    text = value.value
    if not isinstance(text, str) or text == DETECTED or text in formats:
        return
    token = value.use.values[-1] if value.use.values else value.use.token
    where = token_span(model, token)
    known = [DETECTED, *map(str, formats.values)]
    message = f"Unknown config format `{text}`. vLLM {model.version} knows {', '.join(known)}."
    fixes: list[Fix] = []
    suggestion = closest(text.lower(), known, cutoff=0.6)
    if suggestion is not None:
        message += f" Did you mean `{suggestion}`?"
        fixes.append(replace_fix(where, suggestion))
    if formats.open:
        message += " A plugin can add formats (`register_config_parser`)."
    yield finding(CODE, Severity.ERROR, where, message, source=VLLM_SOURCE, fixes=fixes)
