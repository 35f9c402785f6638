"""A minimal TAP producer for the Python test scripts (stdlib only)."""
import sys

_count = 0
_failed = 0


def ok(cond, description, diag=None):
    """Record one assertion; print diagnostics under a failure."""
    global _count, _failed
    _count += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (_count, description))
    if not cond:
        _failed += 1
        if diag:
            for line in str(diag).splitlines()[:20]:
                print("# " + line)
    sys.stdout.flush()
    return cond


def skip(description, reason):
    global _count
    _count += 1
    print("ok %d - %s # SKIP %s" % (_count, description, reason))
    sys.stdout.flush()


def skip_all(reason):
    """No test can run here (e.g. no GPU): a plan of zero with the reason."""
    print("1..0 # SKIP %s" % reason)
    sys.exit(0)


def done():
    print("1..%d" % _count)
    sys.exit(1 if _failed else 0)
