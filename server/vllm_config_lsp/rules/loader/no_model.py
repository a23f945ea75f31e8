"""`vllm serve --config FILE` with no model: `model: []` or `model: false`, which the loader drops.

## What vLLM does
Before argparse runs, `FlexibleArgumentParser._pull_args_from_config` checks that the
model is given somewhere: as the positional `vllm serve MODEL`, or as a `--model` word of
the argv the file becomes. Without either it raises `ValueError: No model specified!
Please specify model either as a positional argument or in a config file.`
(vllm/utils/argparse_utils.py:579-583). `load_config_file` writes no word for an empty
list or for `false` (vllm/utils/argparse_utils.py:656-663), so `model: []` and
`model: false` leave the file without a model and vLLM does not start.

A file without any `model` key is taken to be run as `vllm serve MODEL --config FILE`
(nothing is said); one with a `model` key as `vllm serve --config FILE`. The CLI's
`--model-on-cli` / `--no-model-on-cli` say which. Releases whose `vllm serve` requires the
positional model (0.6, 0.7) refuse `--model` itself instead (VC123).

## Example
```yaml
model: []
max-model-len: 8192
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
max-model-len: 8192
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, span
from vllm_config_lsp.vllm.config_model import DROPPED, ConfigModel

CODE = "VC124"
NAME = "no-model"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:580"

REFUSAL = (
    "No model specified! Please specify model either as a positional argument or in a config file."
)


def _optional_model_tag(model: ConfigModel) -> bool:
    return any(
        spec.positional and spec.name == "model_tag" and spec.nargs == "?"
        for spec in model.catalogue.flags.values()
    )


def check(model: ConfigModel) -> Iterator[Finding]:
    origin = model.origin
    if origin is None or origin.invocation is None or model.model_on_cli:
        return
    if model.open_ended or not _optional_model_tag(model):
        return
    if any(word.text == "--model" for word in model.invocation.args):
        return
    dropped = next(
        (
            e.pair
            for e in model.events
            if e.kind in DROPPED and e.pair is not None and e.pair.key == "model"
        ),
        None,
    )
    if dropped is not None:
        where = span(dropped.value_node)
        how = "an empty list" if dropped.value == [] else "`false`"
        why = (
            f"`model` is {how}, which `vllm serve --config` drops (no `--model` word), so "
            "the file names no model"
        )
    else:
        first = origin.pairs[0] if origin.pairs else None
        where = span(first.key_node) if first is not None else (0, 0)
        why = "the file has no `model` key and the model is not on the command line"
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        f"{REFUSAL} ({why}; vLLM stops before parsing the flags). Give the model id or "
        "folder as `model:`, or run `vllm serve MODEL --config FILE`.",
        source=VLLM_SOURCE,
    )
