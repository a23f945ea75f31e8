"""Rules transcribed from vllm/v1/core/kv_cache_planning.py: whether the KV cache fits."""
