import json, sys
doc = json.load(open(sys.argv[1]))
keys = ["gld_efficiency", "gld_transactions_per_request", "cp_async_requests", "tma_load_bytes",
        "shared_efficiency", "shared_load_transactions_per_request"]
raw = [k for k in doc["exec"]["launches"][0]["metrics"] if "__" in k] if doc["exec"]["launches"] else []
for l in doc["exec"]["launches"]:
    m = l.get("metrics") or {}
    print("==", l["kernel"][:110], "grid", l["grid"], "block", l["block"])
    for k in keys + sorted(raw):
        e = m.get(k)
        if e is None:
            continue
        print("   %-62s %14s %s" % (k, e.get("value"), ("NOTE: " + e["note"]) if e.get("note") else ""))
