"""`ec-manager-config` gives a `manager_config` but no `encoder_cache_manager_cls`.

## What vLLM does
`EncoderCacheManagerConfig.__post_init__` refuses a non-empty `manager_config` without a
custom manager class: `manager_config requires encoder_cache_manager_cls to be set.`
(vllm/config/ec_manager_config.py:20-24), when argparse reads the JSON. The options are
opaque settings for a custom encoder-cache manager; the built-in manager takes none, so
they would be ignored.

## Example
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
ec-manager-config:
  manager_config:
    capacity: 10
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
ec-manager-config:
  encoder_cache_manager_cls: my_pkg.cache.MyEncoderCacheManager
  manager_config:
    capacity: 10
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, remove_field_fix
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC523"
NAME = "manager-config-without-class"
VLLM_SOURCE = "vllm/config/ec_manager_config.py:22"
CATALOGUE = ("ec_manager.cls_required",)

FLAG = "ec-manager-config"


def check(model: ConfigModel) -> Iterator[Finding]:
    tree = model.json_tree(FLAG)
    if tree is None or not tree.is_object:
        return
    cls = tree.get("encoder_cache_manager_cls")
    entry = tree.entry("manager_config")
    if entry is None or not entry.value.value or (cls is not None and cls.value is not None):
        return
    removal = remove_field_fix(model, model.flag(FLAG), tree, entry, "Remove `manager_config`")
    fixes = [removal] if removal else []
    yield finding(
        CODE,
        Severity.ERROR,
        (entry.key_start, entry.key_end),
        "manager_config requires encoder_cache_manager_cls to be set. Add "
        "`encoder_cache_manager_cls: <package.module.Class>` of the custom manager, or "
        "remove `manager_config` (the built-in manager takes no options).",
        source=VLLM_SOURCE,
        fixes=fixes,
    )
