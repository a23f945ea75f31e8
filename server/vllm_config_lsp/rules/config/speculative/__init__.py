"""Rules transcribed from vllm/config/speculative.py."""
