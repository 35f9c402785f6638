#!/usr/bin/env python3
"""The man page formats without a warning (issue 37): groff with every warning on (-ww) and
man -l as a reader runs it print nothing on standard error. Skips a tool that is missing."""
import os
import shutil
import subprocess

import tap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = os.path.join(ROOT, "man", "gpuprof.1")
ENV = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80", MANPAGER="cat", PAGER="cat",
           MAN_KEEP_FORMATTING="")


def formats_quietly(argv, label):
    """argv (a formatter of PAGE) exits 0 with text on stdout and nothing on stderr."""
    p = subprocess.run(argv, capture_output=True, text=True, env=ENV, timeout=120)
    tap.ok(p.returncode == 0 and p.stderr == "", label, "rc=%d stderr=%r" % (p.returncode,
                                                                          p.stderr[:2000]))


def main():
    if shutil.which("groff"):
        formats_quietly(["groff", "-man", "-Tutf8", "-ww", "-z", PAGE],
                        "groff -man -ww: the man page formats without a warning")
    else:
        tap.skip("groff -man -ww: the man page formats without a warning", "groff is missing")
    if shutil.which("man"):
        formats_quietly(["man", "-l", PAGE], "man -l man/gpuprof.1: no warning on stderr")
    else:
        tap.skip("man -l man/gpuprof.1: no warning on stderr", "man is missing")
    tap.done()


if __name__ == "__main__":
    main()
