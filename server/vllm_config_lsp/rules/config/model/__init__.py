"""Rules transcribed from vllm/config/model.py."""
