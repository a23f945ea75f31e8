"""An environment variable named `VLLM_*` is not one vLLM knows.

## What vLLM does
`Platform.validate_environ` runs in `EngineArgs.create_engine_config`
(vllm/engine/arg_utils.py:2261) on every start: each name of the environment that starts
with `VLLM_` and is not a key of `envs.environment_variables` is logged, `Unknown vLLM
environment variable detected: NAME` (vllm/platforms/interface.py:1466), and vLLM starts
without it. With `--fail-on-environ-validation` it raises instead and refuses to start
(`Platform.validate_environ(hard_fail)`, the flag at vllm/engine/arg_utils.py:1933): on the
command line, or as `fail-on-environ-validation: true` in the `--config` file it names,
which vLLM splices in before the command line's own words (so a `--no-…` there wins). That
file is read when it lies in the folder of the document (or below it).
A misspelled name, or a variable a later release removed (`VLLM_ATTENTION_BACKEND`,
replaced by `--attention-backend`; `VLLM_USE_V1`, which went with the V0 engine), is
silently useless. The names are those of the release the command line runs
(`schemas/envs-<version>.json`); a release before `validate_environ` existed says nothing,
and neither does this rule there.

A platform plugin reads variables of its own (`tpu_inference/envs.py`, vllm-ascend's
`envs.py`) that vLLM's list does not hold: vLLM still logs the line, but the plugin the
start runs with reads the variable, so it is information, not a warning (still an error
under `--fail-on-environ-validation`, which does not consult the plugin).

## Example
```sh
VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve Qwen/Qwen2.5-7B-Instruct
```

## Fixed
```sh
vllm serve Qwen/Qwen2.5-7B-Instruct --attention-backend FLASHINFER
```
"""

from collections.abc import Iterator
from pathlib import Path

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._environ import catalogue, settings, where
from vllm_config_lsp.rules.support import closest, finding
from vllm_config_lsp.sources.invocation import EnvVar
from vllm_config_lsp.sources.rendering import SHELL_QUOTINGS, in_host
from vllm_config_lsp.sources.safe_read import read_text
from vllm_config_lsp.vllm.config_model import ConfigModel, build_model
from vllm_config_lsp.vllm.environ import Removed

CODE = "VC240"
STRICT = "fail-on-environ-validation"
#: A `--config` file larger than this is not read for the switch.
CONFIG_BYTES = 2_000_000
NAME = "unknown-environment-variable"
#: 0.33.0's line; each release's own is `EnvCatalogue.validate_environ` (0.31.0 on).
VLLM_SOURCE = "vllm/platforms/interface.py:1466"


def check(model: ConfigModel) -> Iterator[Finding]:
    known = catalogue(model)
    if known is None or known.validate_environ is None or model.is_config_file:
        return
    strict = _strict(model)
    hard = strict is not None
    for var in settings(model):
        name = var.name.text
        if not name.startswith("VLLM_") or name in known.variables or not var.name.resolved:
            continue
        said = f"Unknown vLLM environment variable detected: {name}"
        read_by = _plugin_reads(model, name)
        if read_by is not None and not hard:
            yield finding(
                CODE,
                Severity.INFO,
                where(var),
                f"{said} (vLLM {known.version}). vLLM logs this at start, but "
                f"{model.plugin.label if model.plugin else ''} reads it ({read_by}): it "
                "takes effect.",
                source=known.validate_environ,
            )
            continue
        removed = known.removed.get(name)
        if removed is not None:
            advice = _removed(removed, known.version)
        else:
            near = closest(name, known.variables)
            advice = f" Did you mean `{near}`?" if near else ""
        consequence = (
            f" With {strict} vLLM refuses to start."
            if strict is not None
            else " vLLM logs this and starts without it."
        )
        fixes = _fixes(model, var, removed, closest(name, known.variables))
        yield finding(
            CODE,
            Severity.ERROR if hard else Severity.WARNING,
            where(var),
            f"{said} (vLLM {known.version}).{consequence}{advice}",
            source=known.validate_environ,
            fixes=fixes,
        )


def _strict(model: ConfigModel) -> str | None:
    """How the start says `--fail-on-environ-validation`, or None when it does not: the
    command line (whose words come after the `--config` file's, so its `--no-` form wins),
    else the `--config` file it names."""
    flag = model.flag(STRICT)
    if flag is not None:
        return f"`--{STRICT}`" if flag.value is True else None
    named = _config_file(model)
    if named is None:
        return None
    path, text = named
    from_file = build_model(text, model.catalogue, model_on_cli=True, path=path).flag(STRICT)
    if from_file is None or from_file.value is not True:
        return None
    return f"`{STRICT}: true` in the --config file {path.name}"


def _config_file(model: ConfigModel) -> tuple[Path, str] | None:
    """The `--config` file of the command line and its text, when it is a file inside the
    document's folder (a command line naming `../../secret.yml` is not read)."""
    base = model.base_dir
    use = next((u for u in model.result.uses if u.spec.name == "config" and u.values), None)
    if base is None or use is None or use.values[-1].unresolved:
        return None
    path = (base / use.values[-1].text).resolve()
    if not path.is_relative_to(base.resolve()) or path.suffix not in (".yaml", ".yml"):
        return None
    text = read_text(path, CONFIG_BYTES)
    return (path, text) if text is not None else None


def _plugin_reads(model: ConfigModel, name: str) -> str | None:
    """The source line where the start's plugin reads `name`, if it does."""
    if model.plugin is None:
        return None
    entry = model.plugin.environment.get(name)
    if not isinstance(entry, dict):
        return None
    source = entry.get("source")
    return source if isinstance(source, str) else "its envs.py"


def _removed(removed: Removed, version: str) -> str:
    text = f" `{removed.name}` was removed after vLLM {removed.last}"
    if removed.flag:
        return f"{text}: use `{removed.flag}` instead."
    if removed.note:
        return f"{text}: {removed.note}."
    return f"{text}."


def _fixes(model: ConfigModel, var: EnvVar, removed: Removed | None, near: str | None) -> list[Fix]:
    fixes: list[Fix] = []
    if near and removed is None and var.name.starts and len(var.name.starts) == len(var.name.text):
        edit = TextEdit(var.name.start, var.name.end, near)
        fixes.append(Fix(f"Rename to `{near}`", (edit,), safe=False, preferred=True))
    flag = removed.flag if removed is not None else None
    if flag and removed and model.catalogue.flags.get(flag.lstrip("-").split(".")[0]):
        moved = _to_flag(model, var, flag, removed)
        if moved is not None:
            fixes.append(moved)
    return fixes


def _to_flag(model: ConfigModel, var: EnvVar, flag: str, removed: Removed) -> Fix | None:
    """`NAME=X vllm serve …` → `vllm serve … --flag X`, where the setting is a shell
    prefix (its text removed with the space after it) and the command line a shell one."""
    invocation = model.invocation
    if invocation.insert_at is None or var.origin != "prefix":
        return None
    if var.value is None or not var.value.resolved or not var.value.text:
        return None
    if any(word.quoting not in SHELL_QUOTINGS for word in invocation.args):
        return None
    text = model.text
    end = var.value.end
    while end < len(text) and text[end] in " \t":
        end += 1
    value = removed.flag_value(var.value.text)
    if value is None:
        return None
    quoted = value if value.replace("_", "").replace("-", "").isalnum() else f"'{value}'"
    quoted = in_host(quoted, invocation.args[-1].quoting if invocation.args else "shell")
    edits = (
        TextEdit(var.name.start, end, ""),
        TextEdit(invocation.insert_at, invocation.insert_at, f" {flag} {quoted}"),
    )
    return Fix(f"Replace with `{flag} {value}`", edits, safe=False, preferred=True)
