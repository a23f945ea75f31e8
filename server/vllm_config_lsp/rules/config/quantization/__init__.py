"""Rules transcribed from vllm/config/quantization.py."""
