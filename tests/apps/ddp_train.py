#!/usr/bin/env python3
"""ddp_train: a PyTorch DistributedDataParallel loop over NCCL, one process per GPU, for what
gpuprof exec makes of a distributed job under its own launcher (issue 38): every rank's
gradients all-reduced by NCCL's device kernels at each step.

    torchrun --standalone --nproc_per_node=2 tests/apps/ddp_train.py [STEPS] [--uneven]

Each rank (RANK, LOCAL_RANK and WORLD_SIZE from torchrun) trains a two-layer MLP (1024 -> 4096
-> 1024, GELU) wrapped in DDP on cuda:LOCAL_RANK with its own random data (seed 0 + rank), SGD,
STEPS steps (default 10; 1 to 1000), float32. With --uneven the last rank also multiplies a
4096 x 4096 matrix at each step, so it reaches each all-reduce late and the others wait for it.
Prints `ddp_train: rank R of W ok (STEPS steps, loss L, weights C)`, where C is the sum of the
model's weights (equal on every rank: DDP keeps them in step), and exits 0; exits 2 without
PyTorch, CUDA, NCCL or torchrun's environment (the reason on stderr), 1 when a result is not
finite."""
import math
import os
import sys


def usage():
    print("usage: torchrun --nproc_per_node=N ddp_train.py [STEPS] [--uneven]   (STEPS 1 to "
          "1000, default 10)", file=sys.stderr)
    return 2


def parse(args):
    uneven = "--uneven" in args
    rest = [a for a in args if a != "--uneven"]
    if len(rest) > 1:
        return None, uneven
    try:
        steps = int(rest[0]) if rest else 10
    except ValueError:
        return None, uneven
    return (steps if 1 <= steps <= 1000 else None), uneven


def environment():
    try:
        return (int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"]),
                int(os.environ["WORLD_SIZE"]))
    except (KeyError, ValueError):
        return None


def train(torch, rank, local, world, steps, uneven):
    dist = torch.distributed
    dev = torch.device("cuda", local)
    torch.cuda.set_device(dev)
    dist.init_process_group("nccl", device_id=dev)
    torch.manual_seed(0)  # the same initial weights on every rank
    model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(),
                                torch.nn.Linear(4096, 1024)).to(dev)
    ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=[local])
    opt = torch.optim.SGD(ddp.parameters(), lr=1e-2)
    gen = torch.Generator(device=dev).manual_seed(rank)
    x = torch.randn(256, 1024, device=dev, generator=gen)
    y = torch.randn(256, 1024, device=dev, generator=gen)
    extra = torch.randn(4096, 4096, device=dev, generator=gen) if uneven else None
    loss = None
    for _ in range(steps):
        if extra is not None and rank == world - 1:
            extra = torch.tanh(extra @ extra * 1e-3)
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.mse_loss(ddp(x), y)
        loss.backward()
        opt.step()
    torch.cuda.synchronize()
    value = float(loss.item())
    weights = float(sum(p.double().sum().item() for p in model.parameters()))
    dist.barrier()
    dist.destroy_process_group()
    return value, weights


def main():
    steps, uneven = parse(sys.argv[1:])
    if steps is None:
        return usage()
    env = environment()
    if env is None:
        print("ddp_train: RANK, LOCAL_RANK and WORLD_SIZE are not set: run it under torchrun",
              file=sys.stderr)
        return 2
    rank, local, world = env
    try:
        import torch
        import torch.distributed
    except ImportError as e:
        print("ddp_train: no PyTorch: %s" % e, file=sys.stderr)
        return 2
    if not torch.cuda.is_available() or torch.cuda.device_count() <= local:
        print("ddp_train: no CUDA device %d for PyTorch" % local, file=sys.stderr)
        return 2
    if not torch.distributed.is_nccl_available():
        print("ddp_train: PyTorch has no NCCL", file=sys.stderr)
        return 2
    value, weights = train(torch, rank, local, world, steps, uneven)
    if not (math.isfinite(value) and math.isfinite(weights)):
        print("ddp_train: rank %d: wrong result: loss %r, weights %r" % (rank, value, weights),
              file=sys.stderr)
        return 1
    print("ddp_train: rank %d of %d ok (%d steps, loss %.6f, weights %.9e)"
          % (rank, world, steps, value, weights))
    return 0


if __name__ == "__main__":
    sys.exit(main())
