#!/usr/bin/env python3
"""Every example of README.md and of the man page's EXAMPLES, read from the files now
(tests/lib/examples.py says what counts as an example and how it runs):
- one that needs no GPU runs as written: every gpuprof it runs exits 0 (0 or 1 before ||),
  and it prints exactly the output the README shows, if any;
- one that needs a GPU (tests/gpu/test_examples.py runs it) is run here with no GPU visible:
  each of its gpuprof invocations that needs the GPU must get as far as looking for it
  (exit 3), so that no example is a usage error.
Known failures are listed, with their reason, in EXPECTED_FAILURES."""
import os
import tempfile

import examples as ex
import tap
from gpuprof import BUILD, run_json

def families():
    rc, doc, err = run_json("list", "--json")
    names = {f["name"] for f in (doc or {}).get("families", [])}
    tap.ok(rc == 0 and names, "gpuprof list --json names the kernel families", err)
    return names


def accepted(runner, e, families, description):
    outer = ex.outer_program(e)
    calls = [a for a in ex.invocations(e.command) if ex.needs_gpu(a, families)]
    if outer:
        tap.skip(description, "it runs gpuprof under %s: only in the GPU suite" % outer)
        return
    if not calls:
        tap.skip(description, "it reads what the GPU examples before it write: only in the "
                 "GPU suite")
        return
    if runner.missing_programs(e):
        tap.skip(description, "%s is not built in this build (make apps)"
                 % " ".join(runner.missing_programs(e)))
        return
    _, _, err, ran = runner.run(e, env={"CUDA_VISIBLE_DEVICES": ""})
    found = ["gpuprof %s exited %d, not 3 (no GPU visible)" % (" ".join(args), status)
             for status, args in ran if ex.needs_gpu(args, families) and status != 3]
    if not ran:
        found.append("it ran no gpuprof")
    if found and err.strip():
        found.append("stderr: " + "\n".join(err.strip().splitlines()[-4:]))
    ex.report(tap, e, found, "accepted", description)


SAMPLE_README = """# x

```sh
make test          # not an example, though it mentions `gpuprof list`
gpuprof list       # one
for b in 1 2; do
    gpuprof list --json
done | head -1
```

Shown by `gpuprof list --json` and then `gpuprof metrics --chip=GH100`:

```
OUTPUT A
```

```
$ gpuprof list | head -2
OUTPUT B
```

```
OUTPUT WITH NO COMMAND
```
"""

SAMPLE_MAN = r""".SH EXAMPLES
One:
.PP
.RS
.nf
gpuprof reduce \-\-block=64 \-\-csv > s.csv
for b in 128; do
    gpuprof report \(aqs.csv\(aq
done
.fi
.RE
.SH SEE ALSO
.RS
gpuprof not an example
.RE
"""


def test_extraction(folder):
    """The rules of tests/lib/examples.py on a small README and man page."""
    readme, man = os.path.join(folder, "README.md"), os.path.join(folder, "gpuprof.1")
    with open(readme, "w") as f:
        f.write(SAMPLE_README)
    with open(man, "w") as f:
        f.write(SAMPLE_MAN)
    got, others = ex.readme_examples(readme)
    tap.ok([(e.line, e.key, e.shown) for e in got] == [
        (5, "gpuprof list", None),
        (6, "for b in 1 2; do gpuprof list --json done | head -1", None),
        (14, "gpuprof metrics --chip=GH100", "OUTPUT A\n"),
        (18, "gpuprof list | head -2", "OUTPUT B\n"),
        (23, "", "OUTPUT WITH NO COMMAND\n")] and len(others) == 1,
        "README rules: sh commands with gpuprof joined until complete, output blocks with "
        "$ or after a code span, the rest listed", repr(got) + repr(others))
    got, _ = ex.man_examples(man)
    tap.ok([(e.line, e.command) for e in got] == [
        (6, "gpuprof reduce --block=64 --csv > s.csv"),
        (7, "for b in 128; do\n    gpuprof report 's.csv'\ndone")],
        "man page rules: EXAMPLES only, escapes undone, a loop one command", repr(got))
    ex.classify(got, {"reduce"})
    tap.ok([e.gpu for e in got] == [True, True],
           "a report of what a GPU example of its block wrote runs with the GPU examples")


def test_runner(runner):
    """The runner sees failures the shell's exit status hides, and wrong output."""
    def problems(command, shown=None):
        return runner.problems(ex.Example("test", 1, command, shown))
    found = problems("for x in 1; do gpuprof nosuchcommand; done; true")
    tap.ok(any("gpuprof nosuchcommand exited 2" in p for p in found),
           "runner: a gpuprof failing inside a loop fails its example", found)
    found = problems("gpuprof report tests/fixtures/none.json || true")
    tap.ok(not found, "runner: exit 1 before || is allowed", found)
    found = problems("gpuprof reduce --no-such-option || true")
    tap.ok(any("exited 2" in p for p in found), "runner: exit 2 before || is not", found)
    found = problems("gpuprof list | head -1", "something else\n")
    tap.ok(any("other than the output shown" in p for p in found),
           "runner: output other than the one shown fails", found)
    found = problems("true")
    tap.ok(found == ["it ran no gpuprof"], "runner: an example that runs no gpuprof fails",
           found)


def main():
    names = families()
    with tempfile.TemporaryDirectory() as folder:
        test_extraction(folder)
    runner = ex.Runner(BUILD)
    test_runner(runner)
    examples, others = ex.all_examples(names)
    readme = [e for e in examples if e.source == "README.md"]
    man = [e for e in examples if e.source != "README.md"]
    tap.ok(len(readme) >= 10 and len(man) >= 3 and any(e.shown for e in readme),
           "examples found: %d in README.md (%d need a GPU, %d show output), %d in the man "
           "page (%d need a GPU)" % (len(readme), sum(e.gpu for e in readme),
                                     sum(e.shown is not None for e in readme), len(man),
                                     sum(e.gpu for e in man)))
    for line in others:
        print("# not a gpuprof example: " + line.replace("\n", " "))
    ex.check_expected_failures(tap, examples)
    for e in examples:
        if not e.command:
            tap.ok(False, "%s: the output block says which command prints it" % e.where,
                   "write `$ COMMAND` as its first line, or name the command in a "
                   "`gpuprof ...` code span before it")
            continue
        description = "%s: %s" % (e.where, e.key)
        if e.gpu:
            accepted(runner, e, names, description + ": no usage error (no GPU visible: exit 3)")
        else:
            shown = "" if e.shown is None else ", prints the output shown"
            ex.report(tap, e, runner.problems(e), "runs", description + shown)
    tap.done()

if __name__ == "__main__":
    main()
