"""Rules transcribed from vllm/config/observability.py."""
