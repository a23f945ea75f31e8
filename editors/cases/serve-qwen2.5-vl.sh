#!/bin/sh
# Qwen2.5-VL behind `vllm serve`, as a launch script: one flag per line.
exec vllm serve Qwen/Qwen2.5-VL-7B-Instruct \
  --max-model-len 32768 \
  --compilation-config '{"cudagraph_mm_encoder": true, "encoder_cudagraph_token_budgets": [0, 2048, 4096]}' \
  --port 8000
