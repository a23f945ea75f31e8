"""`--omni` on a start that does not run with vllm-omni.

## What vLLM does
From vLLM 0.30.0 on, `vllm`'s `main` looks for the word `--omni` in `sys.argv` before it
builds any parser (`maybe_run_omni`, vllm/entrypoints/cli/main.py:17): where it is there,
vLLM hands the whole command line to vllm-omni's own CLI, whose `serve` adds some 90
flags of its own (`--deploy-config`, `--stage-overrides`, `--cache-backend` …, read from
vllm-omni's wheel into `schemas/plugins/vllm-omni-*.json`). Without vllm-omni installed it
logs `--omni flag requires a valid instance of vllm-omni to be installed.` and exits with
status 1. A start on stock vLLM's image (`vllm/vllm-openai`) has no vllm-omni. The check
is literal, as vLLM's is: `--omni` in a `--config` file is not in `sys.argv`, so there it
is an ordinary unknown flag (VC101), even with vllm-omni installed.

## Example
```sh
docker run --gpus all vllm/vllm-openai:v0.33.0 Qwen/Qwen2.5-Omni-7B --omni --port 8091
```

## Fixed
```sh
docker run --gpus all vllm/vllm-openai:v0.33.0 Qwen/Qwen2.5-Omni-7B --port 8091
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, remove_option_fix, token_span
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.plugins import SWITCHES

CODE = "VC252"
NAME = "omni-without-vllm-omni"
VLLM_SOURCE = "vllm/entrypoints/cli/main.py:26"


def check(model: ConfigModel) -> Iterator[Finding]:
    if model.is_config_file:
        return
    for word, (plugin_name, _since, _line) in SWITCHES.items():
        value = model.flag(word.lstrip("-"))
        if value is None or value.use.token.text != word:
            continue
        if model.plugin is not None and model.plugin.name == plugin_name:
            continue
        fix = remove_option_fix(model, value.use.token, [])
        yield finding(
            CODE,
            Severity.ERROR,
            token_span(model, value.use.token),
            f"{word} flag requires a valid instance of {plugin_name} to be installed. "
            f"vLLM hands a command line with `{word}` to {plugin_name}, and this start "
            f"runs stock vLLM: use an image with {plugin_name} (`vllm/{plugin_name}:TAG`) "
            f"or remove `{word}`.",
            source=VLLM_SOURCE,
            fixes=[fix] if fix is not None else [],
        )
