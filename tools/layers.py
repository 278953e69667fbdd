#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# layers.py — the folders of src/ include each other in one direction only.
#
# Reads every #include "..." of src/*/*.[ch], resolves it to a folder and
# checks (1) that the core includes nothing of the folders above it, (2) the
# behaviours nothing of the combiners, and (3) that the folder graph has no
# cycle. Prints each violation with the file and line; exits 1 on any.
# Usage: tools/layers.py [SOURCE_ROOT]
import os, re, sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..'))
src = os.path.join(root, 'src')
# Rules the issue tracker asked for; the acyclicity check covers the rest.
FORBIDDEN = {
    'core': {'behaviors', 'combine', 'nav', 'lua', 'engine', 'view', 'app'},
    'behaviors': {'combine', 'lua', 'engine', 'view', 'app'},
    'nav': {'behaviors', 'combine', 'lua', 'engine', 'view', 'app'},
}
edges, bad = {}, []
for folder in sorted(os.listdir(src)):
    d = os.path.join(src, folder)
    if not os.path.isdir(d):
        continue
    for name in sorted(os.listdir(d)):
        if not name.endswith(('.c', '.h')):
            continue
        path = os.path.join(d, name)
        for no, line in enumerate(open(path, encoding='utf-8'), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            target = os.path.normpath(os.path.join(d, m.group(1)))
            rel = os.path.relpath(target, src)
            if rel.startswith('..') or os.sep not in rel:
                continue  # include/ or a system header
            to = rel.split(os.sep)[0]
            if to == folder:
                continue
            edges.setdefault(folder, {}).setdefault(to, f'src/{folder}/{name}:{no}')
            if to in FORBIDDEN.get(folder, ()):
                bad.append(f'src/{folder}/{name}:{no}: {folder}/ includes {rel}, which it must not')

# a cycle in the folder graph, by depth-first search
state = {}
def visit(f, path):
    state[f] = 1
    for t, where in sorted(edges.get(f, {}).items()):
        if state.get(t) == 1:
            cyc = path[path.index(t):] + [t] if t in path else [f, t]
            bad.append('include cycle between folders: ' + ' -> '.join(cyc) + f' (e.g. {where})')
        elif not state.get(t):
            visit(t, path + [t])
    state[f] = 2
for f in sorted(edges):
    if not state.get(f):
        visit(f, [f])

for b in bad:
    print(b)
if bad:
    sys.exit(1)
print('layers ok: ' + '; '.join(f'{f} -> {", ".join(sorted(t))}' for f, t in sorted(edges.items())))
