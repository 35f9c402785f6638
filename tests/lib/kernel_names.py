"""A kernel's qualified name as its label must show it, worked out from its demangled name on
its own, for the tests: no return type, anonymous namespaces, template arguments or parameters
("void at::native::(anonymous namespace)::k<4>(float *)" -> "at::native::k")."""
import re

OPENS, CLOSES = "(<[{", ")>]}"


def closing(s, at):
    """Where the group opened at s[at] closes; a '>' inside parentheses is an operator."""
    stack = []
    for i in range(at, len(s)):
        c = s[i]
        if c in OPENS:
            stack.append(c)
        elif c == ">" and stack and stack[-1] == "<":
            stack.pop()
        elif c in CLOSES and c != ">":
            want = OPENS[CLOSES.index(c)]
            while stack and stack.pop() != want:
                pass
        if not stack:
            return i
    return None


def top_level(s, end):
    """The indices of s[:end] outside any bracket."""
    i = 0
    while i < end:
        yield i
        if s[i] in OPENS:
            close = closing(s, i)
            if close is None:
                return
            i = close
        i += 1


def qualified_name(full):
    params = next((i for i in top_level(full, len(full)) if full[i] == "(" and i > 0 and
                   (full[i - 1].isalnum() or full[i - 1] in "_>")), len(full))
    name = full[:params].rstrip()
    if params == len(full) and " [" in full:
        name = full[:full.index(" [")]
    starts = [i + 1 for i in top_level(name, len(name)) if name[i] == " "]
    name = name[starts[-1] if starts else 0:]
    opens = [i for i in top_level(name, len(name))
             if name[i] == "<" and closing(name, i) == len(name) - 1]
    name = name[:opens[0]] if opens else name
    return re.sub(r"\(anonymous namespace\)::|<unnamed>::", "", name) or full


def own_name(full):
    """The function's own name: its qualified name's last part."""
    return qualified_name(full).split("::")[-1]
