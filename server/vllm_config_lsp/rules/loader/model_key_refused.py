"""A `model` key in a file for vLLM 0.6 or 0.7, whose `vllm serve` refuses `--model`.

## What vLLM does
Up to 0.7, `vllm serve` declares the model as a required positional argument (`model_tag`)
and its config file is spliced in after it: the model must be given on the command line,
`vllm serve MODEL --config FILE` (`vllm serve --config FILE` alone stops with "No model_tag
specified!"). A `model` key in the file becomes `--model`, and `serve` (vllm/scripts.py in
0.6, vllm/entrypoints/cli/serve.py in 0.7) refuses any `--model` other than the default:
"With `vllm serve`, you should provide the model as a positional argument instead of via
the `--model` option." From 0.8 the positional is optional and a `model` key works.

The rule follows the release's catalogue, not a version number: it applies where the
`model_tag` positional is required (`nargs` unset), which the generator reads from each
release's `serve` parser. The refusal itself is in `serve`'s body, which the generator does
not read; it is the same in every release with a required `model_tag` (0.6 and 0.7).

## Example
```yaml
# vllm-config: version=0.6
model: Qwen/Qwen2.5-7B-Instruct
max-model-len: 8192
```

## Fixed
```yaml
# vllm-config: version=0.6
# run as: vllm serve Qwen/Qwen2.5-7B-Instruct --config this-file.yaml
max-model-len: 8192
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, remove_pair_fix, span
from vllm_config_lsp.vllm.catalogue import FlagSpec
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC123"
NAME = "model-key-refused"
#: Findings cite the release's own `model_tag` declaration (0.6: vllm/scripts.py, 0.7:
#: vllm/entrypoints/cli/serve.py). None here: vLLM verdicts are recorded for 0.33 only,
#: where this rule never applies (tests/engine/test_fidelity.py).
VLLM_SOURCE = None

REFUSAL = (
    "With `vllm serve`, you should provide the model as a positional argument instead of "
    "via the `--model` option."
)


def _required_model_tag(model: ConfigModel) -> FlagSpec | None:
    for spec in model.catalogue.flags.values():
        if spec.positional and spec.name == "model_tag":
            return spec if spec.nargs is None and not spec.optional else None
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    model_tag = _required_model_tag(model)
    if model_tag is None:
        return
    release = model.catalogue.version
    for use in model.result.uses:
        pair = use.token.pair
        if use.spec.name != "model" or pair is None or not use.token.is_key:
            continue
        written = use.values[0].text if use.values else None
        ignored = written == use.spec.default
        message = (
            f"vLLM {release}'s `vllm serve` takes the model only on the command line "
            "(`vllm serve MODEL --config FILE`); "
        )
        if ignored:
            # `serve` only compares with the default: that value passes and is replaced.
            message += "this `model` equals the default, so it is ignored"
            severity = Severity.WARNING
        else:
            message += f"a `model` key becomes `--model`, refused at start: {REFUSAL}"
            severity = Severity.ERROR
        fix = remove_pair_fix(
            model, pair, "Remove `model` (give the model on the command line)", safe=False
        )
        yield finding(
            CODE,
            severity,
            span(pair.key_node),
            message,
            source=model_tag.source,
            fixes=[fix] if fix else [],
        )
