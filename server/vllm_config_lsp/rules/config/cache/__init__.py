"""Rules transcribed from vllm/config/cache.py."""
