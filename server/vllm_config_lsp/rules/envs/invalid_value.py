"""An environment variable's value is one vLLM's getter refuses.

## What vLLM does
Each variable of `envs.environment_variables` (vllm/envs.py) is read through its getter,
which parses the value: `int(...)` and `float(...)`, `bool(int(...))` (so `true` is not a
boolean: `invalid literal for int() with base 10: 'true'`), `env_with_choices` (`Invalid
value 'x' for NAME. Valid options: [...]`, vllm/envs.py:436), `env_list_with_choices`
for comma-separated lists, `get_vllm_port` (a `tcp://` URI that Kubernetes service links
put in `VLLM_PORT`). The engine core calls `enable_envs_cache()` on every start
(vllm/v1/engine/core.py:248), which runs every getter: a value a getter refuses stops
every start (an error). In a release without that call the getter runs only when the code
that uses the variable does (a warning that says so).

## Example
```sh
VLLM_WORKER_MULTIPROC_METHOD=forkserver vllm serve Qwen/Qwen2.5-7B-Instruct
```

## Fixed
```sh
VLLM_WORKER_MULTIPROC_METHOD=spawn vllm serve Qwen/Qwen2.5-7B-Instruct
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._environ import catalogue, settings, value_where
from vllm_config_lsp.rules.support import closest, finding
from vllm_config_lsp.sources.invocation import EnvVar
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.environ import EnvSpec

CODE = "VC241"
NAME = "invalid-environment-value"
VLLM_SOURCE = "vllm/envs.py:436"

#: What people write for a boolean, and what `bool(int(...))` wants instead.
_BOOLEAN_WORDS = {"true": "1", "false": "0", "yes": "1", "no": "0", "on": "1", "off": "0"}


def check(model: ConfigModel) -> Iterator[Finding]:
    known = catalogue(model)
    if known is None or model.is_config_file:
        return
    for var in settings(model):
        spec = known.variables.get(var.name.text)
        if spec is None or var.value is None or not var.value.resolved:
            continue
        problem = spec.problem(var.value.text)
        if problem is None:
            continue
        every = known.read_all_at_start and known.read_all_site is not None
        when = known.when_read(spec)
        consequence = (
            f"vLLM refuses to start ({when})"
            if every
            else f"vLLM raises this when it reads the variable ({when})"
        )
        yield finding(
            CODE,
            Severity.ERROR if every else Severity.WARNING,
            value_where(var),
            f"{var.name.text}={var.value.text}: {problem} {consequence}. "
            f"{var.name.text} is {spec.parse_rule()}.",
            source=spec.source if not every else known.read_all_site,
            fixes=_fixes(var, spec),
        )


def _fixes(var: EnvVar, spec: EnvSpec) -> list[Fix]:
    value = var.value
    if value is None or len(value.starts) != len(value.text) or not value.text:
        return []
    exact = value.start == value.starts[0] and value.end == value.ends[-1]
    if not exact and value.end - value.start != len(value.text) + 2:  # quoted: keep quotes
        return []
    start, end = value.starts[0], value.ends[-1]
    replacement = None
    if spec.kind in ("bool_int", "bool_int_or_none"):
        replacement = _BOOLEAN_WORDS.get(value.text.strip().lower())
    elif spec.kind in ("choices",) and spec.choices:
        lowered = {c.lower(): c for c in spec.choices}
        replacement = lowered.get(value.text.lower()) or closest(value.text, spec.choices, 0.6)
    if replacement is None:
        return []
    edit = TextEdit(start, end, replacement)
    return [Fix(f"Write `{replacement}`", (edit,), safe=False, preferred=True)]
