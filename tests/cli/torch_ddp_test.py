#!/usr/bin/env python3
"""Lockstep's data-parallel training against PyTorch's DistributedDataParallel.

Four PyTorch processes train with DDP over Gloo on 127.0.0.1, each on its quarter of one CSV
file, from one set of first parameters written to a JSON file; lockstep-cli trains the same
scenario (--dataset FILE.csv --shuffle off --init-params FILE.json, 4 workers, the mean rule).
The final parameters must agree:
  - float32 (--precision float32 against float32 tensors): within 1e-5 of each other;
  - float64 (Lockstep's reference against float64 tensors): within 1e-12;
and the float32 run must be a float32 run: every parameter a float, and not the float64 run's
parameters (it differs from them by more than float32's rounding at the first step).
Rows: SGD with momentum, and Adam.

Usage:
    torch_ddp_test.py --cli lockstep-cli

Exits 0 when it passes, 1 on a failure, 77 (skipped, for ctest) when PyTorch is not installed.
"""

import argparse
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile

WORKERS = 4
ROWS_PER_WORKER = 24
BATCH = 8
STEPS = 12
LAYERS = [2, 16, 16, 3]
TOLERANCE = {"float32": 1e-5, "float64": 1e-12}
OPTIMIZERS = {
    "sgd": {"kind": "sgd", "lr": 0.1, "momentum": 0.9},
    "adam": {"kind": "adam", "lr": 0.01, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8},
}


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build_model(torch, dtype):
    blocks = []
    for i in range(1, len(LAYERS)):
        blocks.append(torch.nn.Linear(LAYERS[i - 1], LAYERS[i]))
        if i + 1 < len(LAYERS):
            blocks.append(torch.nn.Tanh())
    return torch.nn.Sequential(*blocks).to(dtype)


def parameters_json(model):
    """Lockstep's parameter file: each layer's weight [out][in] and bias, as exact doubles."""
    layers = []
    for block in model:
        if hasattr(block, "weight"):
            layers.append({"weight": block.weight.detach().double().tolist(),
                           "bias": block.bias.detach().double().tolist()})
    return {"layers": layers}


def flat(parameter_file):
    values = []
    for layer in parameter_file["layers"]:
        for row in layer["weight"]:
            values.extend(row)
        values.extend(layer["bias"])
    return values


def ddp_worker(rank, port, dtype_name, optimizer, init_path, csv_path, out_path):
    """One DDP process: its quarter of the rows in order, BATCH at a time, STEPS steps."""
    import torch
    import torch.distributed as dist
    torch.set_num_threads(1)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    os.environ["GLOO_SOCKET_IFNAME"] = "lo"
    dist.init_process_group("gloo", rank=rank, world_size=WORKERS)
    dtype = getattr(torch, dtype_name)
    model = build_model(torch, dtype)
    with open(init_path, encoding="utf-8") as f:
        init = json.load(f)
    linears = [b for b in model if hasattr(b, "weight")]
    with torch.no_grad():
        for block, layer in zip(linears, init["layers"]):
            block.weight.copy_(torch.tensor(layer["weight"], dtype=torch.float64))
            block.bias.copy_(torch.tensor(layer["bias"], dtype=torch.float64))
    ddp = torch.nn.parallel.DistributedDataParallel(model)
    if optimizer["kind"] == "sgd":
        opt = torch.optim.SGD(ddp.parameters(), lr=optimizer["lr"], momentum=optimizer["momentum"])
    else:
        opt = torch.optim.Adam(ddp.parameters(), lr=optimizer["lr"],
                               betas=(optimizer["beta1"], optimizer["beta2"]), eps=optimizer["eps"])
    rows = []
    with open(csv_path, encoding="utf-8") as f:
        for line in f:
            rows.append([float(v) for v in line.split(",")])
    mine = rows[rank * ROWS_PER_WORKER:(rank + 1) * ROWS_PER_WORKER]
    loss_fn = torch.nn.CrossEntropyLoss()
    for step in range(STEPS):
        first = (step * BATCH) % ROWS_PER_WORKER
        batch = mine[first:first + BATCH]
        x = torch.tensor([r[:-1] for r in batch], dtype=torch.float64).to(dtype)
        y = torch.tensor([int(r[-1]) for r in batch])
        opt.zero_grad(set_to_none=True)
        loss_fn(ddp(x), y).backward()
        opt.step()
    if rank == 0:
        with open(out_path, "w", encoding="utf-8") as f:
            json.dump(parameters_json(model), f)
    dist.destroy_process_group()


def torch_run(torch, dtype_name, optimizer, init_path, csv_path, out_path):
    torch.multiprocessing.spawn(ddp_worker, nprocs=WORKERS, join=True,
                                args=(free_port(), dtype_name, optimizer, init_path, csv_path,
                                      out_path))
    with open(out_path, encoding="utf-8") as f:
        return flat(json.load(f))


def lockstep_run(cli, precision, optimizer, init_path, csv_path, scenario_path, out_path):
    scenario = {"name": "against DDP", "seed": 3, "workers": WORKERS, "steps": STEPS,
                "batch": BATCH, "algorithm": "ring", "rule": "mean", "shuffle": False,
                "model": {"layers": LAYERS, "activation": "tanh", "loss": "cross-entropy"},
                "optimizer": optimizer, "precision": precision}
    with open(scenario_path, "w", encoding="utf-8") as f:
        json.dump(scenario, f)
    done = subprocess.run([cli, "run", scenario_path, "--dataset", csv_path, "--init-params",
                           init_path, "--params-out", out_path, "--json"],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        fail(f"lockstep-cli run ({precision}) failed:\n{done.stderr}")
    report = json.loads(done.stdout)
    if report.get("precision") != precision:
        fail(f"the report says precision {report.get('precision')}, not {precision}")
    with open(out_path, encoding="utf-8") as f:
        return flat(json.load(f))


def is_float32(value):
    return struct.unpack("f", struct.pack("f", value))[0] == value


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("skipped: PyTorch is not installed (Debian: python3-torch)")
        sys.exit(77)
    torch.manual_seed(7)
    with tempfile.TemporaryDirectory(prefix="lockstep-ddp-") as tmp:
        # Two features and a class per row, the features float32 values written as exact doubles.
        csv_path = os.path.join(tmp, "rows.csv")
        features = torch.randn(WORKERS * ROWS_PER_WORKER, 2).float().double().tolist()
        with open(csv_path, "w", encoding="utf-8") as f:
            for i, (a, b) in enumerate(features):
                f.write(f"{a!r},{b!r},{(i * 7 + int(a > b)) % 3}\n")
        init_path = os.path.join(tmp, "init.json")
        with open(init_path, "w", encoding="utf-8") as f:
            json.dump(parameters_json(build_model(torch, torch.float32)), f)
        for name, optimizer in OPTIMIZERS.items():
            ours = {}
            for precision, tolerance in TOLERANCE.items():
                mine = lockstep_run(args.cli, precision, optimizer, init_path, csv_path,
                                    os.path.join(tmp, f"{name}-{precision}.scenario.json"),
                                    os.path.join(tmp, f"{name}-{precision}.lockstep.json"))
                theirs = torch_run(torch, precision, optimizer, init_path, csv_path,
                                   os.path.join(tmp, f"{name}-{precision}.torch.json"))
                if len(mine) != len(theirs):
                    fail(f"{name} {precision}: {len(mine)} parameters against {len(theirs)}")
                gap = max(abs(a - b) for a, b in zip(mine, theirs))
                moved = max(abs(a - b) for a, b in zip(mine, flat(json.load(open(init_path)))))
                print(f"{name} {precision}: largest difference from DDP {gap:.3g} "
                      f"(parameters moved up to {moved:.3g})")
                if not moved > 1e-3:
                    fail(f"{name} {precision}: the run barely moved the parameters ({moved})")
                if not gap <= tolerance:
                    fail(f"{name} {precision}: {gap} from PyTorch DDP, more than {tolerance}")
                ours[precision] = mine
            if not all(is_float32(v) for v in ours["float32"]):
                fail(f"{name}: a float32 run left parameters that are not floats")
            apart = max(abs(a - b) for a, b in zip(ours["float32"], ours["float64"]))
            if not apart > 1e-9:
                fail(f"{name}: the float32 run gives the float64 run's parameters ({apart})")
    print("PASS")


if __name__ == "__main__":
    main()
