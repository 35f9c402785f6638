#!/usr/bin/env python3
"""torch_train: a small PyTorch training loop, for recording what gpuprof exec makes of a real
framework's kernels (many launches of templated kernels whose names differ deep inside:
elementwise, reductions, cuBLAS GEMMs, AdamW's multi_tensor_apply).

    python3 tests/apps/torch_train.py [--nvtx] [--graph] [STEPS]      (default 3; 1 to 1000)

A two-layer MLP (1024 -> 4096 -> 1024, GELU, LayerNorm) on random data, cross-entropy over 1024
classes, AdamW (foreach), STEPS steps on cuda:0 in float32. With --nvtx, NVTX ranges: one per
op (torch.autograd.profiler.emit_nvtx), and "step" around each step with "forward",
"backward" and "optimizer" inside. With --graph, the whole step (forward, backward, AdamW
with capturable=True) is captured once by torch.cuda.graph, inside a range "graph" holding
"forward", "backward" and "optimizer", after 3 eager steps on a side stream (inside
"warmup"); each of the STEPS steps then replays it inside "step". Prints `torch_train: ok
(STEPS steps, loss L)` and exits 0; exits 2 without PyTorch or a GPU (the reason on stderr),
1 when the loss is not finite."""
import contextlib
import math
import sys


def replayed(torch, steps, ranged, train_step, opt):
    """The whole step captured once by torch.cuda.graph and replayed `steps` times (PyTorch's
    whole-network capture: warm-up on a side stream, static inputs, capturable AdamW)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side), ranged("warmup"):
        for _ in range(3):
            opt.zero_grad(set_to_none=True)
            train_step()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    with ranged("graph"), torch.cuda.graph(g):
        loss = train_step()
    for _ in range(steps):
        with ranged("step"):
            g.replay()
    return loss


def main():
    args = sys.argv[1:]
    nvtx = "--nvtx" in args
    graph = "--graph" in args
    args = [a for a in args if a not in ("--nvtx", "--graph")]
    try:
        steps = int(args[0]) if args else 3
    except ValueError:
        steps = 0
    if not 1 <= steps <= 1000 or len(args) > 1:
        print("usage: torch_train.py [--nvtx] [--graph] [STEPS]   (1 to 1000, default 3)",
              file=sys.stderr)
        return 2
    try:
        import torch
    except ImportError as e:
        print("torch_train: no PyTorch: %s" % e, file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("torch_train: no CUDA device for PyTorch", file=sys.stderr)
        return 2
    torch.manual_seed(0)
    dev = torch.device("cuda:0")
    model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(),
                                torch.nn.Linear(4096, 1024), torch.nn.LayerNorm(1024)).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=True, capturable=graph)
    x = torch.randn(256, 1024, device=dev)
    y = torch.randint(0, 1024, (256,), device=dev)
    loss = None

    def ranged(name):
        return torch.cuda.nvtx.range(name) if nvtx else contextlib.nullcontext()

    def train_step():
        with ranged("forward"):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        with ranged("backward"):
            loss.backward()
        with ranged("optimizer"):
            opt.step()
        return loss

    with torch.autograd.profiler.emit_nvtx() if nvtx else contextlib.nullcontext():
        if graph:
            loss = replayed(torch, steps, ranged, train_step, opt)
        else:
            for _ in range(steps):
                with ranged("step"):
                    opt.zero_grad(set_to_none=True)
                    loss = train_step()
    value = float(loss.item())
    torch.cuda.synchronize()
    if not math.isfinite(value):
        print("torch_train: wrong result: the loss is %r" % value, file=sys.stderr)
        return 1
    print("torch_train: ok (%d steps, loss %.4f)" % (steps, value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
