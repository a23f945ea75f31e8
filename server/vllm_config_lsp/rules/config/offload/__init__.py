"""Rules transcribed from vllm/config/offload.py."""
