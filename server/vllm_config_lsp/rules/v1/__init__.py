"""Rules transcribed from the V1 engine in vllm/v1/, one subpackage per folder."""
