#!/usr/bin/env python3
# ens.py LOG SYSTEM BIN SCENES DTS LAYOUTS [KEY=VAL...]: runs missing (scene,dt,layout) of SYSTEM into LOG (appends)
import os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
log, system, binp, scenes, dts, L = sys.argv[1:7]
env = dict(os.environ)
for kv in sys.argv[7:]:
    k, v = kv.split("=", 1); env[k] = v
done = set()
if os.path.exists(log):
    for l in open(log):
        d = dict(w.split("=", 1) for w in l.split() if "=" in w)
        if d.get("system") == system:
            done.add((d["scenario"], "1/60" if d["dt"] == "0.0167" else d["dt"], int(d.get("layout", 0))))
jobs = []
for k in range(1, int(L) + 1):
    for s in scenes.split(","):
        for dt in dts.split(","):
            if (s, dt, k) in done: continue
            if system == "steer":
                cmd = ["nice", binp, "crowd", "--scenario", s, "--dt", "0.0167" if dt == "1/60" else dt, "--method", "orca", "--jitter", str(k)]
            else:
                cmd = ["nice", binp, "--scenario", s, "--dt", dt, "--method", "rvo2-noise", "--jitter", str(k)]
            jobs.append(cmd)
def run(c):
    out = subprocess.run(c, env=env, capture_output=True, text=True).stdout
    return [l for l in out.splitlines() if l.startswith("crowd ")]
with open(log, "a") as f, ThreadPoolExecutor(int(os.environ.get("J", "2"))) as ex:
    for ls in ex.map(run, jobs):
        for l in ls: print(l, file=f, flush=True)
