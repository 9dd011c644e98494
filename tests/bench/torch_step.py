#!/usr/bin/env python3
"""PyTorch eager on bench_simd's step: MLP 2,256,256,3 (tanh, softmax cross-entropy, SGD with
momentum), batch 32, one thread; or on each model named after the steps (bench_precision:
2,64,64,3 2,256,256,3). Prints one JSON line per model and precision (float64, as Lockstep
computes by default, and float32, as PyTorch usually trains) with samples/s and GFLOP/s (best of
five), or one line saying PyTorch is not installed. Run by bench_simd and bench_precision; usable
alone: python3 tests/bench/torch_step.py [steps [layers ...]]"""
import json
import os
import sys
import time

# One core: PyTorch's own threads and those of the BLAS under it.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 300
BATCH = 32
MODELS = [[int(w) for w in m.split(",")] for m in sys.argv[2:]] or [[2, 256, 256, 3]]

try:
    import torch
except ImportError:
    print(json.dumps({"bench": "simd", "pytorch": "not installed"}))
    sys.exit(0)

torch.set_num_threads(1)


def measure(layers, dtype):
    terms = sum(layers[i - 1] * layers[i] for i in range(1, len(layers)))
    # Forward, then the weight gradients and the input deltas (none below the first layer).
    flops = 2.0 * BATCH * (2 * terms + terms - layers[0] * layers[1])
    torch.manual_seed(11)
    blocks = []
    for i in range(1, len(layers)):
        blocks.append(torch.nn.Linear(layers[i - 1], layers[i]))
        if i + 1 < len(layers):
            blocks.append(torch.nn.Tanh())
    model = torch.nn.Sequential(*blocks).to(dtype)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x = torch.randn(BATCH, layers[0], dtype=dtype)
    y = torch.arange(BATCH) % layers[-1]
    loss_fn = torch.nn.CrossEntropyLoss()
    best = 0.0
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(STEPS):
            opt.zero_grad(set_to_none=True)
            loss_fn(model(x), y).backward()
            opt.step()
        best = max(best, STEPS / (time.perf_counter() - start))
    print(json.dumps({"bench": "simd", "pytorch": torch.__version__, "dtype": str(dtype)[6:],
                      "model": ",".join(str(w) for w in layers),
                      "samples_per_s": round(best * BATCH),
                      "step_gflops": round(best * flops / 1e9, 2)}), flush=True)


for layers in MODELS:
    for dtype in (torch.float64, torch.float32):
        measure(layers, dtype)
