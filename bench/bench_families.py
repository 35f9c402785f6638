#!/usr/bin/env python3
"""Issue 3 benchmark: transpose at 8192x8192 (every variant, best / copy, the book's
ordering, the block-shape tuning of section 5.4.5), reduce2d inner vs outer per pass, and
saxpy grid-stride vs monolithic."""
from common import device, gpuprof_json, table, verdict


def transpose(copy):
    doc = gpuprof_json("transpose", "--size=8192x8192", "--metrics=none", "--repeat=30",
                       save="transpose-8192.json")
    rows, res = [], {}
    for r in doc["results"]:
        pad = r["params"].get("pad")
        name = r["variant"] + ("" if pad is None else " pad=%d" % pad)
        res[name] = r
        rows.append([name, "%dx%d" % tuple(r["launch"]["block"][:2]),
                     "%.4f" % r["timing"]["median_ms"], "%.1f" % r["bandwidth_gbps"],
                     "%.3f" % (r["bandwidth_gbps"] / copy), r["check"]["status"]])
    for variant, pad in (("smem", 1), ("smem", 2), ("smemunroll", 0)):
        more = gpuprof_json("transpose", "--variant=" + variant, "--pad=%d" % pad,
                            "--size=8192x8192", "--metrics=none", "--repeat=30")
        for r in more["results"]:
            name = "%s pad=%d" % (r["variant"], r["params"]["pad"])
            res[name] = r
            rows.append([name, "%dx%d" % tuple(r["launch"]["block"][:2]),
                         "%.4f" % r["timing"]["median_ms"], "%.1f" % r["bandwidth_gbps"],
                         "%.3f" % (r["bandwidth_gbps"] / copy), r["check"]["status"]])
    print("transpose float32 8192x8192 (read once + written once; median of 30):")
    table(["variant", "block", "time_ms", "GB/s", "/ copy", "check"], rows)
    best = max((r for k, r in res.items() if r["variant"] != "copy"),
               key=lambda r: r["bandwidth_gbps"])
    print("best transpose: %s, best / device copy = %s" % (
        best["variant"], verdict(best["bandwidth_gbps"] / copy, 0.95)))
    order = [res["naive"]["bandwidth_gbps"], res["smem pad=0"]["bandwidth_gbps"],
             max(res["smem pad=1"]["bandwidth_gbps"], res["smem pad=2"]["bandwidth_gbps"])]
    print("book's ordering naive < smem < padded smem (best pad): %.1f < %.1f < %.1f GB/s: %s" % (
        order[0], order[1], order[2], "reproduced" if order[0] < order[1] < order[2] else "NOT reproduced"))


def block_tuning():
    shapes = ["32x32", "32x16", "32x8", "16x32", "16x16", "16x8", "8x32", "8x16", "64x8", "64x4"]
    rows = []
    for v, pad in (("smem", 0), ("smem", 1), ("smemunroll", 1)):
        doc = gpuprof_json("transpose", "--variant=" + v, "--pad=%d" % pad, "--block=" + ",".join(shapes),
                           "--size=8192x8192", "--metrics=none", "--repeat=20")
        rows.append(["%s pad=%d" % (v, pad)] + ["%.0f" % r["bandwidth_gbps"] for r in doc["results"]])
    print("\nblock-shape tuning (book 5.4.5), transpose 8192x8192, GB/s:")
    table(["variant"] + shapes, rows)


def reduce2d():
    rows = []
    for group in (8, 16):
        doc = gpuprof_json("reduce2d", "--size=4096x4096", "--group=%d" % group, "--metrics=none",
                           "--repeat=30", save="reduce2d-g%d.json" % group)
        for r in doc["results"]:
            for p in r["passes"]:
                rows.append([r["variant"], group, p["pass"], "%dx%d" % tuple(p["input_shape"]),
                             "%dx%d" % tuple(p["output_shape"]), "%.4f" % p["median_ms"]])
            rows.append([r["variant"], group, "total", "", "", "%.4f" % r["timing"]["median_ms"]])
    print("\nreduce2d 4096x4096 float32, per pass (median ms of 30):")
    table(["variant", "group", "pass", "input", "output", "time_ms"], rows)


def saxpy(copy):
    doc = gpuprof_json("saxpy", "--size=2^26", "--metrics=none", "--repeat=30", save="saxpy.json")
    print("\nsaxpy float32 n = 2^26 (x read, y read, y written):")
    table(["variant", "grid", "block", "time_ms", "GB/s", "/ copy", "check"],
          [[r["variant"], r["launch"]["grid"][0], r["launch"]["block"][0],
            "%.4f" % r["timing"]["median_ms"], "%.1f" % r["bandwidth_gbps"],
            "%.3f" % (r["bandwidth_gbps"] / copy), r["check"]["status"]] for r in doc["results"]])


def main():
    dev = device()
    copy = dev["copy_bandwidth_gbps"]
    print("GPU: %s, device-to-device copy %.1f GB/s (read + written)\n" % (dev["name"], copy))
    transpose(copy)
    block_tuning()
    reduce2d()
    saxpy(copy)


if __name__ == "__main__":
    main()
