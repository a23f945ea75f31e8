"""Rules transcribed from vllm/config/vllm.py."""
