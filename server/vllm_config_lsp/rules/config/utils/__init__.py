"""Rules transcribed from vllm/config/utils.py."""
