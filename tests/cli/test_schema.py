#!/usr/bin/env python3
"""tests/lib/schema.py, the standard-library validator every schema check uses:
- it refuses a schema it cannot apply (a keyword it does not implement, another draft, a $ref
  that leads nowhere, a malformed keyword value);
- it decides the draft's corner cases as the draft does (integer 2.0, true is not 1, ...);
- where python-jsonschema is installed, it gives the same verdict as jsonschema on every
  fixture and golden JSON document and on systematically mutated versions of them (pruned
  to the array items and map entries that bring a general path of their own, every general
  path kept): each value replaced by values of other types and out of range, each key
  removed, unknown keys added, arrays emptied, grown and given a duplicate, the root given the
  keys of other documents. Without jsonschema that part reports skip with the reason."""
import copy
import glob
import json
import os
import shutil
import tempfile
import time
import warnings

import schema
import tap

ROOT = schema.ROOT
REPORT = "gpuprof-report-v1.schema.json"
COMPARE = "gpuprof-compare-v1.schema.json"
CATALOG = "gpuprof-catalog-v1.schema.json"

# What replaces a value: every JSON type, and numbers at the schemas' limits (minimum 0 and
# 1, exclusiveMinimum 0, maximum 255), a float that is an integer, and a string that breaks
# the name pattern.
REPLACEMENTS = (None, True, False, 0, -1, 0.5, 2.0, 256, 2 ** 53, "", "x", "Bad-Name", [], {})


# ---- the documents ---------------------------------------------------------------------

def schema_for(doc):
    if not isinstance(doc, dict):
        return None
    if doc.get("command") == "compare":
        return COMPARE
    if any(k in doc for k in ("families", "devices", "chip")):
        return CATALOG
    return REPORT


def documents():
    """[(name, schema file, document)]: the fixtures, the golden inputs and every golden
    output that is a JSON document."""
    found = []
    for pattern in ("tests/fixtures/*.json", "tests/golden/inputs/*.json"):
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            with open(path) as f:
                doc = json.load(f)
            found.append((os.path.relpath(path, ROOT), schema_for(doc), doc))
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "golden", "out", "*"))):
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        out = text.split("--- stdout\n", 1)[-1]
        if text.startswith("exit 0\n") and out.lstrip().startswith("{"):
            doc = json.loads(out)
            found.append((os.path.relpath(path, ROOT), schema_for(doc), doc))
    return found


# ---- mutations -------------------------------------------------------------------------

def nodes(doc, path=()):
    """Every (path, value) of a document, the root first."""
    yield path, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from nodes(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from nodes(v, path + (i,))


def map_names():
    """Names of the properties whose value is a map (an object whose keys are free and whose
    values share additionalProperties' schema): gpuprof's metrics, params, inputs, ..."""
    v = schema.validator()
    names = set()

    def is_map(s, base):
        if isinstance(s, dict) and "$ref" in s:
            s, base = v.resolve(s["$ref"], base)
        if not isinstance(s, dict):
            return False
        return isinstance(s.get("additionalProperties"), dict) or \
            any(is_map(b, base) for b in s.get("oneOf", []))

    def walk(s, base):
        if isinstance(s, dict):
            for name, sub in s.get("properties", {}).items():
                if is_map(sub, base):
                    names.add(name)
            for sub in s.values():
                walk(sub, base)
        elif isinstance(s, list):
            for sub in s:
                walk(sub, base)
    for uri, s in v.documents.items():
        walk(s, uri)
    return names


def general(path, maps):
    """Where in a schema a value sits: its path with array indices as * and a map's keys as
    <key>."""
    parts = []
    for i, p in enumerate(path):
        parts.append("*" if isinstance(p, int) else
                     "<key>" if i and path[i - 1] in maps else p)
    return "/".join(parts)


def mutations(doc, path, value, root_keys):
    """(what, mutated document) for one place of a document. The document is changed in
    place and put back as it was before the next mutation is made: read each one before
    asking for the next."""
    where = "/" + "/".join(map(str, path))
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    for r in REPLACEMENTS:
        if not (type(r) is type(value) and r == value):
            if not path:
                yield "%s = %s" % (where, json.dumps(r)), r
                continue
            parent[path[-1]] = r
            yield "%s = %s" % (where, json.dumps(r)), doc
            parent[path[-1]] = value
    if isinstance(value, dict):
        keys = dict(value)

        def restore():
            value.clear()
            value.update(keys)
        for k in keys:
            del value[k]
            yield "%s without %s" % (where, k), doc
            restore()
        for k in ("zz_extra", "Bad-Key"):
            value[k] = 1
            yield "%s plus %s" % (where, k), doc
            restore()
        if not path:
            for k, v in sorted(root_keys.items()):
                if k not in keys:
                    value[k] = v
                    yield "/ plus %s" % k, doc
                    restore()
    if isinstance(value, list) and value:
        value.append(value[0])
        yield where + " with its first item twice", doc
        value.pop()
        last = value.pop()
        yield where + " without its last item", doc
        value.append(last)


def shapes(node, path, maps):
    """The general paths of a node and everything below it."""
    return {general(p, maps) for p, _ in nodes(node, path)}


def pruned(node, path, maps):
    """A copy of a document without the array items and map entries (objects or arrays) that
    bring no general path the ones before them do not have: every general path of the
    document, in a fraction of its size (results, launches and metrics repeat their shapes).
    Numbers and strings stay (a grid's three numbers)."""
    if isinstance(node, list) or (isinstance(node, dict) and path and path[-1] in maps):
        keys = range(len(node)) if isinstance(node, list) else list(node)
        seen, kept = set(), []
        for k in keys:
            new = shapes(node[k], path + (k,), maps) - seen
            if new or not kept or not isinstance(node[k], (dict, list)):
                seen |= new
                kept.append(k)
        if isinstance(node, list):
            return [pruned(node[k], path + (k,), maps) for k in kept]
        return {k: pruned(node[k], path + (k,), maps) for k in kept}
    if isinstance(node, dict):
        return {k: pruned(v, path + (k,), maps) for k, v in node.items()}
    return node


def plan(docs, maps):
    """Per schema, each general path once, in the smallest document that has it."""
    chosen = {}
    for name, schema_file, doc in sorted(docs, key=lambda d: len(json.dumps(d[2]))):
        for path, value in nodes(doc):
            chosen.setdefault((schema_file, general(path, maps)), (name, doc, path, value))
    return chosen


# ---- the reference ---------------------------------------------------------------------

class Reference:
    """python-jsonschema, when this interpreter has it: `.why` says why not otherwise."""

    def __init__(self):
        self.jsonschema, self.why = None, ""
        try:
            import jsonschema
        except ImportError as e:
            self.why = "python-jsonschema is not installed here (%s)" % e
            return
        warnings.simplefilter("ignore", DeprecationWarning)
        if not hasattr(jsonschema, "RefResolver"):
            self.why = "this jsonschema (%s) has no RefResolver" % jsonschema.__file__
            return
        self.jsonschema = jsonschema
        self.store = {}
        for path in glob.glob(os.path.join(schema.SCHEMAS, "*.json")):
            with open(path) as f:
                s = json.load(f)
            self.store[s["$id"]] = s
            self.store[os.path.basename(path)] = s
        self.validators = {}

    def validator(self, s):
        """jsonschema's validator of schema s (resolving references among schemas/),
        after checking s against the draft's metaschema."""
        cls = self.jsonschema.validators.validator_for(s)
        cls.check_schema(s)
        resolver = self.jsonschema.RefResolver(base_uri=s.get("$id", ""), referrer=s,
                                               store=self.store)
        return cls(s, resolver=resolver)

    def valid(self, doc, name):
        if name not in self.validators:
            self.validators[name] = self.validator(self.store[name])
        return self.validators[name].is_valid(doc)


# ---- the tests -------------------------------------------------------------------------

def refused(schemas, expect, what):
    """schemas: {file name: schema}; the validator must refuse to load them, saying expect."""
    folder = tempfile.mkdtemp(prefix="gpuprof-schema.")
    try:
        for name, s in schemas.items():
            with open(os.path.join(folder, name), "w") as f:
                json.dump(s, f)
        try:
            schema.Validator(folder)
            tap.ok(False, "refused: " + what, "the validator loaded it")
        except schema.SchemaError as e:
            tap.ok(expect in str(e), "refused: %s (%s)" % (what, e), "expected %r" % expect)
    finally:
        shutil.rmtree(folder)


def test_refusals():
    def doc(**body):
        return {"t.json": dict({"$schema": schema.DRAFT, "$id": "https://x/t.json"}, **body)}
    refused(doc(type="string", format="date"), "keyword format is not implemented",
            "an unimplemented keyword at the root")
    refused(doc(properties={"a": {"items": {"anyOf": [{"type": "null"}]}}}),
            "t.json#/properties/a/items/anyOf: keyword anyOf is not implemented",
            "an unimplemented keyword deep inside, with its place")
    refused(doc(**{"$defs": {"a": {"maxLength": 3}}}), "keyword maxLength",
            "an unimplemented keyword in $defs, reached only through $ref")
    refused({"t.json": {"$schema": "http://json-schema.org/draft-07/schema#",
                        "$id": "https://x/t.json"}}, "$schema must be", "another draft")
    refused(doc(**{"$ref": "#/$defs/nowhere"}), "leads nowhere", "a $ref to nothing")
    refused(doc(**{"$ref": "other.json#/$defs/a"}), "leads nowhere",
            "a $ref to another document that is not there")
    refused(doc(**{"$ref": "#name"}), "leads nowhere", "a $ref to an anchor")
    refused(doc(minimum="1"), "must be a number", "a keyword value of the wrong type")
    refused(doc(type="float"), "must be one of", "an unknown type")
    refused(doc(pattern="(unclosed"), "pattern", "a pattern that is not a regular expression")
    refused(doc(then={"required": ["a"]}), "without if", "then without if")
    refused(doc(properties={"a": {"$id": "https://x/a.json"}}), "below a document's root",
            "an $id below the root")


# (schema, instance, valid?) by the draft's rules, whoever validates.
CORNERS = (
    ({"type": "integer"}, 2.0, True),
    ({"type": "integer"}, 2.5, False),
    ({"type": "integer"}, True, False),
    ({"type": "number"}, False, False),
    ({"type": ["string", "null"]}, None, True),
    ({"const": 1}, 1.0, True),
    ({"const": 1}, True, False),
    ({"const": False}, 0, False),
    ({"enum": ["default", "all"]}, "none", False),
    ({"enum": [[1, 2]]}, [1.0, 2], True),
    ({"uniqueItems": True}, [1, 1.0], False),
    ({"uniqueItems": True}, [1, True], True),
    ({"uniqueItems": True}, [{"a": 1}, {"a": 1}], False),
    ({"minimum": 1}, "0", True),
    ({"minimum": 1}, 0.999, False),
    ({"exclusiveMinimum": 0}, 0, False),
    ({"maximum": 255}, 255.0, True),
    ({"pattern": "^[a-z][a-z0-9_]*$"}, "gld_efficiency", True),
    ({"pattern": "^[a-z][a-z0-9_]*$"}, "Gld", False),
    ({"pattern": "[0-9]"}, "a1b", True),
    ({"minItems": 3, "maxItems": 3}, [0, 0], False),
    ({"required": ["a"]}, [], True),
    ({"properties": {"a": {"type": "string"}}, "additionalProperties": False}, {"a": "x"}, True),
    ({"properties": {"a": {"type": "string"}}, "additionalProperties": False}, {"b": 1}, False),
    ({"additionalProperties": {"type": "number"}}, {"b": "1"}, False),
    ({"propertyNames": {"pattern": "^[a-z]+$"}}, {"Ab": 1}, False),
    ({"oneOf": [{"type": "number"}, {"type": "integer"}]}, 1, False),
    ({"oneOf": [{"type": "number"}, {"type": "integer"}]}, 1.5, True),
    ({"if": {"properties": {"c": {"const": "exec"}}}, "then": {"required": ["e"]},
      "else": {"required": ["r"]}}, {"c": "exec", "r": 1}, False),
    ({"if": {"properties": {"c": {"const": "exec"}}}, "then": {"required": ["e"]},
      "else": {"required": ["r"]}}, {"c": "kernel", "r": 1}, True),
    ({"if": {"properties": {"c": {"const": "exec"}}}, "then": {"required": ["e"]},
      "else": {"required": ["r"]}}, {"r": 1}, False),     # no c: `if` holds
    ({"allOf": [{"type": "object"}, {"required": ["a"]}]}, {}, False),
    ({"$ref": "#/$defs/n", "$defs": {"n": {"minimum": 1}}, "type": "integer"}, 1.5, False),
)




def test_corners(ref):
    """Each corner case by this validator, and by jsonschema where present."""
    folder = tempfile.mkdtemp(prefix="gpuprof-schema.")
    try:
        for i, (s, _, _) in enumerate(CORNERS):
            with open(os.path.join(folder, "c%02d.json" % i), "w") as f:
                json.dump(dict(s, **{"$schema": schema.DRAFT, "$id": "https://x/c%02d.json" % i}),
                          f)
        mine = schema.Validator(folder)
        for i, (s, x, want) in enumerate(CORNERS):
            what = "%s against %s: %s" % (json.dumps(x), json.dumps(s),
                                          "valid" if want else "invalid")
            s, uri = mine.schema_of("c%02d.json" % i)
            tap.ok(mine.valid(x, s, uri) == want, "schema.py: " + what)
            if ref.jsonschema:
                tap.ok(ref.validator(s).is_valid(x) == want, "jsonschema: " + what)
    finally:
        shutil.rmtree(folder)
    if not ref.jsonschema:
        tap.skip("jsonschema decides the corner cases as schema.py does", ref.why)


def test_documents(ref, docs):
    tap.ok(len(docs) >= 20 and {s for _, s, _ in docs} == {REPORT, COMPARE, CATALOG},
           "fixtures and golden JSON found for every schema (%d documents)" % len(docs))
    for name, schema_file, doc in docs:
        valid, why = schema.validate(doc, schema_file)
        tap.ok(valid, "%s is valid against %s" % (name, schema_file), why)
        if ref.jsonschema:
            tap.ok(ref.valid(doc, schema_file), "jsonschema agrees: %s is valid" % name)


def asserting_keywords():
    """The keywords of schemas/ that reject values themselves (not through a subschema)."""
    used = set()

    def walk(s):
        if isinstance(s, dict):
            used.update(k for k in s if k in schema.KEYWORDS)
            for v in s.values():
                walk(v)
        elif isinstance(s, list):
            for v in s:
                walk(v)
    for path in glob.glob(os.path.join(schema.SCHEMAS, "*.json")):
        with open(path) as f:
            walk(json.load(f))
    return used - {"items", "properties", "allOf", "$ref", "if", "then", "else"}


def test_mutations(ref, docs):
    if not ref.jsonschema:
        tap.skip("schema.py and jsonschema give the same verdicts on mutated documents", ref.why)
        return
    mine = schema.validator()
    start, failed = time.time(), set()
    # Each document pruned to the items and map entries that bring a general path of their
    # own: mutations of a smaller document cost less to check. A pruned document is itself
    # checked by both; one they refuse (a minItems, say) is mutated whole.
    maps, small, whole, differ = map_names(), [], [], []
    for name, schema_file, doc in docs:
        cut = pruned(doc, (), maps)
        errors = list(mine.iter_errors(cut, schema_file))
        theirs = ref.valid(cut, schema_file)
        if (not errors) != theirs:
            differ.append("%s pruned: schema.py says %s, jsonschema %s" % (
                name, "valid" if not errors else "invalid: " + errors[0][2],
                "valid" if theirs else "invalid"))
        if errors or not theirs or shapes(cut, (), maps) != shapes(doc, (), maps):
            cut = doc
            whole.append(name)
        small.append((name, schema_file, cut))
    tap.ok(not differ, "schema.py and jsonschema agree on the %d documents pruned to their "
           "general paths (%d bytes of %d; %d mutated whole: %s)" % (
               len(docs), sum(len(json.dumps(d)) for _, _, d in small),
               sum(len(json.dumps(d)) for _, _, d in docs), len(whole),
               " ".join(whole) or "none"), "\n".join(differ))
    chosen = plan(small, maps)
    root_keys = {}
    for _, schema_file, doc in small:
        for k, v in doc.items():
            root_keys.setdefault(schema_file, {}).setdefault(k, v)
    texts = [json.dumps(d) for _, _, d in small]
    for schema_file in (REPORT, COMPARE, CATALOG):
        total, rejected, differ = 0, 0, []
        for (s, _), (name, doc, path, value) in sorted(chosen.items(), key=lambda c: c[0]):
            if s != schema_file:
                continue
            for what, mutant in mutations(doc, path, value, root_keys[schema_file]):
                errors = list(mine.iter_errors(mutant, schema_file))
                theirs = ref.valid(mutant, schema_file)
                total += 1
                rejected += bool(errors)
                failed.update(kw for _, kw, _ in errors)
                if (not errors) != theirs:
                    differ.append("%s, %s: schema.py says %s, jsonschema %s" % (
                        name, what, "valid" if not errors else "invalid: " + errors[0][2],
                        "valid" if theirs else "invalid"))
        tap.ok(not differ, "%s: schema.py and jsonschema agree on %d mutated documents "
               "(%d rejected)" % (schema_file, total, rejected), "\n".join(differ[:20]))
        tap.ok(0 < rejected < total, "%s: the mutations give both verdicts" % schema_file)
    tap.ok(texts == [json.dumps(d) for _, _, d in small],
           "each mutated document was put back as it was after its mutations")
    missing = asserting_keywords() - failed
    tap.ok(not missing, "every keyword of schemas/ rejected some mutation (%s)"
           % " ".join(sorted(failed)), "never: " + " ".join(sorted(missing)))
    print("# mutations checked in %.1f s" % (time.time() - start))


def test_graph_fields():
    """The report schema holds "how", "note" and "graph_profiling" (tests/fixtures/exec-graph.json)
    to what gpuprof writes and reads, and accepts reports without them (an older gpuprof's)."""
    with open(os.path.join(ROOT, "tests", "fixtures", "exec-graph.json")) as f:
        doc = json.load(f)
    valid, why = schema.validate(doc, REPORT)
    tap.ok(valid, "exec-graph.json is valid against the report schema", why)

    def launch(i, **fields):
        d = copy.deepcopy(doc)
        d["exec"]["launches"][i].update(fields)
        return d

    older = copy.deepcopy(doc)
    del older["exec"]["graph_profiling"]
    for l in older["exec"]["launches"]:
        del l["how"], l["note"]
    valid, why = schema.validate(older, REPORT)
    tap.ok(valid, "schema: an exec report without how, note and graph_profiling is valid", why)
    bad = [("how naming no way", launch(1, how=["replayed"])),
           ("how naming a way twice", launch(1, how=["shadow", "shadow"])),
           ("how as a string", launch(1, how="shadow")),
           ("a note empty", launch(1, note="")),
           ("a note as a number", launch(1, note=1)),
           ("an unknown graph profiling",
            dict(doc, exec=dict(doc["exec"], graph_profiling="nodes")))]
    for what, d in bad:
        valid, _ = schema.validate(d, REPORT)
        tap.ok(not valid, "schema: %s is invalid" % what)


def main():
    test_refusals()
    test_graph_fields()
    ref = Reference()
    test_corners(ref)
    docs = documents()
    test_documents(ref, docs)
    test_mutations(ref, docs)
    tap.done()


if __name__ == "__main__":
    main()
