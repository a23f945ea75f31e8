"""Rules transcribed from vllm/config/structured_outputs.py."""
