#!/usr/bin/env python3
"""A small PyTorch training loop under torch.autograd.profiler.emit_nvtx(), with a manual
range around each step and one around the optimizer step: which ranges PyTorch emits (names,
seq numbers of the backward ops, which thread), seen by bench/nvtx_probe/nvtx_tool.c (run.sh
runs it under the tool). With --graph, a forward pass captured by torch.cuda.graph inside a
range "capture" and replayed inside a range "replay".

Prints:
  TORCH steps=N emit=0|1 ms_per_step=X main_tid=T torch=VERSION
  TORCH_GRAPH replays=N ms_per_replay=X        (with --graph)
"""
import argparse
import threading
import time

import torch


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--no-emit", action="store_true", help="no emit_nvtx (the plain loop's time)")
    p.add_argument("--graph", action="store_true", help="also capture and replay a CUDA graph")
    a = p.parse_args()

    torch.manual_seed(0)
    dev = "cuda"
    model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.GELU(),
                                torch.nn.Linear(1024, 512)).to(dev)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(64, 512, device=dev)
    target = torch.randn(64, 512, device=dev)
    nvtx = torch.cuda.nvtx

    def step(i):
        nvtx.range_push("step %d" % i)
        out = model(x)
        loss = torch.nn.functional.mse_loss(out, target)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nvtx.range_push("optimizer_step")
        opt.step()
        nvtx.range_pop()
        nvtx.range_pop()

    for i in range(a.warmup):
        step(-1 - i)
    torch.cuda.synchronize()

    def timed_loop():
        t0 = time.perf_counter()
        for i in range(a.steps):
            step(i)
        torch.cuda.synchronize()
        return (time.perf_counter() - t0) * 1e3 / a.steps

    if a.no_emit:
        ms = timed_loop()
    else:
        with torch.autograd.profiler.emit_nvtx():
            ms = timed_loop()
    print("TORCH steps=%d emit=%d ms_per_step=%.3f main_tid=%d torch=%s" %
          (a.steps, 0 if a.no_emit else 1, ms, threading.get_native_id(), torch.__version__))

    if a.graph:
        static_x = torch.randn(64, 512, device=dev)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side), torch.no_grad():
            for _ in range(3):
                model(static_x)
        torch.cuda.current_stream().wait_stream(side)
        g = torch.cuda.CUDAGraph()
        ctx = torch.autograd.profiler.emit_nvtx() if not a.no_emit else None
        if ctx:
            ctx.__enter__()
        nvtx.range_push("capture")
        with torch.no_grad(), torch.cuda.graph(g):
            static_out = model(static_x)
        nvtx.range_pop()
        torch.cuda.synchronize()
        replays = 3
        t0 = time.perf_counter()
        nvtx.range_push("replay")
        for _ in range(replays):
            g.replay()
        nvtx.range_pop()
        torch.cuda.synchronize()
        if ctx:
            ctx.__exit__(None, None, None)
        print("TORCH_GRAPH replays=%d ms_per_replay=%.3f out_sum=%.3f" %
              (replays, (time.perf_counter() - t0) * 1e3 / replays, float(static_out.sum())))


if __name__ == "__main__":
    main()
