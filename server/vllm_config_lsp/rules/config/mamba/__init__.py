"""Rules transcribed from vllm/config/mamba.py."""
