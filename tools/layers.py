#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# layers.py — the folders of src/ include each other in one direction only.
#
# Reads every #include "..." of src/*/*.[ch], resolves it to a folder and
# checks (1) that the core includes nothing of the folders above it, (2) the
# behaviours nothing of the combiners, (3) the viewer nothing of src/ but
# its own folder (it draws through include/: steer.h, steer_debug.h), and
# (4) that the folder graph has no cycle. Includes are not the whole story:
# a file may call a function it declares itself. So with --objects
# LIB.a..., it also reads the archives' symbols (nm) and checks the same
# rules at link level: an object of a folder references no symbol that an
# object of a forbidden folder defines. The one exception is LINK_ALLOWED:
# the core reaches the kinds only through their table, steerB_kinds
# (src/behaviors/kinds.c), and kinds.c, the table, names every kind, the
# combiners' too. Objects are told apart by meson's names for them
# (src_FOLDER_FILE.c.o). Within src/core and src/engine, files call each
# other in one direction too: a circle of files (a strongly connected set in
# the graph of which object uses a symbol of which) is a violation, unless
# KNOWN_CYCLES still lists it, as a debt to pay: that list only shrinks.
# Prints each violation with the file and line or object; exits 1 on any.
# Usage: tools/layers.py [SOURCE_ROOT] [--objects LIB.a...]
#        tools/layers.py --self-test   (a tree with a violation of each rule must fail)
import os, re, subprocess, sys, tempfile

if sys.argv[1:] == ['--self-test']:
    cases = {
        'view_core': ('view', 'scene.c', '#include "../core/world.h"\n'),
        'view_nav_rooted': ('view', 'viewint.h', '#include "src/nav/layers.h"\n'),
        'view_behaviors': ('view', 'inspect.c', '#include "../behaviors/behavior.h"\n'),
        'core_nav': ('core', 'tick.c', '#include "../nav/nav.h"\n'),
        'lua_world': ('lua', 'lworld.c', '#include "../core/world.h"\n'),
        'lua_behavior': ('lua', 'lbehavior.c', '#include "../behaviors/behavior.h"\n'),
    }
    failed = 0
    for name, (folder, file, line) in sorted(cases.items()):
        with tempfile.TemporaryDirectory() as tmp:
            for f in ('core', 'nav', 'behaviors', 'view', 'lua'):
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

args = sys.argv[1:]
objects = []
if '--objects' in args:
    objects = args[args.index('--objects') + 1:]
    args = args[:args.index('--objects')]
root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), '..'))
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
# Folders that may include only these headers of these folders: the Lua
# bindings read the core through the public headers, trees as data
# (core/tree.h), the floor's number rules (base.h), the bytes (bytes.h)
# and the agents' generator (rng.h), never the world's layout (world.h)
# or compiled brains (brain.h); of the behaviours, only what they export.
LIMITED = {
    'lua': {
        'core': {'core/tree.h', 'core/base.h', 'core/bytes.h', 'core/rng.h'},
        'behaviors': {'behaviors/exports.h'},
    },
}

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
            limited = LIMITED.get(folder, {}).get(to)
            if to in FORBIDDEN.get(folder, ()) or folder in ISOLATED or (limited is not None and rel not in limited):
                bad.append(f'src/{folder}/{name}:{no}: {folder}/ includes {rel}, which it must not')

# Symbols a folder may use from one it must not include: (user object, symbol).
LINK_ALLOWED = {('core', 'steerB_kinds'), ('behaviors/kinds.c', '*')}
FOLDERS = sorted(f for f in os.listdir(src) if os.path.isdir(os.path.join(src, f)))


def folder_of(member):
    """src_FOLDER_FILE.c.o (.c.obj on Windows) -> (FOLDER, FOLDER/FILE.c), or None"""
    for f in FOLDERS:
        for ext in ('.o', '.obj'):
            if member.startswith(f'src_{f}_') and member.endswith(ext):
                return f, f + '/' + member[len(f'src_{f}_'):-len(ext)]
    return None


# Circles of files that calls still close (file names without .c), each a
# debt: the check fails on any other, and says when one of these is gone.
KNOWN_CYCLES = [
    # none left: src/core and src/engine call down only
]
NO_CYCLES = ('core', 'engine')


def strongly_connected(nodes, succ):
    """Tarjan's algorithm, iteratively: the components of more than one node."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(succ.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(succ.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(comp)
    return out


def check_cycles(defined, used):
    succ, nodes = {}, set()
    for (folder, obj), name in used:
        if folder not in NO_CYCLES or name not in defined:
            continue
        to_folder, to = defined[name]
        if to_folder != folder or to == obj:
            continue
        a, b = obj[:-2], to[:-2]
        nodes.update((a, b))
        succ.setdefault(a, set()).add(b)
    comps = strongly_connected(nodes, succ)
    for comp in comps:
        if not any(comp <= known for known in KNOWN_CYCLES):
            bad.append('files that call each other in a circle: ' + ', '.join(sorted(comp)) +
                       ' (each can reach every other through the calls; move what they share down a level)')
    for known in KNOWN_CYCLES:
        folder = next(iter(known)).split('/')[0]
        if folder in {f for f, _ in (x for x, _ in used)} and not any(comp & known for comp in comps):
            print(f'note: the known circle {", ".join(sorted(known))} is gone: take it off KNOWN_CYCLES')
    return comps


def check_symbols(libs):
    defined, used, seen = {}, [], set()
    for lib in libs:
        out = subprocess.run(['nm', '-A', lib], capture_output=True, text=True)
        if out.returncode != 0:
            bad.append(f'nm {lib} failed: {out.stderr.strip()}')
            continue
        for line in out.stdout.splitlines():
            # ARCHIVE:MEMBER:[VALUE] TYPE NAME
            m = re.match(r'^.*:([^:/]+\.o(?:bj)?):\s*(?:[0-9a-fA-F]+)?\s+(\S)\s+(\S+)$', line)
            where = m and folder_of(m.group(1))
            if not where:
                continue
            seen.add(where[0])
            kind, name = m.group(2), m.group(3)
            if kind == 'U':
                used.append((where, name))
            elif kind in 'TDBRCVWG':
                defined.setdefault(name, where)
    for needed in ('core', 'behaviors', 'combine'):
        if needed not in seen:
            bad.append(f'--objects: no object of src/{needed} in {", ".join(libs)} (named src_{needed}_FILE.c.o?)')
    for (folder, obj), name in used:
        if name not in defined:
            continue
        to, where = defined[name]
        if to == folder or to not in FORBIDDEN.get(folder, ()):
            continue
        if (folder, name) in LINK_ALLOWED or (obj, '*') in LINK_ALLOWED:
            continue
        bad.append(f'src/{obj} references {name}, defined in src/{where}: {folder}/ must not call into {to}/')
    for comp in check_cycles(defined, used):
        print('note: files still calling each other in a circle (KNOWN_CYCLES): ' + ', '.join(sorted(comp)))


if objects:
    check_symbols(objects)

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
print('layers ok: ' + '; '.join(f'{f} -> {", ".join(sorted(t))}' for f, t in sorted(edges.items())) +
      (f' (and at link level in {", ".join(objects)})' if objects else ''))
