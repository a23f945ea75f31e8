"""Rules transcribed from vllm/config/parallel.py."""
