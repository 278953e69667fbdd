#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# layers.py — the folders of src/ include each other in one direction only.
#
# Reads every #include "..." of src/*/*.[ch], resolves it to a folder and
# checks (1) that the core includes nothing of the folders above it, (2) the
# behaviours nothing of the combiners, (3) the viewer nothing of src/ but
# its own folder (it draws through include/: steer.h, steer_debug.h), and
# (4) that the folder graph has no cycle. Prints each violation with the
# file and line; exits 1 on any.
# Usage: tools/layers.py [SOURCE_ROOT]
#        tools/layers.py --self-test   (a tree with a violation of each rule must fail)
import os, re, subprocess, sys, tempfile

if sys.argv[1:] == ['--self-test']:
    cases = {
        'view_core': ('view', 'scene.c', '#include "../core/world.h"\n'),
        'view_nav_rooted': ('view', 'viewint.h', '#include "src/nav/layers.h"\n'),
        'view_behaviors': ('view', 'inspect.c', '#include "../behaviors/behavior.h"\n'),
        'core_nav': ('core', 'tick.c', '#include "../nav/nav.h"\n'),
    }
    failed = 0
    for name, (folder, file, line) in sorted(cases.items()):
        with tempfile.TemporaryDirectory() as tmp:
            for f in ('core', 'nav', 'behaviors', 'view'):
                os.makedirs(os.path.join(tmp, 'src', f))
            for f, h in (('core', 'world.h'), ('nav', 'nav.h'), ('nav', 'layers.h'), ('behaviors', 'behavior.h')):
                open(os.path.join(tmp, 'src', f, h), 'w').close()
            open(os.path.join(tmp, 'src', folder, file), 'w').write('#include "steer.h"\n' + line)
            r = subprocess.run([sys.executable, __file__, tmp], capture_output=True, text=True)
            if r.returncode != 1 or 'must not' not in r.stdout:
                print(f'self-test {name}: layers.py did not refuse {folder}/{file}: {line.strip()} '
                      f'(exit {r.returncode}: {r.stdout.strip()})')
                failed += 1
    print('layers self-test: ' + ('failed' if failed else f'each of {len(cases)} violations refused'))
    sys.exit(1 if failed else 0)

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..'))
src = os.path.join(root, 'src')
# Rules the issue tracker asked for; the acyclicity check covers the rest.
FORBIDDEN = {
    'core': {'behaviors', 'combine', 'nav', 'lua', 'engine', 'view', 'app'},
    'behaviors': {'combine', 'lua', 'engine', 'view', 'app'},
    'nav': {'behaviors', 'combine', 'lua', 'engine', 'view', 'app'},
}
# Folders that may include nothing of src/ but themselves: the viewer is a
# host like any game, and draws through the public headers alone.
ISOLATED = {'view'}

def resolve(d, name):
    """The file an #include "name" in folder d means: beside the includer,
    else from the project root or src/ (meson puts both on the path)."""
    for base in (d, root, src):
        target = os.path.normpath(os.path.join(base, name))
        if os.path.exists(target):
            return target
    return os.path.normpath(os.path.join(d, name))
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
            target = resolve(d, m.group(1))
            rel = os.path.relpath(target, src)
            if rel.startswith('..') or os.sep not in rel:
                continue  # include/ or a system header
            to = rel.split(os.sep)[0]
            if to == folder:
                continue
            edges.setdefault(folder, {}).setdefault(to, f'src/{folder}/{name}:{no}')
            if to in FORBIDDEN.get(folder, ()) or folder in ISOLATED:
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
