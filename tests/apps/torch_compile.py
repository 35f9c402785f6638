#!/usr/bin/env python3
"""torch_compile: a torch.compile'd training loop, whose Triton kernels Inductor autotunes at
their first call: several configurations of one kernel, with one name and launch shape and
different code, are benchmarked and one is kept (issue 44: a kernel is its code, not its name).

    python3 tests/apps/torch_compile.py [STEPS]      (default 20; 1 to 1000)

An MLP (1024 -> 4096 -> 1024, GELU, LayerNorm) on random data, cross-entropy over 1024
classes, AdamW (foreach), its forward and backward compiled by torch.compile (default mode),
STEPS steps on cuda:0 in float32. Inductor's caches go to a fresh temporary folder unless
TORCHINDUCTOR_CACHE_DIR is set, so that every run compiles and autotunes anew (a cached run
would load the kept configuration and benchmark none). Prints `torch_compile: ok (STEPS steps,
loss L)` and exits 0; exits 2 without PyTorch, Triton or a GPU (the reason on stderr), 1 when
the loss is not finite."""
import math
import os
import shutil
import sys
import tempfile


def train(torch, steps):
    torch.manual_seed(0)
    dev = torch.device("cuda:0")
    model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(),
                                torch.nn.Linear(4096, 1024), torch.nn.LayerNorm(1024)).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=True)
    step_model = torch.compile(model)
    x = torch.randn(2048, 1024, device=dev)
    y = torch.randint(0, 1024, (2048,), device=dev)
    loss = None
    for _ in range(steps):
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(step_model(x), y)
        loss.backward()
        opt.step()
    value = float(loss.item())
    torch.cuda.synchronize()
    return value


def main():
    try:
        steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    except ValueError:
        steps = 0
    if not 1 <= steps <= 1000 or len(sys.argv) > 2:
        print("usage: torch_compile.py [STEPS]   (1 to 1000, default 20)", file=sys.stderr)
        return 2
    try:
        import torch
        import triton  # noqa: F401  (Inductor's GPU kernels need it)
    except ImportError as e:
        print("torch_compile: no PyTorch or Triton: %s" % e, file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("torch_compile: no CUDA device for PyTorch", file=sys.stderr)
        return 2
    cache = None
    if not os.environ.get("TORCHINDUCTOR_CACHE_DIR"):
        cache = tempfile.mkdtemp(prefix="torch_compile_")
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
    try:
        value = train(torch, steps)
    finally:
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
    if not math.isfinite(value):
        print("torch_compile: wrong result: the loss is %r" % value, file=sys.stderr)
        return 1
    print("torch_compile: ok (%d steps, loss %.4f)" % (steps, value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
