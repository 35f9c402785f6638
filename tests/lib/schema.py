"""Validate gpuprof's JSON against the JSON Schemas in schemas/ with a real validator
(python3-jsonschema). When this interpreter lacks it, /usr/bin/python3 (where Debian's
package installs it) is asked instead, then either with the copy `make test` staged into
BUILD/third_party/python (run_tests.py puts that on PYTHONPATH already; this is for a test
script run by hand). With none, every validation fails saying what to install."""
import json
import os
import subprocess
import sys
import warnings

import pydeps

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


BUILD = os.environ.get("GPUPROF_BUILD", os.path.join(ROOT, "build"))
CANDIDATES = (sys.executable, "/usr/bin/python3")


def _interpreter():
    """(python, environment) that imports jsonschema, or (None, None)."""
    env = dict(os.environ)
    for candidate in CANDIDATES:
        if pydeps.imports(candidate, ["jsonschema"], env):
            return candidate, env
    staged = pydeps.staged_site(BUILD)
    if staged:
        env = pydeps.with_path(env, staged)
        for candidate in CANDIDATES:
            if pydeps.imports(candidate, ["jsonschema"], env):
                return candidate, env
    return None, None


INTERPRETER, ENV = _interpreter()


def validate(doc, schema_file):
    """(True, '') when doc is valid, else (False, the first errors)."""
    if INTERPRETER is None:
        return False, "no Python with jsonschema: " + pydeps.how_to_install(BUILD)
    p = subprocess.run([INTERPRETER, "-c", _CHECK, SCHEMAS, schema_file],
                       input=json.dumps(doc), capture_output=True, text=True, env=ENV)
    return p.returncode == 0, (p.stdout + p.stderr).strip()
