#!/usr/bin/env python3
"""Issue 2 benchmark: the seed's reduction table at n = 2^24, block 512; then at n = 2^28
int32 the best variant's bandwidth against cub and against the device-to-device copy."""
from common import device, gpuprof_json, table, verdict


def main():
    dev = device()
    copy = dev["copy_bandwidth_gbps"]
    print("GPU: %s, peak %.1f GB/s, device-to-device copy %.1f GB/s (read + written)\n" %
          (dev["name"], dev["peak_bandwidth_gbps"], copy))
    doc = gpuprof_json("reduce", "--size=2^24", "--block=512", "--metrics=none", "--repeat=50",
                       save="reduce-2p24.json")
    print("reduce int32, n = 2^24, block 512 (median of 50; GB/s = 10^9 bytes/s):")
    table(["variant", "grid", "time_ms", "GB/s", "%peak", "vs copy", "check"],
          [[r["variant"], r["launch"]["grid"][0] or "-", "%.4f" % r["timing"]["median_ms"],
            "%.1f" % r["bandwidth_gbps"], "%.1f" % r["percent_of_peak"],
            "%.3f" % (r["bandwidth_gbps"] / copy), r["check"]["status"]] for r in doc["results"]])

    big = gpuprof_json("reduce", "--size=2^28", "--metrics=none", "--repeat=30",
                       save="reduce-2p28.json")
    res = {r["variant"]: r for r in big["results"]}
    best = max((r for r in big["results"] if r["variant"] != "cub"),
               key=lambda r: r["bandwidth_gbps"])
    cub = res["cub"]
    print("\nreduce int32, n = 2^28 (1 GiB), each variant's default block:")
    table(["variant", "time_ms", "GB/s", "check"],
          [[r["variant"], "%.4f" % r["timing"]["median_ms"], "%.1f" % r["bandwidth_gbps"],
            r["check"]["status"]] for r in sorted(big["results"], key=lambda r: -r["bandwidth_gbps"])[:5]])
    print("\nbest variant: %s at %.1f GB/s" % (best["variant"], best["bandwidth_gbps"]))
    print("best / cub  = " + verdict(best["bandwidth_gbps"] / cub["bandwidth_gbps"], 1.00))
    print("best / copy = " + verdict(best["bandwidth_gbps"] / copy, 0.97))


if __name__ == "__main__":
    main()
