#!/usr/bin/env python3
"""FileCheck, minus the test's own directives in its input.

A translation test checks the translated source, and the translator keeps
comments, so the test's `// CHECK: ...` lines reach FileCheck's input too: a
pattern that the generated code no longer produces would still match its own
copy in the comment, and the test could not fail (clang-tidy's
check_clang_tidy.py strips its directives from the input for the same
reason). This removes, from standard input, every line that is only a `//`
comment holding a directive of the prefixes in use (CHECK by default, those
of --check-prefix/--check-prefixes otherwise) or a RUN line, then runs the
real FileCheck with the same arguments. lit.cfg.py substitutes it for
`FileCheck` in RUN lines.
"""
import os
import re
import subprocess
import sys

SUFFIXES = r"(-NEXT|-SAME|-NOT|-LABEL|-DAG|-EMPTY|-COUNT-\d+)?"


def prefixes(args):
    found = []
    for i, arg in enumerate(args):
        value = None
        for option in ("--check-prefix", "--check-prefixes", "-check-prefix", "-check-prefixes"):
            if arg == option and i + 1 < len(args):
                value = args[i + 1]
            elif arg.startswith(option + "="):
                value = arg.split("=", 1)[1]
        if value:
            found += value.split(",")
    return found or ["CHECK"]


def main():
    real = os.environ.get("GPUSS_FILECHECK", "FileCheck")
    args = sys.argv[1:]
    names = "|".join(re.escape(p) for p in prefixes(args) + ["RUN"])
    directive = re.compile(r"^\s*//\s*(%s)%s:" % (names, SUFFIXES))
    data = sys.stdin.buffer.read().decode("utf-8", errors="surrogateescape")
    kept = "".join(line for line in data.splitlines(keepends=True) if not directive.match(line))
    result = subprocess.run([real] + args, input=kept.encode("utf-8", errors="surrogateescape"))
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
