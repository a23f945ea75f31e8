"""A boolean environment variable is written in a way vLLM reads as the opposite.

## What vLLM does
Some of vLLM's switches are read by comparing the text (vllm/envs.py): `os.getenv(NAME,
"1") == "1"` is true only for exactly `1` (`VLLM_USE_STANDALONE_COMPILE=true` turns it
off), `.lower() in ("1", "true")` is false for `yes` and `on`, and `!= "0"` is true for
`false`. Nothing is refused: vLLM starts, with the switch the other way than written.

## Example
```sh
VLLM_USE_STANDALONE_COMPILE=true vllm serve Qwen/Qwen3-8B
```

## Fixed
```sh
VLLM_USE_STANDALONE_COMPILE=1 vllm serve Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._environ import catalogue, settings, value_where
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.environ import EnvSpec

CODE = "VC242"
NAME = "boolean-environment-read-as-opposite"
VLLM_SOURCE = "vllm/envs.py:765"

#: What people write for a switch, and what they mean by it.
MEANT = {
    "true": True,
    "yes": True,
    "on": True,
    "y": True,
    "t": True,
    "false": False,
    "no": False,
    "off": False,
    "n": False,
    "f": False,
}


def _read_as(spec: EnvSpec, value: str) -> bool | None:
    """What vLLM's getter makes of `value` (None: a kind this rule does not judge)."""
    extra = dict(spec.extra)
    if spec.kind == "bool_ne":
        text = value.lower() if extra.get("lowered") else value
        return text != extra.get("false_value")
    return spec.read_as(value)


def check(model: ConfigModel) -> Iterator[Finding]:
    known = catalogue(model)
    if known is None:
        return
    for var in settings(model):
        if not var.name.text.startswith("VLLM_"):
            continue  # NO_COLOR, FORCE_COLOR: any value but `0` means yes by convention
        spec = known.variables.get(var.name.text)
        value = var.value
        if spec is None or value is None or not value.resolved:
            continue
        meant = MEANT.get(value.text.strip().lower())
        read = _read_as(spec, value.text)
        if meant is None or read is None or read == meant:
            continue
        wanted = "1" if meant else "0"
        edit = TextEdit(value.start, value.end, wanted)
        fixes = [Fix(f"Write `{wanted}`", (edit,), safe=False, preferred=True)]
        if len(value.starts) != len(value.text) or value.end - value.start != len(value.text):
            fixes = []
        yield finding(
            CODE,
            Severity.WARNING,
            value_where(var),
            f"{var.name.text}={value.text} is read as {str(read).lower()}: vLLM reads it as "
            f"{spec.parse_rule()} ({spec.source}). Write `{wanted}`.",
            source=spec.source,
            fixes=fixes,
        )
