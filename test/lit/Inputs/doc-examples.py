#!/usr/bin/env python3
"""doc-examples.py DOC SECTION OUTDIR TRANSLATE CC CXX INCLUDE [-I INCLUDE...]

Writes each ```c and ```cpp block of the section of DOC whose heading is
'## SECTION' (up to the next '## ' heading) to OUTDIR, translates it with
TRANSLATE and compiles the result (-fsyntax-only) with CC or CXX. Prints one
line per example and 'examples: N'; exits non-zero at the first failure."""
import os
import subprocess
import sys


def main(doc, section, outdir, translate, cc, cxx, *include):
    lines = open(doc, encoding="utf-8").read().split("\n")
    try:
        start = lines.index("## " + section)
    except ValueError:
        sys.exit("no section '## %s' in %s" % (section, doc))
    blocks, lang, body = [], None, []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if lang is None and line in ("```c", "```cpp"):
            lang, body = line[3:], []
        elif lang is not None and line == "```":
            blocks.append((lang, "\n".join(body) + "\n"))
            lang = None
        elif lang is not None:
            body.append(line)
    for i, (lang, text) in enumerate(blocks):
        src = os.path.join(outdir, "example%d.%s" % (i, lang))
        out = os.path.join(outdir, "example%d.out.%s" % (i, lang))
        with open(src, "w", encoding="utf-8") as f:
            f.write(text)
        std = ["-std=c++17"] if lang == "cpp" else []
        steps = [[translate, src, "-o", out, "--"] + std,
                 [cxx if lang == "cpp" else cc, "-fsyntax-only", "-I"] + list(include) + std + [out]]
        for step in steps:
            r = subprocess.run(step, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode != 0:
                print("example %d (%s) fails: %s\n%s\n%s" % (i, lang, " ".join(step), r.stdout, text))
                return 1
        print("example %d (%s): translated and compiled" % (i, lang))
    print("examples: %d" % len(blocks))
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 8:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
