#!/usr/bin/env python3
# med.py LOG [SYSTEM]: per scene x dt: median time (nv), median pairs, max deepest, n layouts
import sys, math
rows = {}
for l in open(sys.argv[1]):
    d = dict(w.split("=", 1) for w in l.split() if "=" in w)
    if len(sys.argv) > 2 and d["system"] != sys.argv[2]: continue
    t = math.inf if d["time_s"] == "never" else float(d["time_s"])
    dt = "1/60" if d["dt"] == "0.0167" else d["dt"]
    rows.setdefault((d["system"], d["scenario"], dt), {})[int(d.get("layout", 0))] = (t, int(d["overlap_pairs"]), float(d["deepest_r"]))
def med(v):
    v = sorted(v); n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])
for k in sorted(rows):
    r = rows[k]; ts = [x[0] for x in r.values()]
    nv = sum(1 for t in ts if math.isinf(t))
    print("%-6s %-10s %-5s n=%2d  time %7.1f%s  pairs %5.0f  deepest %.3f" % (k[0], k[1], k[2], len(r), med(ts), " (%dnv)" % nv if nv else "", med([x[1] for x in r.values()]), max(x[2] for x in r.values())))
