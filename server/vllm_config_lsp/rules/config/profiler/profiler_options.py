"""`profiler-config` options that do not belong to the chosen profiler, or are missing.

## What vLLM does
`ProfilerConfig._validate_profiler_config` runs when argparse reads `--profiler-config`
(vllm/config/profiler.py:215-306) and stops at the first of:
- `torch_profiler_activities` without `profiler: torch`, or with a repeated activity;
- `torch_profiler_dir` without `profiler: torch`; `profiler: torch` without
  `torch_profiler_dir` (the traces have to go somewhere);
- any `proton_*` option changed from its default without `profiler: proton` (all of them
  are named); `profiler: proton` without `proton_profiler_dir`, or with a URI there
  (`s3://…`: Proton writes locally);
- with Proton: `proton_graph_attribution` unless `proton_data: tree`, or together with a
  `periodic_flushing` mode; `proton_output_format: chrome_trace` unless
  `proton_data: trace`; `hatchet` / `hatchet_msgpack` unless `proton_data: tree`;
- `capture_torch_profiler` without `profiler: torch`.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
profiler-config:
  profiler: torch
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
profiler-config:
  profiler: torch
  torch_profiler_dir: /tmp/vllm-traces
```
"""

from collections.abc import Iterator
from typing import Any

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC521"
NAME = "profiler-options"
VLLM_SOURCE = "vllm/config/profiler.py:240"
CATALOGUE = (
    "profiler.activities_torch",
    "profiler.activities_dupes",
    "profiler.torch_dir_only_torch",
    "profiler.torch_dir_required",
    "profiler.proton_opts_only_proton",
    "profiler.proton_dir_required",
    "profiler.proton_dir_local",
    "profiler.graph_attr_tree",
    "profiler.graph_attr_flush",
    "profiler.chrome_trace",
    "profiler.hatchet",
    "profiler.capture_torch",
)

FLAG = "profiler-config"
SOURCE = "vllm/config/profiler.py:{}"
#: (option, default) compared by `non_default_proton_options` (profiler.py:250-262).
PROTON_DEFAULTS = (
    ("proton_profiler_dir", ""),
    ("proton_context", "shadow"),
    ("proton_data", "tree"),
    ("proton_backend", None),
    ("proton_mode", None),
    ("proton_hook", None),
    ("proton_output_format", None),
    ("proton_graph_attribution", False),
)


def _is_uri_path(path: str) -> bool:
    """profiler.py:52-63: a scheme of two characters or more before `://`."""
    return "://" in path and len(path.split("://")[0]) > 1


def _torch_problem(c: dict[str, Any]) -> tuple[str, str, int] | None:
    """(key to point at, message, source line); torch checks run first (:217-241)."""
    activities = c.get("torch_profiler_activities")
    if activities is not None:
        if c.get("profiler") != "torch":
            return (
                "torch_profiler_activities",
                "torch_profiler_activities is only applicable when profiler is set to 'torch'",
                220,
            )
        if len(activities) != len(set(map(str, activities))):
            return (
                "torch_profiler_activities",
                "torch_profiler_activities must not contain duplicates",
                225,
            )
    if c.get("torch_profiler_dir") and c.get("profiler") != "torch":
        return (
            "torch_profiler_dir",
            "torch_profiler_dir is only applicable when profiler is set to 'torch'",
            236,
        )
    if c.get("profiler") == "torch" and not c.get("torch_profiler_dir"):
        return (
            "profiler",
            "torch_profiler_dir must be set when profiler is 'torch': add "
            "`torch_profiler_dir: <directory or URI>` for the traces",
            240,
        )
    return None


def _proton_problem(c: dict[str, Any]) -> tuple[str, str, int] | None:
    changed = [name for name, default in PROTON_DEFAULTS if c.get(name, default) != default]
    proton = c.get("profiler") == "proton"
    if not proton and changed:
        return (
            changed[0],
            f"{', '.join(changed)} only applicable when profiler is set to 'proton'",
            266,
        )
    directory = c.get("proton_profiler_dir", "")
    if proton and not directory:
        return (
            "profiler",
            "proton_profiler_dir must be set when profiler is 'proton': add "
            "`proton_profiler_dir: <local directory>`",
            270,
        )
    if directory and isinstance(directory, str) and _is_uri_path(directory):
        return "proton_profiler_dir", "proton_profiler_dir must be a local directory", 275
    if not proton:
        return None
    data = c.get("proton_data", "tree")
    output = c.get("proton_output_format")
    mode = c.get("proton_mode")
    graph = c.get("proton_graph_attribution", False)
    if graph and data != "tree":
        return (
            "proton_graph_attribution",
            "proton_graph_attribution requires proton_data='tree'",
            283,
        )
    if graph and mode and str(mode).split(":", 1)[0].lower() == "periodic_flushing":
        return (
            "proton_graph_attribution",
            "proton_graph_attribution is incompatible with periodic_flushing: both manage "
            "Proton data phases.",
            289,
        )
    if output == "chrome_trace" and data != "trace":
        return "proton_output_format", "chrome_trace output requires proton_data='trace'", 294
    if output in ("hatchet", "hatchet_msgpack") and data != "tree":
        return "proton_output_format", f"{output} output requires proton_data='tree'", 299
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    tree = model.json_tree(FLAG)
    if tree is None or not tree.is_object or not isinstance(tree.value, dict):
        return
    config = tree.value
    problem = _torch_problem(config) or _proton_problem(config)
    if (
        problem is None
        and config.get("capture_torch_profiler")
        and config.get("profiler") != "torch"
    ):
        problem = (
            "capture_torch_profiler",
            "capture_torch_profiler is only applicable when profiler is set to 'torch'",
            302,
        )
    if problem is None:
        return
    key, message, line = problem
    node: ValueNode | None = tree.get(key)
    where = (node.start, node.end) if node is not None else (tree.start, tree.start)
    yield finding(CODE, Severity.ERROR, where, message, source=SOURCE.format(line))
