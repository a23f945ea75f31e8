"""Rules transcribed from vllm/engine/arg_utils.py: engine arguments and their conversions."""
