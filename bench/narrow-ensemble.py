#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""narrow-ensemble: steer against RVO2 on medians over perturbed layouts (issue 31).

Single runs of the narrow scenes are chaotic: moving the starts by 5 cm can
change a doorway's time several fold, for either system. So this runs
layouts 1..N of each scene (crowd_scene_jitter: every start moved by up to
5 cm in x and y, from a stream seeded by the layout; the same layout for
both systems) at each dt, steer and RVO2 interleaved, and prints markdown:
per scene x dt, the median time all through (and in how many layouts all
got through), the median overlapping pairs and the deepest overlap of any
layout, for both systems side by side; then every layout's time.

  bench/narrow-ensemble.py STEER_BENCH RVO2_CROWD [--layouts N] [--first K] [--jobs J]
      [--scenes doorway,bottleneck,...] [--dts 1/60,0.25]
      [--steer-method orca] [--max-overlap X] [--nav waypoints|mesh] [--rvo2-method rvo2-noise]
      [--systems steer,rvo2] [--log FILE]
  bench/narrow-ensemble.py --from-log FILE...   (the table again from logs)

Each run is one process under nice: `STEER_BENCH crowd --scenario S --dt DT
--method orca --jitter K` and `RVO2_CROWD --scenario S --dt DT --method
rvo2-noise --jitter K` (steer with `--max-overlap X` when given: reciprocal's
max_overlap; with `--nav mesh` when given: steer's agents navigate a mesh
of the scene instead of heading for its waypoints, RVO2 keeps them; only
scenes with walls have one); their metric lines (crowd_scen.h) go to --log. Both
systems are deterministic, so the figures do not depend on --jobs or the
machine's load (no timings are reported): --first K runs layouts K..N
only (more layouts for an earlier log), --systems steer reruns only
steer, and --from-log with that log and an earlier one's RVO2 lines makes
the whole table.
"""
import argparse
import math
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SCENES = "doorway,bottleneck,fanin,hallway4,corridor"


def parse_line(line):
    """A metric line's key=value pairs (crowd_scen.h's crowd_metrics_print)."""
    words = line.split()
    if not words or words[0] != "crowd":
        return None
    return dict(w.split("=", 1) for w in words[1:] if "=" in w)


def median(values):
    """The median; the mean of the middle two for an even count (inf stays inf)."""
    v = sorted(values)
    n = len(v)
    if n == 0:
        return math.nan
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def dt_label(dt):
    return "1/60" if dt in ("1/60", "0.0167") else dt


def commands(args, scene, dt, layout):
    sdt = "0.0167" if dt == "1/60" else dt  # steer-bench reads 0.0167 (and 1/60) as 1/60 exactly
    steer = ["nice", args.steer_bench, "crowd", "--scenario", scene, "--dt", sdt,
             "--method", args.steer_method, "--jitter", str(layout)]
    if args.max_overlap:
        steer += ["--max-overlap", args.max_overlap]
    if args.nav != "waypoints":
        steer += ["--nav", args.nav]
    rvo2 = ["nice", args.rvo2_crowd, "--scenario", scene, "--dt", dt,
            "--method", args.rvo2_method, "--jitter", str(layout)]
    return [(name, cmd) for name, cmd in (("steer", steer), ("rvo2", rvo2)) if name in args.systems.split(",")]


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    lines = [l for l in out.splitlines() if l.startswith("crowd ")]
    if len(lines) != 1:
        sys.exit("narrow-ensemble: expected one metric line from %s, got:\n%s" % (" ".join(cmd), out))
    return lines[0]


def collect(lines):
    """{(scene, dt, column): {layout: record}} from metric lines; a column is
    "rvo2" or "steer:METHOD" (logs of several steer methods side by side)."""
    cells = {}
    for line in lines:
        kv = parse_line(line)
        if kv is None:
            continue
        column = "rvo2" if kv["system"] == "rvo2" else "steer:" + kv["method"]
        key = (kv["scenario"], dt_label(kv["dt"]), column)
        time_s = math.inf if kv["time_s"] == "never" else float(kv["time_s"])
        arrived = int(kv["arrived"].split("/")[0])
        cells.setdefault(key, {})[int(kv.get("layout", "0"))] = {
            "time": time_s,
            "arrived": arrived,
            "n": int(kv["n"]),
            "pairs": int(kv["overlap_pairs"]),
            "deepest": float(kv["deepest_r"]),
            "walls": int(kv.get("walls_crossed", "0")),
            "into_wall": float(kv.get("obstacle_depth_m", "0")),
            "method": kv["method"],
        }
    return cells


def fmt_time(t):
    return "never" if math.isinf(t) else "%.1f s" % t


def fmt_pairs(p):
    return "%g" % p


def table(cells):
    order = SCENES.split(",")
    keys = sorted({(s, d) for (s, d, _) in cells},
                  key=lambda k: (order.index(k[0]) if k[0] in order else len(order), k[0], k[1] != "1/60"))
    # the steer columns in the order met (dicts keep it), RVO2 last
    columns = [c for c in dict.fromkeys(c for (_, _, c) in cells) if c != "rvo2"] + ["rvo2"]
    steer_cols = columns[:-1]
    methods = {c: next(iter(v.values()))["method"] for (_, _, c), v in cells.items()}

    def name(c):
        if c == "rvo2":
            return "RVO2"
        return "steer" if len(steer_cols) == 1 else "steer `%s`" % methods[c]

    def heads(what):
        return [("%s: %s" % (name(c), what)) if c == columns[0] else name(c) for c in columns]

    head = heads("all through, median (layouts all through)") + heads("overlapping pairs, median") + \
        heads("deepest, max")
    if len(steer_cols) > 1:  # issue 32's question, per steer column: pairs no more than RVO2's?
        head += ["pairs <= RVO2's: " + ", ".join(name(c) for c in steer_cols)]
    out = ["| scene | dt | " + " | ".join(head) + " |", "|---|---|" + "---|" * len(head)]
    walls = []
    nlayouts = set()
    into_wall = {c: 0.0 for c in columns}
    for scene, dt in keys:
        per = {}
        for c in columns:
            runs = cells.get((scene, dt, c), {})
            nlayouts.add(len(runs))
            through = sum(1 for r in runs.values() if not math.isinf(r["time"]))
            pairs = median([r["pairs"] for r in runs.values()])
            per[c] = (
                "%s (%d/%d)" % (fmt_time(median([r["time"] for r in runs.values()])), through, len(runs)),
                fmt_pairs(pairs),
                "%.3f r" % max([r["deepest"] for r in runs.values()] or [math.nan]),
                pairs,
            )
            into_wall[c] = max([into_wall[c]] + [r["into_wall"] for r in runs.values()])
            crossed = sum(r["walls"] for r in runs.values())
            if crossed:
                walls.append("%s %s %s: %d agents through a wall" % (scene, dt, name(c), crossed))
        row = [scene, dt]
        for k in range(3):
            row += [per[c][k] for c in columns]
        if len(steer_cols) > 1:
            row += [", ".join("yes" if per[c][3] <= per["rvo2"][3] else "no" for c in steer_cols)]
        out.append("| " + " | ".join(row) + " |")
    out.append("")
    out.append("%s; layouts per cell: %s" %
               (", ".join("%s `%s`" % (name(c) if len(steer_cols) == 1 or c == "rvo2" else "steer",
                                       methods.get(c, "?")) for c in columns),
                ", ".join(str(n) for n in sorted(nlayouts))))
    out.append("deepest into a wall in any run: %s; through a wall: %s" %
               (", ".join("%s %.3f m" % (name(c), into_wall[c]) for c in columns),
                "; ".join(walls) if walls else "nobody, in any run"))
    out.append("")
    # every layout's time, to show the spread behind each median
    layouts = sorted({k for v in cells.values() for k in v})
    out.append("| scene | dt | system | " + " | ".join("layout %d" % k for k in layouts) + " |")
    out.append("|---|---|---|" + "---|" * len(layouts))
    for scene, dt in keys:
        for c in columns:
            runs = cells.get((scene, dt, c), {})
            times = []
            for k in layouts:
                r = runs.get(k)
                if r is None:
                    times.append("")
                elif math.isinf(r["time"]):
                    times.append("never (%d/%d)" % (r["arrived"], r["n"]))
                else:
                    times.append("%.1f" % r["time"])
            out.append("| %s | %s | %s | %s |" % (scene, dt, name(c), " | ".join(times)))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("steer_bench", nargs="?")
    ap.add_argument("rvo2_crowd", nargs="?")
    ap.add_argument("--layouts", type=int, default=7)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--scenes", default=SCENES)
    ap.add_argument("--dts", default="1/60,0.25")
    ap.add_argument("--steer-method", default="orca")
    ap.add_argument("--max-overlap")
    ap.add_argument("--nav", choices=("waypoints", "mesh"), default="waypoints")
    ap.add_argument("--rvo2-method", default="rvo2-noise")
    ap.add_argument("--systems", default="steer,rvo2")
    ap.add_argument("--log")
    ap.add_argument("--from-log", nargs="+")
    args = ap.parse_args()
    if args.from_log:
        lines = []
        for path in args.from_log:
            with open(path) as f:
                lines += f.readlines()
        print(table(collect(lines)))
        return
    if not args.steer_bench or not args.rvo2_crowd or args.layouts < 1 or args.jobs < 1 or args.first < 1:
        ap.error("give STEER_BENCH and RVO2_CROWD, --layouts >= 1, --jobs >= 1")
    cmds = []
    for layout in range(args.first, args.layouts + 1):  # steer and RVO2 interleaved, layout by layout
        for scene in args.scenes.split(","):
            for dt in args.dts.split(","):
                cmds += [c for _, c in commands(args, scene, dt, layout)]
    log = open(args.log, "w") if args.log else None
    lines = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for line in pool.map(run, cmds):
            lines.append(line)
            print(line, file=sys.stderr)
            if log:
                print(line, file=log, flush=True)
    if log:
        log.close()
    print(table(collect(lines)))


if __name__ == "__main__":
    main()
