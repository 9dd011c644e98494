#!/usr/bin/env python3
"""PyTorch eager on bench_simd's step: MLP 2,256,256,3 (tanh, softmax cross-entropy, SGD with
momentum), batch 32, one thread. Prints one JSON line per precision (float64, as Lockstep
computes, and float32, as PyTorch usually trains) with samples/s and GFLOP/s (best of five), or
one line saying PyTorch is not installed. Run by bench_simd; usable alone:
python3 tests/bench/torch_step.py [steps]"""
import json
import os
import sys
import time

# One core: PyTorch's own threads and those of the BLAS under it.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 300
BATCH = 32
LAYERS = [2, 256, 256, 3]

try:
    import torch
except ImportError:
    print(json.dumps({"bench": "simd", "pytorch": "not installed"}))
    sys.exit(0)

torch.set_num_threads(1)
terms = sum(LAYERS[i - 1] * LAYERS[i] for i in range(1, len(LAYERS)))
# Forward, then the weight gradients and the input deltas (none below the first layer).
FLOPS = 2.0 * BATCH * (2 * terms + terms - 2 * LAYERS[1])

for dtype in (torch.float64, torch.float32):
    torch.manual_seed(11)
    blocks = []
    for i in range(1, len(LAYERS)):
        blocks.append(torch.nn.Linear(LAYERS[i - 1], LAYERS[i]))
        if i + 1 < len(LAYERS):
            blocks.append(torch.nn.Tanh())
    model = torch.nn.Sequential(*blocks).to(dtype)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x = torch.randn(BATCH, LAYERS[0], dtype=dtype)
    y = torch.arange(BATCH) % LAYERS[-1]
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
                      "samples_per_s": round(best * BATCH),
                      "step_gflops": round(best * FLOPS / 1e9, 2)}))
