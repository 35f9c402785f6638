#!/usr/bin/env python3
"""HACKING.md stays true.

- Every path it names exists, and every folder of src/ is a row of its floor plan.
- The floor plan is data: each row's "may use" cell lists the folders (or single files) that
  folder may use. The graph between folders is derived from the code, two ways, and every
  edge must be one the table allows:
    includes: a file of folder A including a private header "B/name.h" of folder B;
    links:    an object of folder A (nm) needing a symbol an object of folder B defines.
    declarations: a file of folder A naming a type, macro or constant of a header of
              include/gpuprof/ whose functions folder B defines (the header's owner: a
              header of no function is shared vocabulary, owned by none).
  The headers of include/gpuprof/ are declarations anyone may include: what they declare is
  checked where it is linked and where it is named. The table itself has no cycle.
- The layer rules it states about printing, exiting and the injected library hold in the
  code they name."""
import glob
import os
import re
import shutil
import subprocess
import tempfile

import tap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("GPUPROF_BUILD", os.path.join(ROOT, "build")))
TOP = ("src/", "include/", "kernels/", "tests/", "bench/", "docs/", "schemas/", "man/", ".ci/",
       "third_party/")
CODE_FOLDERS = ("src", "kernels")


def named_paths(text):
    """The repository's paths written in backquotes (from its top: src/..., man/gpuprof.1),
    less the patterns (kernels/X.cu, src/commands/cmd_*.c)."""
    out = []
    for token in re.findall(r"`([^`\s]+)`", text):
        if not token.startswith(TOP) or "*" in token or re.search(r"(^|[/_])X(\.|/|$)", token):
            continue
        out.append(token)
    return sorted(set(out))


def code_of(path):
    """A C file's text without its comments and string literals' contents."""
    with open(path) as f:
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", f.read(), flags=re.S)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


# ---- the floor plan as data ------------------------------------------------------------

def floor_plan(text):
    """{room: set of what it may use} from the floor plan's rows: `| `room` | what | may use |`.
    A room is a folder ("src/cli/") or a file ("src/main.c"); so is what it may use."""
    section = text.split("## The floor plan", 1)[-1].split("\n## ", 1)[0]
    plan = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not re.fullmatch(r"`[^`]+`", cells[0]):
            continue
        room = cells[0].strip("`")
        plan[room] = set(re.findall(r"`([^`]+)`", cells[-1]))
    return plan


def room_of(path, plan):
    """The row a source file belongs to: itself, else its folder ("src/cli/help.c" ->
    "src/cli/"); None when the plan has neither."""
    if path in plan:
        return path
    folder = os.path.dirname(path) + "/"
    return folder if folder in plan else None


def allowed(plan, source, target_room, target_file):
    """Whether the plan lets `source`'s room use target_file (of target_room)."""
    may = plan.get(source, set())
    stem = os.path.splitext(target_file)[0]
    return target_room in may or any(os.path.splitext(m)[0] == stem for m in may)


def cycles_of(plan):
    """The rooms that may use themselves through other rooms (the table must be a DAG)."""
    def reach(start):
        seen, todo = set(), [start]
        while todo:
            for nxt in plan.get(todo.pop(), ()):
                nxt = room_of(nxt, plan) or nxt
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen
    return sorted(r for r in plan if r in reach(r))


# ---- the graph from the code -------------------------------------------------------------

def sources(root=ROOT):
    """Every C or CUDA source and private header of the code folders, relative to root."""
    out = []
    for folder in CODE_FOLDERS:
        for ext in ("c", "h", "cu", "cuh"):
            out += glob.glob(os.path.join(root, folder, "**", "*." + ext), recursive=True)
    return sorted(os.path.relpath(p, root) for p in out)


def include_edges(plan):
    """(source room, target room, source file, header) for each private header a file
    includes from another room."""
    edges = []
    for path in sources():
        with open(os.path.join(ROOT, path)) as f:
            for header in re.findall(r'^\s*#\s*include\s+"([a-z_]+/[^"]+)"', f.read(), re.M):
                target = os.path.join("src", header)
                if not os.path.exists(os.path.join(ROOT, target)):
                    continue  # include/gpuprof/..., or a test's
                a, b = room_of(path, plan), room_of(target, plan)
                if a != b:
                    edges.append((a, b, path, target))
    return edges


def objects():
    """{source file: object} of this build: src/ and kernels/ as built for gpuprof, src/inject/
    as built for the library (position-independent)."""
    found = {}
    for obj in glob.glob(os.path.join(BUILD, "**", "*.o"), recursive=True):
        rel = os.path.relpath(obj, BUILD)
        if rel.startswith("pic" + os.sep):
            rel = rel[len("pic" + os.sep):]
            if not rel.startswith(os.path.join("src", "inject")):
                continue
        stem = os.path.splitext(rel)[0]
        if not stem.startswith(tuple(f + os.sep for f in CODE_FOLDERS)):
            continue  # the tests', the fuzzers', another build's
        for ext in (".c", ".cu"):
            if os.path.exists(os.path.join(ROOT, stem + ext)):
                found[stem + ext] = obj
    return found


def symbols(objs):
    """{source: (defined, undefined)} global symbols of each object, from one nm -P -g -A."""
    by_object = {obj: src for src, obj in objs.items()}
    table = {src: (set(), set()) for src in objs}
    out = subprocess.run(["nm", "-P", "-g", "-A"] + sorted(by_object), capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        where, _, rest = line.partition(": ")
        parts = rest.split()
        if where not in by_object or len(parts) < 2:
            continue
        defined, undefined = table[by_object[where]]
        if parts[1] in "TDBRCGSVW":
            defined.add(parts[0])
        elif parts[1] == "U":
            undefined.add(parts[0])
    return table


def link_edges(plan, objs):
    """(source room, target room, source file, target file, symbol) for each symbol an object
    needs from another room's object."""
    table = symbols(objs)
    definer = {}
    for src, (defined, _) in table.items():
        for name in defined:
            definer.setdefault(name, src)
    edges = []
    for src, (_, undefined) in table.items():
        for name in sorted(undefined):
            target = definer.get(name)
            if target and room_of(src, plan) != room_of(target, plan):
                edges.append((room_of(src, plan), room_of(target, plan), src, target, name))
    return edges


def header_names(path):
    """(what a header of include/gpuprof/ declares for others to name: its macros, enum
    constants, type names and inline functions; the functions it declares, defined in
    objects)."""
    text = code_of(path)
    names = set(re.findall(r"^\s*#\s*define\s+([A-Za-z_]\w*)", text, re.M))
    names = {n for n in names if not re.fullmatch(r"GPUPROF_\w+_H", n)}
    for body in re.findall(r"\benum\b[^{;]*\{([^}]*)\}", text):
        names |= set(re.findall(r"(?:^|,)\s*([A-Za-z_]\w*)\s*(?==|,|$)", body.strip()))
    names |= set(re.findall(r"\}\s*([A-Za-z_]\w*)\s*;", text))
    names |= set(re.findall(r"typedef\s+[^;{}]*?\b([A-Za-z_]\w*)\s*;", text))
    names |= set(re.findall(r"static\s+inline\s+[\w\s\*]*?\b([a-z_]\w*)\s*\(", text))
    functions = set(re.findall(r"^[A-Za-z_][\w\s\*]*?\b([a-z_]\w*)\s*\([^;{]*\)[^;{]*;",
                               text, re.M))
    return names - functions, functions


def header_owners(plan, objs):
    """{header: (owner room, owner file, names)} for the headers of include/gpuprof/ whose
    functions an object defines: the room and file that define the most of them."""
    definer = {}
    for src, (defined, _) in symbols(objs).items():
        for name in defined:
            definer.setdefault(name, src)
    owners = {}
    for header in sorted(glob.glob(os.path.join(ROOT, "include", "gpuprof", "*.h"))):
        names, functions = header_names(header)
        files = [definer[f] for f in functions if f in definer]
        if not files:
            continue
        owner = max(sorted(set(files)), key=files.count)
        owners[os.path.relpath(header, ROOT)] = (room_of(owner, plan), owner, names)
    return owners


def declaration_edges(plan, owners, root=ROOT):
    """(source room, owner room, source file, owner file, name, header) for each type, macro
    or constant a file of one room names from a header another room owns."""
    edges = []
    for path in sources(root):
        room = room_of(path, plan)
        used = set(re.findall(r"\b[A-Za-z_]\w*\b", code_of(os.path.join(root, path))))
        for header, (owner_room, owner_file, names) in owners.items():
            if owner_room and owner_room != room:
                for name in sorted(used & names):
                    edges.append((room, owner_room, path, owner_file, name, header))
    return edges


# ---- the injected library's rules ----------------------------------------------------------

def without_comments(text):
    """The text with its comments blanked out, its lines where they were."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, text, flags=re.S)


def variables(text):
    """(line index, declaration) of each file-scope or static variable of a C file."""
    depth = 0
    for i, code in enumerate(without_comments(text).splitlines()):
        stripped = code.strip()
        file_scope = depth == 0 and re.match(r"[A-Za-z_]", code) and \
            not re.match(r"(typedef|struct|enum|union|extern)\b", stripped)
        if (stripped.startswith("static ") or file_scope) and stripped.endswith((";", "{")) \
                and "(" not in stripped.split("=")[0]:
            yield i, stripped
        depth += code.count("{") - code.count("}")


def read_only(declaration):
    """A const object (not a pointer to const data)."""
    head = declaration.split("=")[0]
    return re.match(r"(static\s+)?const\b", declaration) is not None and \
        re.search(r"\*(?!\s*const\b)", head) is None


def unguarded_statics(path):
    """The static or file-scope variables of a C file of src/inject/ without their guard."""
    with open(os.path.join(ROOT, path)) as f:
        return unguarded_in(f.read(), path)


def unguarded_in(text, path):
    """The static or file-scope variables of a C text whose line, or the comment above their
    group of declarations (up to a blank line), does not say "Guard:", and that are not
    read-only."""
    lines = text.splitlines()
    found = []
    for i, declaration in variables(text):
        if read_only(declaration):
            continue
        first = i
        while first > 0 and lines[first - 1].strip():
            first -= 1
        if "Guard:" not in " ".join(lines[first:i + 1]):
            found.append("%s:%d: %s" % (path, i + 1, declaration))
    return found


def includes_rules_header(path):
    """A header of src/inject/ includes inject/inject.h; a .c file includes an inject/ header
    first."""
    with open(os.path.join(ROOT, path)) as f:
        includes = re.findall(r'^\s*#\s*include\s+[<"]([^>"]+)[>"]', f.read(), re.M)
    if path.endswith(".h"):
        return "inject/inject.h" in includes
    return bool(includes) and includes[0].startswith("inject/")


# ---- the tests ----------------------------------------------------------------------------------

def test_paths(text):
    paths = named_paths(text)
    tap.ok(len(paths) >= 40, "HACKING.md names files by their paths (%d)" % len(paths))
    for p in paths:
        tap.ok(os.path.exists(os.path.join(ROOT, p)), "HACKING.md names %s, which exists" % p)


def test_plan(plan):
    tap.ok(len(plan) >= 10, "HACKING.md's floor plan is a table of rooms (%d)" % len(plan))
    for folder in sorted(glob.glob(os.path.join(ROOT, "src", "*", ""))) + [
            os.path.join(ROOT, "kernels", "")]:
        rel = os.path.relpath(folder, ROOT) + "/"
        tap.ok(rel in plan, "HACKING.md's floor plan has %s" % rel)
    strays = sorted(p for p in sources() if not room_of(p, plan))
    tap.ok(not strays, "every source file is in a room of the floor plan", strays)
    unknown = sorted(m for may in plan.values() for m in may
                     if not os.path.exists(os.path.join(ROOT, m)))
    tap.ok(not unknown, "every room a row may use exists", unknown)
    cycle = cycles_of(plan)
    tap.ok(not cycle, "the floor plan has no cycle: no room may use itself through others",
           cycle)


def report_edges(what, edges, plan, describe):
    forbidden = [e for e in edges if not allowed(plan, e[0], e[1], e[3])]
    pairs = sorted({(e[0], e[1]) for e in edges})
    tap.ok(edges and not forbidden,
           "%s: %d edges between %d pairs of rooms, all allowed by the floor plan" %
           (what, len(edges), len(pairs)),
           "\n".join(describe(e) for e in forbidden[:20]))


def test_graph(plan):
    report_edges("includes", include_edges(plan), plan,
                 lambda e: "%s includes %s: %s may not use %s" % (e[2], e[3], e[0], e[1]))
    objs = objects()
    wanted = [s for s in sources() if s.endswith((".c", ".cu"))]
    missing = [s for s in wanted if s not in objs]
    if len(missing) == len(wanted):
        tap.skip("links: every edge allowed by the floor plan", "no objects in %s" % BUILD)
        return
    report_edges("links", link_edges(plan, objs), plan,
                 lambda e: "%s needs %s of %s: %s may not use %s" % (e[2], e[4], e[3], e[0], e[1]))
    owners = header_owners(plan, objs)
    report_edges("declarations", declaration_edges(plan, owners), plan,
                 lambda e: "%s names %s of %s (owned by %s): %s may not use %s" %
                 (e[2], e[4], e[5], e[3], e[0], e[1]))
    test_planted_declaration(plan, owners)
    # The sanitizer and fuzzing builds make gpuprof alone, over another build's kernels.
    inject = [s for s in missing if s.startswith("src/inject/")]
    kernels = [s for s in missing if s.endswith(".cu")]
    others = [s for s in missing if s not in inject + kernels]
    tap.ok(not others, "every C source of gpuprof has its object in %s" % BUILD, others)
    for what, left_out, prefix in (("the injected library's", inject, "src/inject/"),
                                   ("the CUDA kernels'", kernels, "kernels/")):
        if left_out:
            tap.skip("%s objects are linked in" % what, "not built in %s" % BUILD)
        else:
            tap.ok(True, "%s objects are linked in (%d)" %
                   (what, len([s for s in objs if s.startswith(prefix)])))


def test_planted_declaration(plan, owners):
    """A forbidden use of a type or macro planted in a temporary copy of the code is caught:
    src/counters/metrics.c naming GP_EXEC_ESTIMATE_NOTE, exec_summary.h's (src/report/)."""
    with tempfile.TemporaryDirectory() as tmp:
        for folder in CODE_FOLDERS:
            shutil.copytree(os.path.join(ROOT, folder), os.path.join(tmp, folder))
        victim = os.path.join(tmp, "src", "counters", "metrics.c")
        with open(victim, "a") as f:
            f.write("\nconst char *gp_planted_note(void) { return GP_EXEC_ESTIMATE_NOTE; }\n")
        planted = [e for e in declaration_edges(plan, owners, tmp)
                   if e[4] == "GP_EXEC_ESTIMATE_NOTE" and not allowed(plan, e[0], e[1], e[3])]
    tap.ok(len(planted) == 1 and planted[0][2] == "src/counters/metrics.c",
           "a macro of src/report/'s header planted in src/counters/ is a forbidden edge",
           planted)


def test_printing_and_exiting():
    """Only src/main.c prints errors or exits; only the renderers write documents."""
    exits, writers = [], []
    for f in glob.glob(os.path.join(ROOT, "src", "**", "*.c"), recursive=True):
        rel = os.path.relpath(f, ROOT)
        if rel == os.path.join("src", "main.c"):
            continue
        code = code_of(f)
        if re.search(r"(?<![\w.])(exit|abort)\s*\(", code) or \
                re.search(r"\bf?printf\s*\(\s*stderr", code):
            exits.append(rel)
        if not rel.startswith(os.path.join("src", "render", "")) and \
                re.search(r"(?<![\w.])(f?printf|fputs|fputc|putc|putchar|puts|fwrite)\s*\(", code):
            writers.append(rel)
    tap.ok(not exits, "only src/main.c exits or prints to stderr", exits)
    tap.ok(not writers, "only src/render/ (and src/main.c) write to a FILE", writers)


def linked_into_library():
    """The C sources the Makefile links into libgpuprof-inject.so (INJECT_SRC): src/inject/,
    src/counters/, src/base/ and the files it names besides."""
    with open(os.path.join(ROOT, "Makefile")) as f:
        text = f.read()
    m = re.search(r"^INJECT_SRC\s*:=((?:.*\\\n)*.*)$", text, re.M)
    value = m.group(1).replace("\\\n", " ") if m else ""
    patterns = []
    for wildcard in re.findall(r"\$\(wildcard ([^)]*)\)", value):
        patterns += wildcard.split()
    patterns += re.sub(r"\$\(wildcard [^)]*\)", " ", value).split()
    files = set()
    for pattern in patterns:
        files.update(glob.glob(os.path.join(ROOT, pattern)))
    return sorted(os.path.relpath(p, ROOT) for p in files if p.endswith(".c"))


def test_cupti_callbacks():
    """CUPTI's callbacks, subscriptions and activity records only in src/inject/ and the
    kernel commands' per-line pass (src/runner/source_lines.c), as HACKING.md says."""
    allowed_files = ("src/runner/source_lines.c",)
    found = []
    for path in sources():
        if path.startswith("src/inject/") or path in allowed_files or not path.endswith(".c"):
            continue
        if re.search(r"\bcupti(Subscribe|Unsubscribe|EnableCallback|EnableDomain|"
                     r"EnableAllDomains|Activity\w+)\s*\(", code_of(os.path.join(ROOT, path))):
            found.append(path)
    tap.ok(not found, "CUPTI's callbacks and activity records only in src/inject/ and %s" %
           ", ".join(allowed_files), found)


def test_inject_rules():
    files = sorted(p for p in sources() if p.startswith("src/inject/"))
    tap.ok(len(files) > 20, "src/inject/ has its files (%d)" % len(files))
    bad = [p for p in files if p != "src/inject/inject.h" and not includes_rules_header(p)]
    tap.ok(not bad, "every file of src/inject/ includes its rules (inject/inject.h) first, "
           "through its own header", bad)
    linked = linked_into_library()
    tap.ok(len(linked) > len([p for p in files if p.endswith(".c")]) and
           "src/base/status.c" in linked and "src/exec/protocol.c" in linked,
           "the library links src/inject/ and the files the Makefile names besides (%d)" %
           len(linked))
    unguarded = [u for p in linked for u in unguarded_statics(p)]
    tap.ok(not unguarded, "every static or file-scope variable linked into the injected "
           "library says its guard (\"Guard: ...\"), or is read-only", unguarded)


# The calls whose only result is a name, NULL for a code they do not know (the callers print
# "?" or "unknown error" then): their failure is checked by that NULL.
NAME_LOOKUPS = ("cudaGetErrorName", "cudaGetErrorString", "cuGetErrorName", "cuGetErrorString",
                "cuptiGetResultString")


def unchecked_calls(text, path):
    """The statements of a C or CUDA text that call CUDA's runtime or driver or CUPTI and drop
    the result: a line that starts a statement (the code line before it does not end in an
    operator, a '(' or a ',') with such a call, or with one cast to (void) without a comment
    on its line or the line above saying why. The error-name lookups pass."""
    found = []
    lines = text.splitlines()
    code = without_comments(text).splitlines()
    before = ""
    for i, line in enumerate(code):
        stripped = line.strip().rstrip("\\").strip()
        m = re.match(r"(\(void\)\s*)?((cuda|cupti|cu)[A-Z]\w*)\s*\(", stripped)
        starts = not re.search(r"[-+*/%&|^!=<>?:(,]$", before)
        if m and starts and m.group(2) not in NAME_LOOKUPS and \
                not (m.group(1) and "*/" in lines[i] + (lines[i - 1] if i else "")):
            found.append("%s:%d: %s" % (path, i + 1, stripped))
        if stripped:
            before = stripped
    return found


def test_checked_calls():
    """Every CUDA and CUPTI call is checked: with GP_CUDA, CUPTI or a test of its result where
    a status can be returned, else GP_CHECKED (gpuprof/checked_calls.h) or GP_CUDA_RELEASE."""
    found = []
    for path in sources():
        if path.endswith((".c", ".cu")):
            with open(os.path.join(ROOT, path)) as f:
                found += unchecked_calls(f.read(), path)
    tap.ok(not found, "every CUDA and CUPTI call is checked (%d files read)" % len(sources()),
           found)
    planted = unchecked_calls("    cudaFree(p);\n    if (x)\n        cuptiUnsubscribe(s);\n"
                              "    (void)cuptiActivityEnable(k);\n"
                              "    (void)cuptiActivityEnable(k); /* optional: why */\n"
                              "    GP_CUDA(cudaFree(p));\n    if (a ||\n"
                              "        cuptiGetGraphId(g, &id) != CUPTI_SUCCESS)\n"
                              "        return;\n    cuGetErrorName(r, &name);\n",
                              "example.c")
    tap.ok(len(planted) == 3 and ":1:" in planted[0] and ":3:" in planted[1] and
           ":4:" in planted[2], "a dropped result is found (and checked calls, a (void) with "
           "its reason, a condition's second line and a name lookup pass)", planted)


def test_checks_can_fail(plan):
    """The checks above catch what they are for: an edge up the plan, a cycle, a static
    without its guard."""
    fake_up = ("src/base/", "src/cli/", "src/base/status.c", "src/cli/cli.c")
    tap.ok(not allowed(plan, *fake_up[:2], fake_up[3]), "a use of src/cli/ from src/base/ "
           "is forbidden by the plan")
    looped = dict(plan, **{"src/base/": plan.get("src/base/", set()) | {"src/cli/"}})
    tap.ok(cycles_of(looped), "a plan in which src/base/ may use src/cli/ has a cycle")
    found = unguarded_in("static int counter;\n\nstatic const char *const names[] = {\"a\"};\n\n"
                         "/* Guard: the launch lock */\nstatic int guarded;\n\n"
                         "static int f(void)\n{\n    static int calls;\n    return calls++;\n}\n",
                         "example.c")
    tap.ok(len(found) == 2 and "counter" in found[0] and "calls" in found[1],
           "statics without a guard are found (and the read-only and guarded ones pass)", found)


def main():
    path = os.path.join(ROOT, "HACKING.md")
    if not tap.ok(os.path.exists(path), "HACKING.md exists"):
        tap.done()
    with open(path) as f:
        text = f.read()
    plan = floor_plan(text)
    test_paths(text)
    test_plan(plan)
    test_graph(plan)
    test_printing_and_exiting()
    test_cupti_callbacks()
    test_inject_rules()
    test_checked_calls()
    test_checks_can_fail(plan)
    tap.done()


if __name__ == "__main__":
    main()
