"""Rules transcribed from vllm/config/attention.py."""
