"""KV cache events asked for where vLLM produces or publishes none.

## What vLLM does
`VllmConfig.__post_init__` (vllm/config/vllm.py:2047-2066) warns:
- "KV cache events are on, but prefix caching is not enabled. Use --enable-prefix-caching
  to enable." when `kv-events-config.enable_kv_cache_events` is true and the file turns
  prefix caching off: events come from the prefix cache, so there are none;
- "KV cache events are disabled, but the scheduler is configured to publish them. Modify
  KVEventsConfig.enable_kv_cache_events to True to enable." when `publisher: zmq` is
  written without `enable_kv_cache_events: true`: nothing is published.

## Example
```yaml
model: Qwen/Qwen3-8B
kv-events-config:
  publisher: zmq
  endpoint: tcp://*:5557
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
kv-events-config:
  enable_kv_cache_events: true
  publisher: zmq
  endpoint: tcp://*:5557
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import given, json_given, json_true, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC378"
NAME = "kv-events-ignored"
VLLM_SOURCE = "vllm/config/vllm.py:2052"
CATALOGUE = ("warn.vllm.kv_events.prefix_caching", "warn.vllm.kv_events.publisher")
PUBLISHER_SOURCE = "vllm/config/vllm.py:2061"


def check(model: ConfigModel) -> Iterator[Finding]:
    events = json_true(model, "kv-events-config", "enable_kv_cache_events")
    caching = given(model, "enable-prefix-caching")
    if events is not None and caching is not None and caching.value is False:
        yield warning(
            CODE,
            events,
            "KV cache events are on, but prefix caching is not enabled. Use "
            f"--enable-prefix-caching to enable. `{caching.label}` turns it off, so no "
            "events are produced.",
            VLLM_SOURCE,
            related=[caching],
        )
    publisher = json_given(model, "kv-events-config", "publisher")
    if events is None and publisher is not None and publisher.value == "zmq":
        switch = json_given(model, "kv-events-config", "enable_kv_cache_events")
        yield warning(
            CODE,
            publisher,
            "KV cache events are disabled, but the scheduler is configured to publish "
            "them. Modify KVEventsConfig.enable_kv_cache_events to True to enable: add "
            "`enable_kv_cache_events: true`, or nothing is published.",
            PUBLISHER_SOURCE,
            related=[switch],
        )
