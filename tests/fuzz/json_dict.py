#!/usr/bin/env python3
"""A libFuzzer dictionary for fuzz_report from a JSON Schema: every property name as a
quoted key, every string of an enum as a quoted value, and JSON's own tokens. cJSON does
not compare keys through a traced libc call, so without these the fuzzer would have to
guess each name byte by byte.

    json_dict.py SCHEMA OUT"""
import json
import sys

TOKENS = ["{", "}", "[", "]", ":", ",", "null", "true", "false", "-1", "0", "1e308", "-1e308",
          "4294967296", "1.5", "\"\"", "NaN"]


def walk(node, keys, values):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "properties" and isinstance(v, dict):
                keys.update(v)
            if k == "enum" and isinstance(v, list):
                values.update(x for x in v if isinstance(x, str))
            walk(v, keys, values)
    elif isinstance(node, list):
        for x in node:
            walk(x, keys, values)


def quote(s):
    """A dictionary entry: the bytes between double quotes, \\ and " escaped."""
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def main():
    schema_path, out = sys.argv[1], sys.argv[2]
    keys, values = set(), set()
    with open(schema_path) as f:
        walk(json.load(f), keys, values)
    lines = ["# made by tests/fuzz/json_dict.py from %s" % schema_path]
    lines += [quote('"%s":' % k) for k in sorted(keys)]
    lines += [quote('"%s"' % v) for v in sorted(values)]
    lines += [quote(t) for t in TOKENS]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
