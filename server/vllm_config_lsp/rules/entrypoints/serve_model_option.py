"""`--model` on a `vllm serve` command line: deprecated, the model is the positional.

## What vLLM does
`FlexibleArgumentParser.parse_args` looks at the command line before any `--config` file
is read and, when `vllm serve` has a `--model` option, logs "With `vllm serve`, you should
provide the model as a positional argument or in a config file instead of via the
`--model` option. The `--model` option will be removed in a future version."
(vllm/utils/argparse_utils.py:330). It still works in 0.33. A `model:` key in the
`--config` file does not warn, nor does `model` in engine keyword arguments (Ray Serve's
`engine_kwargs`, Triton's `model.json`), which never go through argparse. The fix drops
the `--model` word when it comes first, so the model becomes the positional right after
`serve`.

## Example
```sh
vllm serve --model Qwen/Qwen3-8B --max-model-len 8192
```

## Fixed
```sh
vllm serve Qwen/Qwen3-8B --max-model-len 8192
```
"""

import re
from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.sources.rendering import FIELD, remove_words
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC384"
NAME = "serve-model-option"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:330"
CATALOGUE = ("warn.argparse.serve_model_option",)
#: The test vLLM applies to each command-line word (argparse_utils.py:325).
MODEL_OPTION = re.compile(r"^--model(=.+|$)")
WORDS = (
    "With `vllm serve`, you should provide the model as a positional argument or in a "
    "config file instead of via the `--model` option. The `--model` option will be removed "
    "in a future version."
)


def check(model: ConfigModel) -> Iterator[Finding]:
    invocation = model.invocation
    if model.is_config_file or invocation.entrypoint != "serve":
        return  # a `--config` file's `model:` is what the warning asks for
    for word in invocation.args:
        if not MODEL_OPTION.match(word.text) or word.quoting.endswith(FIELD):
            continue  # an engine-kwargs key (Ray Serve, Triton): no argparse, no warning
        option = word.source_range(0, len("--model"))
        fixes = []
        if invocation.positions[id(word)] == 0:  # what follows becomes the positional
            if word.text == "--model":
                edit = remove_words(invocation, word, word)
            else:
                edit = TextEdit(*word.source_range(0, len("--model=")), "")
            fixes.append(Fix("Give the model as the positional argument", (edit,)))
        yield finding(
            CODE,
            Severity.WARNING,
            option,
            f"{WORDS} Write `vllm serve MODEL …`.",
            source=VLLM_SOURCE,
            fixes=fixes,
        )
        return  # vLLM warns once, whatever follows
