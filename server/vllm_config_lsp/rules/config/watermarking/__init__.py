"""Rules transcribed from vllm/config/watermarking.py."""
