"""Rules transcribed from vllm/config/kernel.py."""
