#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""steer's navigation meshes beside Recast/Detour (issue 32, item 8).

    bench/peers/detour.sh                      # builds build-detour/detour-nav
    ninja -C build bench/steer-bench
    python3 bench/navmesh-vs-detour.py [--rounds 5] [--level city|rooms|large|all]
                                       [--steer build/bench/steer-bench] [--detour build-detour/detour-nav]
                                       [--cs 0.25] [--repeat 3]

Runs `steer-bench navmesh` and `detour-nav` on the same levels and query
pairs (bench/nav_levels.c), interleaved: each round runs every level once
on each side, in separate processes, the side that goes first alternating
from round to round. Prints the medians over the rounds as a markdown
table, one row per level and radius. Path lengths come from the first
round (both sides are deterministic): the ratio is steer's length over
Detour's, averaged over the pairs both found a path for; "only" counts the
pairs one side found a path for and the other did not. The last three
columns time only the pairs both sides found a path for (like for like: a
pair one side answers "no path" at once is not there), their median, p99
and worst in each round (each side's per-pair times, --times), the
medians of those over the rounds.

rooms at radius 0.5: every 1 m door is exactly as wide as the agent.
Recast rounds the radius up to whole cells and erodes by it, so the
cell-0.25 bake closes those doors (Detour answers "no path" for the pairs
behind them, and its searches never look into those rooms). One more row
(--open-doors, on by default when rooms is run) times Detour baked so they
stay open, the same topology as steer's at 0.5: radius 0.4 m (erosion
0.4 m a side, so a 1 m door keeps 0.2 m), cell 0.1 m, one tile; its pairs
are steer's radius-0.5 pairs, compared on the pairs both found.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse(out, tag):
    rows = {}
    for line in out.splitlines():
        words = line.split()
        if not words or words[0] != tag:
            continue
        kv = dict(w.split("=", 1) for w in words[1:])
        rows[(kv["level"], float(kv["radius"]))] = kv
    return rows


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p.stdout


def lengths(path):
    out = {}
    with open(path) as f:
        for line in f:
            level, radius, i, length = line.split()
            out[(level, float(radius), int(i))] = None if length == "-" else float(length)
    return out


def times(path):
    out = {}
    with open(path) as f:
        for line in f:
            level, radius, i, us, found = line.split()
            out[(level, float(radius), int(i))] = (float(us), found == "1")
    return out


def stats(us):
    """median, p99 and worst as the peers compute them (bench_median; us[int(0.99 (n - 1))]; the last)."""
    us = sorted(us)
    n = len(us)
    if not n:
        return float("nan"), float("nan"), float("nan")
    median = us[n // 2] if n % 2 else 0.5 * (us[n // 2 - 1] + us[n // 2])
    return median, us[int(0.99 * (n - 1))], us[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--level", default="all")
    ap.add_argument("--steer", default=os.path.join(ROOT, "build", "bench", "steer-bench"))
    ap.add_argument("--detour", default=os.path.join(ROOT, "build-detour", "detour-nav"))
    ap.add_argument("--cs", default="0.25", help="Recast's cell size in metres (detour-nav --cs)")
    ap.add_argument("--repeat", default="3", help="runs of each query, the fastest counted (both sides)")
    ap.add_argument("--open-doors", default="yes", choices=("yes", "no"),
                    help="rooms: also Detour baked so the 1 m doors stay open at radius 0.5 (radius 0.4, cell 0.1)")
    a = ap.parse_args()
    levels = ["city", "rooms", "large"] if a.level == "all" else [a.level]
    tmp = tempfile.mkdtemp(prefix="navmesh-vs-detour-")
    slen, dlen = os.path.join(tmp, "steer.txt"), os.path.join(tmp, "detour.txt")
    steer_runs, detour_runs = [], []
    stimes = [os.path.join(tmp, "steer-times-%d.txt" % r) for r in range(a.rounds)]
    dtimes = [os.path.join(tmp, "detour-times-%d.txt" % r) for r in range(a.rounds)]
    open_doors = a.open_doors == "yes" and "rooms" in levels
    otimes = [os.path.join(tmp, "detour-open-times-%d.txt" % r) for r in range(a.rounds)]
    open_runs = []
    for r in range(a.rounds):
        if open_doors:
            open_runs.append(parse(run([a.detour, "--level", "rooms", "--radius", "0.4", "--cs", "0.1", "--tile",
                                        "1024", "--repeat", a.repeat, "--times", otimes[r]]), "detour-nav"))
        for level in levels:
            keep = ["--lengths", slen] if r == 0 else []
            s_cmd = [a.steer, "navmesh", "--level", level, "--repeat", a.repeat, "--times", stimes[r]] + keep
            keep = ["--lengths", dlen] if r == 0 else []
            d_cmd = [a.detour, "--level", level, "--cs", a.cs, "--repeat", a.repeat, "--times", dtimes[r]] + keep
            order = [(s_cmd, "navmesh", steer_runs), (d_cmd, "detour-nav", detour_runs)]
            if r % 2:
                order.reverse()
            for cmd, tag, runs in order:
                runs.append(parse(run(cmd), tag))
        print("round %d/%d done" % (r + 1, a.rounds), file=sys.stderr)

    def med(runs, key, field):
        return statistics.median(float(x[key][field]) for x in runs if key in x)

    sl, dl = lengths(slen), lengths(dlen)
    st, dt = [times(p) for p in stimes], [times(p) for p in dtimes]

    def both_found(key):
        """(pairs, Detour's (median, p99, worst), steer's): over the pairs both found a path for in every
        round, each statistic's median over the rounds."""
        idx = [i for (lv, rad, i), (_, f) in st[0].items() if (lv, rad) == key and f
               and all(x[(lv, rad, i)][1] for x in st + dt)]
        side = [[statistics.median(stats([x[key + (i,)][0] for i in idx])[s] for x in runs) for s in range(3)]
                for runs in (dt, st)]
        return len(idx), side[0], side[1]

    notes = []
    print("| level | radius | Detour bake ms | steer build ms | Detour bytes | steer bytes | "
          "Detour median us | steer median us | Detour p99 / worst us | steer p99 / worst us | "
          "no path Detour (far snap) / steer | length steer / Detour | both found | "
          "both found: Detour median / p99 / worst us | both found: steer median / p99 / worst us |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for level in levels:
        for radius in (0.0, 0.5):
            key = (level, radius)
            build = med(steer_runs, key, "build_ms") + med(steer_runs, key, "prepare_ms")
            ratios, only_s, only_d = [], 0, 0
            for (lv, rad, i), d in dl.items():
                if (lv, rad) != key:
                    continue
                s = sl.get((lv, rad, i))
                if s is not None and d is not None and d > 0:
                    ratios.append(s / d)
                elif s is not None:
                    only_s += 1
                elif d is not None:
                    only_d += 1
            first_s = next(x[key] for x in steer_runs if key in x)
            first_d = next(x[key] for x in detour_runs if key in x)
            nboth, bd, bs = both_found(key)
            print("| %s | %g | %.0f | %.1f | %s | %s | %.1f | %.1f | %.0f / %.0f | %.0f / %.0f | %s (%s) / %s | %.3f "
                  "| %d | %.1f / %.0f / %.0f | %.1f / %.0f / %.0f |"
                  % (level, radius, med(detour_runs, key, "bake_ms"), build, first_d["nav_bytes"],
                     first_s["bytes"], med(detour_runs, key, "median_us"), med(steer_runs, key, "median_us"),
                     med(detour_runs, key, "p99_us"), med(detour_runs, key, "worst_us"),
                     med(steer_runs, key, "p99_us"), med(steer_runs, key, "worst_us"),
                     first_d["no_path"], first_d["far_snap"], first_s["no_path"],
                     statistics.mean(ratios) if ratios else float("nan"), nboth, *bd, *bs))
            if only_s or only_d:
                notes.append("%s, radius %g: %d pairs only steer found a path for, %d only Detour"
                             % (level, radius, only_s, only_d))
    if open_doors:
        # steer at 0.5 against Detour at 0.4 on cell 0.1: the same doors open
        key, okey = ("rooms", 0.5), ("rooms", 0.4)
        ot = [times(p) for p in otimes]
        idx = [i for (lv, rad, i), (_, f) in st[0].items() if (lv, rad) == key and f
               and all(x[key + (i,)][1] for x in st) and all(x[okey + (i,)][1] for x in ot)]
        bo = [statistics.median(stats([x[okey + (i,)][0] for i in idx])[s] for x in ot) for s in range(3)]
        bs = [statistics.median(stats([x[key + (i,)][0] for i in idx])[s] for x in st) for s in range(3)]
        first_o = open_runs[0][okey]
        print("| rooms, 1 m doors open on both sides (Detour radius 0.4, cell 0.1) | 0.5 | %.0f | | %s | | %.1f | %.1f "
              "| %.0f / %.0f | %.0f / %.0f | %s (%s) / %s | | %d | %.1f / %.0f / %.0f | %.1f / %.0f / %.0f |"
              % (statistics.median(float(x[okey]["bake_ms"]) for x in open_runs), first_o["nav_bytes"],
                 statistics.median(float(x[okey]["median_us"]) for x in open_runs), med(steer_runs, key, "median_us"),
                 statistics.median(float(x[okey]["p99_us"]) for x in open_runs),
                 statistics.median(float(x[okey]["worst_us"]) for x in open_runs),
                 med(steer_runs, key, "p99_us"), med(steer_runs, key, "worst_us"),
                 first_o["no_path"], first_o["far_snap"], next(x[key] for x in steer_runs if key in x)["no_path"],
                 len(idx), *bo, *bs))
    for n in notes:
        print("\n- " + n, end="")
    print("\n\nsteer builds one mesh per level (build ms: steerN_mesh_build + steerN_mesh_prepare) and answers "
          "both radii on it; Detour bakes one mesh per radius (cell %s m). Each query runs %s times in a row, "
          "its fastest counted. Medians of %d rounds; lengths from round 1, in %s; far snap: Detour's paths "
          "from or to a point findNearestPoly moved by more than radius + 1 m; both found: the pairs both sides "
          "found a path for, timed apart (each round's median, p99 and worst over them; medians of the rounds)."
          % (a.cs, a.repeat, a.rounds, tmp))


if __name__ == "__main__":
    main()
