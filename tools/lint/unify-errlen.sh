#!/usr/bin/env bash
# One name for the error buffer's length (issue 20): every parameter pair
# `char *err, size_t NAME` with NAME one of n, errlen, errn becomes
# `char *err, size_t err_len` (the name lib/errbuf.h's users already share
# with loader/kernel/netlink.h), and NAME is renamed as a whole word inside
# that function's body only, so a loop's `n` elsewhere stays `n`.  A
# prototype (ends in `;`) gets the parameter renamed and nothing else.
#
#   tools/lint/unify-errlen.sh [ROOT]          what it would change, per file
#   tools/lint/unify-errlen.sh --apply [ROOT]  rewrite the files in place
#
# A one-off for the lead after the branches are merged, then `make all`
# (a use the rename missed does not compile: nothing changes silently) and
# the tests.  Struct fields (`rd->errlen`) and other buffers' lengths
# (`char *why, size_t n`) are left as they are.  Needs python3.
set -euo pipefail
apply=0
if [ "${1:-}" = "--apply" ]; then
	apply=1
	shift
fi
root=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
cd "$root"
# The rewrite (python: the parameter lists and bodies need brackets matched).
read -r -d '' prog <<'PY' || true
import os, re, sys

OLD = ("n", "errlen", "errn")
NEW = "err_len"
pair = re.compile(r"char\s*\*\s*err\s*,\s*size_t\s+(" + "|".join(OLD) + r")\b")

def close_paren(s, i):
    """Index just past the parenthesis that closes the one open at i."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "(":
            depth += 1
        elif s[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    return -1

def close_brace(s, i):
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "{":
            depth += 1
        elif s[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return -1

# String and character literals and comments, which a rename must not touch
# ("\n" holds an n too).
literal = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|/\*.*?\*/|//[^\n]*', re.S)

def rename_in_code(text, word):
    out, pos = [], 0
    for m in literal.finditer(text):
        out.append(word.sub(NEW, text[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(word.sub(NEW, text[pos:]))
    return "".join(out)

def rewrite(src):
    # brackets are matched (and pairs found) in a copy whose literals and
    # comments are blanked out, position for position: a "{" printed as
    # JSON is no block
    masked = literal.sub(lambda m: " " * len(m.group(0)), src)
    out, pos, count = [], 0, 0
    while True:
        m = pair.search(masked, pos)
        if not m:
            break
        name = m.group(1)
        # the parameter list holding the pair: back to its "("
        depth, k = 0, m.start()
        while k > 0:
            k -= 1
            if masked[k] == ")":
                depth += 1
            elif masked[k] == "(":
                if depth == 0:
                    break
                depth -= 1
        end = close_paren(masked, k)
        if k <= 0 or end < 0 or end < m.end():
            out.append(src[pos:m.end()])
            pos = m.end()
            continue
        # a whole word, not a member (x.n, p->errlen, .errlen = in an initializer)
        word = re.compile(r"(?<![.>])\b" + name + r"\b")
        params = src[k:end]
        params = params.replace(m.group(0), m.group(0)[:m.start(1) - m.start()] + NEW, 1)
        rest = end
        tail = re.match(r"\s*(__attribute__\s*\(\(.*?\)\)\s*)?([;{])", masked[end:], re.S)
        body = ""
        if tail and tail.group(2) == "{":
            b = end + tail.start(2)
            e = close_brace(masked, b)
            if e > 0:
                body = src[end:e]
                body = rename_in_code(body, word)
                rest = e
        out.append(src[pos:k])
        out.append(params)
        out.append(body)
        pos = rest
        count += 1
    out.append(src[pos:])
    return "".join(out), count

apply = os.environ.get("APPLY") == "1"
total = 0
for path in sys.stdin.read().split("\0"):
    if not path:
        continue
    with open(path) as f:
        src = f.read()
    new, count = rewrite(src)
    if count == 0 or new == src:
        continue
    total += count
    print("%4d  %s" % (count, path))
    if apply:
        with open(path, "w") as f:
            f.write(new)
print("%d parameter(s) %s" % (total, "renamed to " + NEW if apply else "to rename to " + NEW + " (--apply)"))
PY
find bpf lib maps loader tools tests \( -name '*.c' -o -name '*.h' \) -print0 2>/dev/null |
	APPLY=$apply python3 -c "$prog"
