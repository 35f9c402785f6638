#!/usr/bin/env python3
"""--markdown: every case of tests/golden/cases.txt that writes Markdown parses as
GitHub-flavoured Markdown tables (each table a header row, a delimiter row of its count of
cells, and rows of that count exactly; a blank line before and after each table), and carries
the text view's parts: its exit status and every legend line of the text."""
import os
import re
import sys

import tap
from gpuprof import run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "golden"))
import generate  # noqa: E402

DELIMITER = re.compile(r"^\|( :?-{3,}:? \|)+$")


def cells(line):
    """A table line's cells: split at each '|' not escaped by a backslash."""
    parts, cell, escaped = [], "", False
    for ch in line.strip()[1:]:
        if ch == "|" and not escaped:
            parts.append(cell.strip())
            cell = ""
        else:
            cell += ch
        escaped = ch == "\\" and not escaped
    return parts


def tables(text):
    """Each GFM table as (header cells, [row cells]); problems found on the way."""
    lines = text.split("\n")
    found, problems, i = [], [], 0
    while i < len(lines):
        if not lines[i].startswith("|"):
            i += 1
            continue
        if i > 0 and lines[i - 1].strip():
            problems.append("line %d: a table without a blank line before it" % (i + 1))
        if i + 1 >= len(lines) or not DELIMITER.match(lines[i + 1]):
            problems.append("line %d: a table line without a delimiter row" % (i + 1))
            i += 1
            continue
        header = cells(lines[i])
        if len(cells(lines[i + 1])) != len(header):
            problems.append("line %d: the delimiter row's cells differ" % (i + 2))
        rows, i = [], i + 2
        while i < len(lines) and lines[i].startswith("|"):
            rows.append(cells(lines[i]))
            if len(rows[-1]) != len(header):
                problems.append("line %d: %d cells under a header of %d"
                                % (i + 1, len(rows[-1]), len(header)))
            i += 1
        if i < len(lines) and lines[i].strip():
            problems.append("line %d: a table without a blank line after it" % (i + 1))
        found.append((header, rows))
    return found, problems


def paragraphs(text, start):
    """The paragraphs of the text that begin with `start`, each a line: its wrapped lines
    (indented two spaces) joined by a space."""
    found, lines = [], text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(start):
            words = [line]
            for more in lines[i + 1:]:
                if not more.startswith("  ") or not more.strip():
                    break
                words.append(more.strip())
            found.append(" ".join(words))
    return found


def unescape(s):
    return re.sub(r"\\(.)", r"\1", s)


def main():
    cases = [(n, a) for n, a in generate.cases() if "--markdown" in a and n.endswith(".md")]
    tap.ok(len(cases) >= 15, "cases.txt has the Markdown cases", str(len(cases)))
    for name, argv in cases:
        md_rc, md, _ = run(*argv)
        text_argv = [a for a in argv if a != "--markdown"]
        # the text at Markdown's width (none), where the command has a page width
        wide = ["--wide"] if argv[0] in ("report", "compare", "list") else []
        text_rc, text, _ = run(*text_argv, *wide)
        found, problems = tables(md)
        listing = argv[0] == "metrics"   # the catalogue: a listing per metric, no table
        tap.ok(not problems and (found or listing),
               "%s: GFM tables, every row its header's cells" % name,
               "; ".join(problems[:5]) or "no table")
        md_lines = {unescape(line).strip().rstrip("\\").strip() for line in md.split("\n")}
        legends = [line.strip() for line in text.split("\n")
                   if line.strip().startswith("legend:")]
        if "--launches" in argv:
            # --wide heads the metric columns with their keys, Markdown with the text's
            # abbreviations, which its legend names: the legend of the text at its width,
            # its wrapped lines joined
            text_rc, text, _ = run(*text_argv)
            legends = paragraphs(text, "legend:")
        missing = [l for l in legends if l not in md_lines]
        tap.ok(not missing, "%s: the text's legends" % name, "; ".join(missing[:3]))
        tap.ok(md_rc == text_rc, "%s: the text's exit status" % name, "%d, %d" % (md_rc, text_rc))
    _, md, _ = run("report", "tests/fixtures/exec-activities.json", "--markdown")
    headers = [h for h, _ in tables(md)[0]]
    tap.ok(["%GPU", "Time", "Calls", "Avg", "Min", "Max", "Bytes", "GB/s", "Name"] in headers,
           "the GPU activities' table has the text's columns", repr(headers))
    tap.ok("\\[CUDA memcpy HtoD\\]" in md,
           "brackets escaped, so that no row reads as a link", md[:300])
    tap.done()


if __name__ == "__main__":
    main()
