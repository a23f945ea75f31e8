"""Rules transcribed from vllm/config/compilation.py."""
