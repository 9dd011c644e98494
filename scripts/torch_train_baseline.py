#!/usr/bin/env python3
"""PyTorch eager-mode baseline for tests/bench/bench_train.cpp.

Same model (MLP 2,64,64,2, tanh, softmax cross-entropy), same batch (32), same optimizer
(SGD lr 0.05, momentum 0.9), float64 like the engine, one CPU thread. Prints one JSON line:
{"bench":"train","threads":1,"samples_per_s":...} (median of 5 repetitions).

Usage: python3 scripts/torch_train_baseline.py [steps] [--float32]
(Debian's python3-torch lives in /usr/bin/python3.)
"""
import json
import math
import statistics
import sys
import time

import torch


def make_spiral(samples, generator):
    """Two-arm spiral with Gaussian jitter, labels 0/1 alternating like the C++ benchmark."""
    labels = torch.arange(samples) % 2
    t = torch.rand(samples, generator=generator, dtype=torch.float64)
    angle = 4.0 * math.pi * t + math.pi * labels.to(torch.float64)
    x = t * torch.cos(angle) + 0.05 * torch.randn(samples, generator=generator, dtype=torch.float64)
    y = t * torch.sin(angle) + 0.05 * torch.randn(samples, generator=generator, dtype=torch.float64)
    return torch.stack([x, y], dim=1), labels


def run(steps, dtype):
    generator = torch.Generator().manual_seed(7)
    features, labels = make_spiral(2048, generator)
    features = features.to(dtype)
    batch = 32
    rates = []
    loss = torch.tensor(0.0)
    for _ in range(5):
        torch.manual_seed(1)
        model = torch.nn.Sequential(
            torch.nn.Linear(2, 64), torch.nn.Tanh(),
            torch.nn.Linear(64, 64), torch.nn.Tanh(),
            torch.nn.Linear(64, 2),
        ).to(dtype)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        loss_fn = torch.nn.CrossEntropyLoss()
        offset = 0
        start = time.perf_counter()
        for _ in range(steps):
            x = features[offset:offset + batch]
            y = labels[offset:offset + batch]
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            offset = (offset + batch) % features.shape[0]
        elapsed = time.perf_counter() - start
        rates.append(steps * batch / elapsed)
    return statistics.median(rates), float(loss)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    steps = int(args[0]) if args else 3000
    dtype = torch.float32 if "--float32" in sys.argv else torch.float64
    torch.set_num_threads(1)
    rate, loss = run(steps, dtype)
    print(json.dumps({"bench": "train", "threads": 1, "samples_per_s": round(rate),
                      "batch": 32, "steps": steps, "final_loss": round(loss, 6),
                      "framework": "torch " + torch.__version__,
                      "dtype": str(dtype).replace("torch.", "")}))


if __name__ == "__main__":
    main()
