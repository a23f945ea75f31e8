"""Rules transcribed from vllm/config/pooler.py."""
