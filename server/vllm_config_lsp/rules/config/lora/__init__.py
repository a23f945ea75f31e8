"""Rules transcribed from vllm/config/lora.py."""
