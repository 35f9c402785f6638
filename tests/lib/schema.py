"""Validate gpuprof's JSON against the JSON Schemas in schemas/, with the standard library
only: every schema check of the tests goes through here, so `make test` needs no third-party
module on any machine.

It implements exactly the part of JSON Schema draft 2020-12 that schemas/*.json use (KEYWORDS
below) with the draft's semantics: `integer` includes 2.0 and excludes true, `const`, `enum`
and `uniqueItems` compare as JSON does (1 == 1.0, true != 1), `$ref` applies beside its
sibling keywords, `pattern` is searched for, unanchored, as python-jsonschema does. Loading a
schema that uses any other keyword, another draft, a `$ref` that leads nowhere or a malformed
keyword value raises SchemaError, so that a schema edit cannot pass unchecked.
tests/cli/test_schema.py cross-checks the verdicts against python-jsonschema where it is
installed."""
import json
import math
import os
import re
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(ROOT, "schemas")
DRAFT = "https://json-schema.org/draft/2020-12/schema"


class SchemaError(Exception):
    """A schema this validator cannot apply faithfully."""


# ---- JSON's data model -------------------------------------------------------------------

def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


TYPES = {
    "null": lambda x: x is None,
    "boolean": lambda x: isinstance(x, bool),
    "integer": lambda x: is_number(x) and (isinstance(x, int) or
                                           (math.isfinite(x) and x.is_integer())),
    "number": is_number,
    "string": lambda x: isinstance(x, str),
    "array": lambda x: isinstance(x, list),
    "object": lambda x: isinstance(x, dict),
}


def json_equal(a, b):
    """Equality of JSON values: numbers by value whatever their Python type, booleans apart."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def describe(x):
    text = json.dumps(x)
    return text if len(text) <= 60 else text[:57] + "..."


# ---- keywords: each yields (path below the instance, the keyword that failed, message) for
# every violation; an applicator passes on those of the schemas it applies.
# `v` is the validator, `base` the URI of the document the schema sits in (for $ref).

def k_type(v, want, x, base):
    names = want if isinstance(want, list) else [want]
    if not any(TYPES[n](x) for n in names):
        yield (), "type", "%s is not of type %s" % (describe(x), " or ".join(names))


def k_const(v, want, x, base):
    if not json_equal(x, want):
        yield (), "const", "%s is not %s" % (describe(x), describe(want))


def k_enum(v, choices, x, base):
    if not any(json_equal(x, c) for c in choices):
        yield (), "enum", "%s is not one of %s" % (describe(x), describe(choices))


def k_minimum(v, limit, x, base):
    if is_number(x) and x < limit:
        yield (), "minimum", "%s is less than the minimum %s" % (describe(x), limit)


def k_exclusive_minimum(v, limit, x, base):
    if is_number(x) and x <= limit:
        yield (), "exclusiveMinimum", "%s is not greater than %s" % (describe(x), limit)


def k_maximum(v, limit, x, base):
    if is_number(x) and x > limit:
        yield (), "maximum", "%s is greater than the maximum %s" % (describe(x), limit)


def k_pattern(v, pattern, x, base):
    if isinstance(x, str) and not re.search(pattern, x):
        yield (), "pattern", "%s does not match %s" % (describe(x), pattern)


def k_min_items(v, n, x, base):
    if isinstance(x, list) and len(x) < n:
        yield (), "minItems", "%d items, fewer than %d" % (len(x), n)


def k_max_items(v, n, x, base):
    if isinstance(x, list) and len(x) > n:
        yield (), "maxItems", "%d items, more than %d" % (len(x), n)


def k_unique_items(v, unique, x, base):
    if unique and isinstance(x, list):
        for i in range(len(x)):
            for j in range(i + 1, len(x)):
                if json_equal(x[i], x[j]):
                    yield (), "uniqueItems", "items %d and %d are equal" % (i, j)
                    return


def k_items(v, schema, x, base):
    if isinstance(x, list):
        for i, item in enumerate(x):
            for path, kw, msg in v.errors(item, schema, base):
                yield (i,) + path, kw, msg


def k_required(v, names, x, base):
    if isinstance(x, dict):
        for name in names:
            if name not in x:
                yield (), "required", "%s is a required property" % describe(name)


def k_properties(v, props, x, base):
    if isinstance(x, dict):
        for name, schema in props.items():
            if name in x:
                for path, kw, msg in v.errors(x[name], schema, base):
                    yield (name,) + path, kw, msg


def k_additional_properties(v, schema, x, base, props):
    if isinstance(x, dict):
        for name in x:
            if name in props:
                continue
            if schema is False:
                yield (), "additionalProperties", \
                    "additional property %s is not allowed" % describe(name)
            else:
                for path, kw, msg in v.errors(x[name], schema, base):
                    yield (name,) + path, kw, msg


def k_property_names(v, schema, x, base):
    if isinstance(x, dict):
        for name in x:
            for _, _, msg in v.errors(name, schema, base):
                yield (), "propertyNames", "property name %s: %s" % (describe(name), msg)


def k_all_of(v, schemas, x, base):
    for schema in schemas:
        yield from v.errors(x, schema, base)


def k_one_of(v, schemas, x, base):
    matched = [i for i, s in enumerate(schemas) if v.valid(x, s, base)]
    if len(matched) != 1:
        yield (), "oneOf", ("valid against none of the %d choices of oneOf" % len(schemas)
                            if not matched else
                            "valid against choices %s of oneOf, not one" % matched)


def k_if(v, schema, x, base, then, otherwise):
    branch = then if v.valid(x, schema, base) else otherwise
    if branch is not None:
        yield from v.errors(x, branch, base)


def k_ref(v, ref, x, base):
    target, target_base = v.resolve(ref, base)
    yield from v.errors(x, target, target_base)


# keyword: (applies, what its value must be). Keywords of an applicator's value are checked
# when the schema is loaded (Validator.check).
KEYWORDS = {
    "type": (k_type, "type"),
    "const": (k_const, "any"),
    "enum": (k_enum, "list"),
    "minimum": (k_minimum, "number"),
    "exclusiveMinimum": (k_exclusive_minimum, "number"),
    "maximum": (k_maximum, "number"),
    "pattern": (k_pattern, "regex"),
    "minItems": (k_min_items, "count"),
    "maxItems": (k_max_items, "count"),
    "uniqueItems": (k_unique_items, "boolean"),
    "items": (k_items, "schema"),
    "required": (k_required, "names"),
    "properties": (k_properties, "schemas by name"),
    "additionalProperties": (None, "schema"),     # applied with properties beside it
    "propertyNames": (k_property_names, "schema"),
    "allOf": (k_all_of, "schema list"),
    "oneOf": (k_one_of, "schema list"),
    "if": (None, "schema"),                       # applied with then and else beside it
    "then": (None, "schema"),
    "else": (None, "schema"),
    "$ref": (k_ref, "reference"),
}
# Keywords that assert nothing: annotations, and $defs (reached only through $ref).
ANNOTATIONS = {"title": "string", "description": "string", "$comment": "string",
               "$defs": "schemas by name"}
ROOT_ONLY = {"$schema", "$id"}


class Validator:
    """The schemas of one folder, checked when loaded, each known by its file name and $id."""

    def __init__(self, folder=SCHEMAS):
        self.documents = {}     # $id -> schema
        self.files = {}         # file name -> $id
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json"):
                with open(os.path.join(folder, name)) as f:
                    schema = json.load(f)
                where = "schemas/" + name
                if not isinstance(schema, dict) or schema.get("$schema") != DRAFT:
                    raise SchemaError("%s: $schema must be %s, the draft implemented here"
                                      % (where, DRAFT))
                if not isinstance(schema.get("$id"), str):
                    raise SchemaError("%s: no $id" % where)
                self.documents[schema["$id"]] = schema
                self.files[name] = schema["$id"]
        for name, uri in self.files.items():
            self.check(self.documents[uri], uri, "schemas/%s#" % name, root=True)

    # -- loading: refuse what is not implemented ----------------------------------------
    def check(self, schema, base, where, root=False):
        if isinstance(schema, bool):
            return
        if not isinstance(schema, dict):
            raise SchemaError("%s: a schema must be an object or a boolean" % where)
        for key, value in schema.items():
            here = "%s/%s" % (where, key)
            if key in ROOT_ONLY:
                if not root:
                    raise SchemaError("%s: %s below a document's root is not implemented"
                                      % (here, key))
                continue
            if key in KEYWORDS:
                self.check_value(KEYWORDS[key][1], value, base, here)
            elif key in ANNOTATIONS:
                self.check_value(ANNOTATIONS[key], value, base, here)
            else:
                raise SchemaError("%s: keyword %s is not implemented by tests/lib/schema.py"
                                  % (here, key))
        for key in ("then", "else"):
            if key in schema and "if" not in schema:
                raise SchemaError("%s/%s: without if" % (where, key))

    def check_value(self, kind, value, base, where):
        def bad(what):
            raise SchemaError("%s: must be %s, not %s" % (where, what, describe(value)))
        if kind == "type":
            names = value if isinstance(value, list) else [value]
            if not names or any(not isinstance(n, str) or n not in TYPES for n in names) or \
                    len(set(names)) != len(names):
                bad("one of %s or a list of them" % sorted(TYPES))
        elif kind == "list" and not isinstance(value, list):
            bad("an array")
        elif kind == "number" and not is_number(value):
            bad("a number")
        elif kind == "count" and not (isinstance(value, int) and not isinstance(value, bool)
                                      and value >= 0):
            bad("a count")
        elif kind in ("boolean", "string") and not TYPES[kind](value):
            bad("a " + kind)
        elif kind == "regex":
            if not isinstance(value, str):
                bad("a regular expression")
            try:
                re.compile(value)
            except re.error as e:
                raise SchemaError("%s: %s" % (where, e))
        elif kind == "names":
            if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
                bad("an array of names")
        elif kind == "schema":
            self.check(value, base, where)
        elif kind == "schemas by name":
            if not isinstance(value, dict):
                bad("an object of schemas")
            for name, schema in value.items():
                self.check(schema, base, "%s/%s" % (where, name))
        elif kind == "schema list":
            if not isinstance(value, list) or not value:
                bad("a non-empty array of schemas")
            for i, schema in enumerate(value):
                self.check(schema, base, "%s/%d" % (where, i))
        elif kind == "reference":
            if not isinstance(value, str):
                bad("a URI reference")
            try:
                self.resolve(value, base)
            except (KeyError, IndexError, ValueError) as e:
                raise SchemaError("%s: %s leads nowhere (%s)" % (where, value, e))

    def resolve(self, ref, base):
        """(schema, its document's URI) that ref, relative to base, names."""
        uri, _, fragment = urllib.parse.urljoin(base, ref).partition("#")
        if fragment and not fragment.startswith("/"):
            raise ValueError("anchors are not implemented, only JSON pointers")
        node = self.documents[uri]
        for token in filter(None, urllib.parse.unquote(fragment).split("/")):
            token = token.replace("~1", "/").replace("~0", "~")
            node = node[int(token)] if isinstance(node, list) else node[token]
        return node, uri

    # -- validating ------------------------------------------------------------------------
    def errors(self, x, schema, base):
        """Every violation of schema by x: (path below x, keyword, message), lazily."""
        if schema is True:
            return
        if schema is False:
            yield (), "false", "no value is allowed here"
            return
        for key, value in schema.items():
            apply = KEYWORDS.get(key, (None,))[0]
            if apply is not None:
                yield from apply(self, value, x, base)
        if "additionalProperties" in schema:
            yield from k_additional_properties(self, schema["additionalProperties"], x, base,
                                               schema.get("properties", {}))
        if "if" in schema:
            yield from k_if(self, schema["if"], x, base, schema.get("then"),
                            schema.get("else"))

    def valid(self, x, schema, base):
        return next(iter(self.errors(x, schema, base)), None) is None

    def schema_of(self, name):
        """(schema, URI) of a file name such as gpuprof-report-v1.schema.json, or of an $id."""
        uri = self.files.get(name, name)
        return self.documents[uri], uri

    def iter_errors(self, doc, name):
        schema, uri = self.schema_of(name)
        for path, keyword, msg in self.errors(doc, schema, uri):
            yield "/".join(map(str, path)), keyword, msg


_VALIDATOR = None


def validator():
    """The validator of schemas/, loaded (and its schemas checked) on first use."""
    global _VALIDATOR
    if _VALIDATOR is None:
        _VALIDATOR = Validator()
    return _VALIDATOR


def validate(doc, schema_file):
    """(True, '') when doc is valid against schemas/schema_file, else (False, the first
    errors, one a line: `path: message`). Raises SchemaError for a schema it cannot apply."""
    found = []
    for path, _, msg in validator().iter_errors(doc, schema_file):
        found.append("%s: %s" % (path or "(document)", msg))
        if len(found) == 5:
            break
    return not found, "\n".join(found)
