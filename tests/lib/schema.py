"""Validate gpuprof's JSON against the JSON Schemas in schemas/ with a real validator
(python3-jsonschema). When this interpreter lacks it, /usr/bin/python3 (where Debian's
package installs it) is asked instead."""
import json
import os
import subprocess
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(ROOT, "schemas")

_CHECK = r"""
import json, os, sys, warnings
warnings.simplefilter("ignore")
import jsonschema
folder, name = sys.argv[1], sys.argv[2]
store = {}
for f in os.listdir(folder):
    if f.endswith(".json"):
        s = json.load(open(os.path.join(folder, f)))
        store[s["$id"]] = s
        store[f] = s
schema = store[name]
resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=store)
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
errors = sorted(cls(schema, resolver=resolver).iter_errors(json.load(sys.stdin)), key=str)
for e in errors[:5]:
    print("%s: %s" % ("/".join(map(str, e.absolute_path)), e.message))
sys.exit(1 if errors else 0)
"""


def _interpreter():
    for candidate in (sys.executable, "/usr/bin/python3"):
        if candidate and os.path.exists(candidate):
            p = subprocess.run([candidate, "-c", "import jsonschema"], capture_output=True)
            if p.returncode == 0:
                return candidate
    return None


INTERPRETER = _interpreter()


def validate(doc, schema_file):
    """(True, '') when doc is valid, else (False, the first errors)."""
    if INTERPRETER is None:
        return False, "no Python with jsonschema (install python3-jsonschema)"
    p = subprocess.run([INTERPRETER, "-c", _CHECK, SCHEMAS, schema_file],
                       input=json.dumps(doc), capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip()
