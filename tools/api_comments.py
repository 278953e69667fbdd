#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Every STEER_API function in the public headers has its own comment, as in
# raylib.h: a trailing `// ...` on one of its lines, or a comment line right
# above it (the last line of a comment block that belongs to it alone: a
# comment above two declarations in a row counts for the first only).
#   tools/api_comments.py [ROOT]   lists the ones without; exit 1 if any
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
headers = sorted((root / "include").glob("*.h"))
missing = 0
for header in headers:
    lines = header.read_text().split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("STEER_API"):
            i += 1
            continue
        start = i
        while ";" not in lines[i].split("//")[0]:
            i += 1
        decl = lines[start:i + 1]
        above = lines[start - 1].strip() if start > 0 else ""
        if not (any("//" in line for line in decl) or above.startswith("//")):
            print(f"{header.relative_to(root)}:{start + 1}: {lines[start].strip()}")
            missing += 1
        i += 1
if missing:
    print(f"api_comments: {missing} STEER_API functions without a comment of their own")
sys.exit(1 if missing else 0)
