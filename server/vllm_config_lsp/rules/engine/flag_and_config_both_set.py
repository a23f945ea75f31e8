"""A shorthand flag and the same field inside its JSON config are both set.

## What vLLM does
Several settings have a flat flag and a field of a JSON-valued config. vLLM copies the flag
into the config only when the config leaves the field unset, and refuses both at once
(vllm/engine/arg_utils.py), while the engine config is built:
- `attention-backend` and `attention-config.backend`: `attention_backend and
  attention_config.backend are mutually exclusive` (:2728-2733);
- `enable-flashinfer-autotune` (either spelling, `--no-…` too) and
  `kernel-config.enable_flashinfer_autotune` (:2790-2796);
- an op of `ir-op-priority` that `kernel-config.ir_op_priority` also sets: `Op priority
  for rms_norm specified via both ir_op_priority and KernelConfig.ir_op_priority, only one
  allowed at a time.` (:2808-2818);
- `cudagraph-capture-sizes` and `compilation-config.cudagraph_capture_sizes` (:2833-2839);
- `max-cudagraph-capture-size` and `compilation-config.max_cudagraph_capture_size`
  (:2840-2846);
- `spec-method` / `spec-model` / `spec-tokens` and the same key of `speculative-config`:
  `--spec-tokens and --speculative-config['num_speculative_tokens'] are mutually
  exclusive` (:2108-2120). Any value counts, `null` included.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
max-cudagraph-capture-size: 256
compilation-config:
  max_cudagraph_capture_size: 128
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
compilation-config:
  max_cudagraph_capture_size: 128
```
"""

from collections.abc import Iterator

from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules._frontend import Arg, Unparsed, arg
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.sources import config_edits
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC512"
NAME = "flag-and-config-both-set"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2730"
CATALOGUE = (
    "cli.attention_backend_twice",
    "cli.fi_autotune_twice",
    "cli.ir_op_priority_twice",
    "cli.cg_sizes_twice",
    "cli.cg_max_twice",
    "cli.spec_flags_vs_config",
)

#: (flag, JSON flag, key, vLLM's message, source line); messages as vLLM words them.
PAIRS = (
    (
        "attention-backend",
        "attention-config",
        "backend",
        "attention_backend and attention_config.backend are mutually exclusive",
        2730,
    ),
    (
        "enable-flashinfer-autotune",
        "kernel-config",
        "enable_flashinfer_autotune",
        "enable_flashinfer_autotune and kernel_config.enable_flashinfer_autotune are "
        "mutually exclusive",
        2792,
    ),
    (
        "cudagraph-capture-sizes",
        "compilation-config",
        "cudagraph_capture_sizes",
        "cudagraph_capture_sizes and compilation_config.cudagraph_capture_sizes are "
        "mutually exclusive",
        2836,
    ),
    (
        "max-cudagraph-capture-size",
        "compilation-config",
        "max_cudagraph_capture_size",
        "max_cudagraph_capture_size and compilation_config.max_cudagraph_capture_size are "
        "mutually exclusive",
        2843,
    ),
)
SPEC = (
    ("spec-method", "method"),
    ("spec-model", "model"),
    ("spec-tokens", "num_speculative_tokens"),
)
SOURCE = "vllm/engine/arg_utils.py:{}"


def set_arg(model: ConfigModel, flag: str) -> Arg | None:
    """The flag when the file sets it to a value argparse reads (None: unset, or refused
    first)."""
    try:
        found = arg(model, flag)
    except Unparsed:
        return None
    return found if found.explicit and found.value is not None else None


def _report(
    model: ConfigModel,
    flag: Arg,
    container: ValueNode,
    entry: Entry,
    label: str,
    message: str,
    line: int,
) -> Finding:
    fixes = []
    removal = config_edits.remove_member(model.text, container, entry)
    if removal is not None:
        fixes.append(Fix(f"Remove `{label}` (keep `{flag.name}`)", (removal,), safe=False))
    flag_removal = flag.removal(model, f"Remove `{flag.name}` (keep `{label}`)")
    if flag_removal is not None:
        fixes.append(flag_removal)
    return finding(
        CODE,
        Severity.ERROR,
        (entry.value.start, entry.value.end),
        f"{message}: `{flag.name}` is a shorthand for `{label}`; keep only one of them.",
        source=SOURCE.format(line),
        fixes=fixes,
    )


def _ir_op_priority(model: ConfigModel) -> Iterator[Finding]:
    flag = set_arg(model, "ir-op-priority")
    kernel = model.json_tree("kernel-config")
    nested = kernel.get("ir_op_priority") if kernel is not None else None
    if flag is None or flag.value is None or nested is None or not nested.is_object:
        return
    for op, priority in dict(flag.value).items():
        entry = nested.entry(op)
        if priority and entry is not None and entry.value.value:
            yield _report(
                model,
                flag,
                nested,
                entry,
                f"kernel-config.ir_op_priority.{op}",
                f"Op priority for {op} specified via both ir_op_priority and "
                "KernelConfig.ir_op_priority, only one allowed at a time.",
                2815,
            )


def check(model: ConfigModel) -> Iterator[Finding]:
    for name, json_flag, key, message, line in PAIRS:
        flag = set_arg(model, name)
        tree = model.json_tree(json_flag)
        entry = tree.entry(key) if tree is not None else None
        if flag is None or tree is None or entry is None or entry.value.value is None:
            continue
        yield _report(model, flag, tree, entry, f"{json_flag}.{key}", message, line)
    yield from _ir_op_priority(model)
    # The check runs on the raw dict, before SpeculativeConfig validates it: use the tree
    # even when pydantic-level problems exist.
    raw = model.flag("speculative-config")
    spec = raw.tree if raw is not None and raw.error is None else None
    if spec is None or not spec.is_object:
        return
    for name, key in SPEC:
        flag = set_arg(model, name)
        entry = spec.entry(key)
        if flag is None or entry is None:
            continue
        yield _report(
            model,
            flag,
            spec,
            entry,
            f"speculative-config.{key}",
            f"--{name} and --speculative-config['{key}'] are mutually exclusive",
            2118,
        )
