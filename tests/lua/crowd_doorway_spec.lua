-- SPDX-License-Identifier: MIT
-- crowd_doorway_spec.lua — issue 31 goals 1 and 2 on the crowd benchmark's
-- own narrow scenes, with reciprocal{ arrive } at its defaults, as
-- `steer-bench crowd --scenario S --method orca --jitter K` runs and scores
-- them (STEER_BENCH, as meson sets it; bench/crowd_scen.c). Single runs are
-- chaotic (5 cm at the start can change the time several fold), so the
-- checks are on the median over layouts 1..7.
-- Goal 1, the doorway: 50 people each side of a wall swap through a 2 m
-- gap, each by way of the middle of the gap's half on its right. Before
-- reciprocal's head-on share (the leaver has the right of way in a passage)
-- that median was 232.5 s at 1/60 s and 308.2 s at 0.25 s; with it 124.8 s
-- and 213.0 s; RVO2 (rvo2-noise) on the same layouts 122.6 s and 211.2 s,
-- on 15 layouts 139.3 s and 211.2 s (docs/api.md, "The crowd benchmark";
-- steer's 15 layouts: 124.8 s and 206.0 s). With max_overlap on by default
-- at large steps, 232.0 s at 0.25 s (60 layouts: 205.3 s, RVO2 209.6 s).
-- With reciprocal's lane discipline at the gap (lane_share) 93.3 s and
-- 202.2 s (116.6 s and 232.0 s without it). The bounds are about a
-- quarter over the medians.
-- Goal 2, pressing into a gap at 0.25 s without overlapping: 100 people
-- through a 1.2 m gap (bottleneck) and a funnel (fanin). Without
-- max_overlap's default (max_overlap = 0: off) the medians were 778 and 308
-- overlapping pairs, pairs up to 1.81 and 1.68 radii deep; RVO2 on the same
-- layouts 319 and 213, up to 1.32 and 0.99 radii. With the default: 307 and
-- 69, none deeper than 0.3 radii, in 189.2 s and 85.0 s (RVO2 159.2 s and
-- 77.7 s on 30 layouts). Since a pair already in contact may press to 0.45
-- radii (reciprocal.c, auto_overlap): 312 and 68 pairs in 172.0 s and 93.5 s
-- (30 layouts: 171.8 s and 84.7 s). With the approach bound 0.2 (0.3 for
-- face-offs) and the fallback relaxing a pair in contact by 20% (10% for the
-- others): 243 and 32 pairs in 167.8 s and 88.0 s (30 layouts: 163.1 s and
-- 87.0 s); the bottleneck's bounds (170 s, 280 pairs) failed before it.
-- Since the one ahead of a pair, settling at its target, takes the
-- avoidance (reciprocal_pairs.c, lead_share): the fanin's median 88.0 ->
-- 79.5 s and 35 pairs (30 layouts: 87.0 -> 78.2 s, RVO2 77.7 s; 31..60:
-- 80.6 s, RVO2 79.6 s); its time bound (84 s) failed before it. Pairs at
-- most 60 (RVO2 213).
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local here = debug.getinfo(1, "S").source:match("^@(.*)/tests/lua/[^/]*$") or "."
local bench = os.getenv("STEER_BENCH") or here .. "/build/bench/steer-bench"

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local LAYOUTS = 7

-- Layout k of scene at dt ("0.0167" is 1/60 s exactly): the metric line's
-- fields (crowd_scen.h), time_s a number or math.huge for never.
local function run(scene, dt, k)
  local cmd = ("%s crowd --scenario %s --dt %s --method orca --jitter %d 2>&1"):format(quote(bench), scene, dt, k)
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  local line = out:match("crowd system=steer[^\n]*")
  assert(line, cmd .. ": no metric line in\n" .. out)
  local r = { line = line }
  for key, v in line:gmatch("(%S+)=(%S+)") do r[key] = v end
  r.time = r.time_s == "never" and math.huge or tonumber(r.time_s)
  return r
end

local function median(xs)
  table.sort(xs)
  return xs[math.floor((#xs + 1) / 2)]
end

-- Layouts 1..LAYOUTS of scene at dt: the median time all through, the runs
-- and the median of the overlapping pairs.
local function layouts(dt, scene)
  local runs, times, pairs = {}, {}, {}
  for k = 1, LAYOUTS do
    runs[k] = run(scene or "doorway", dt, k)
    times[k] = runs[k].time
    pairs[k] = tonumber(runs[k].overlap_pairs)
  end
  return median(times), runs, median(pairs)
end

describe("reciprocal in the benchmark's two-way doorway (100 people, 2 m gap)", function()
  it("swaps them at 60 Hz in about RVO2's time, no pair deeper than 10% of a radius", function()
    local m, runs = layouts("0.0167")
    expect(m, "median over layouts 1..7 of the time until all 100 are through (s)"):le(120)
    for k, r in ipairs(runs) do
      expect(tonumber(r.deepest_r), ("layout %d: deepest overlap (radii); %s"):format(k, r.line)):le(0.1)
      expect(r.walls_crossed, ("layout %d: agents through a wall; %s"):format(k, r.line)):eq("0")
    end
  end)

  -- Lane discipline (reciprocal's lane_share): layouts where the rows behind
  -- pressed each flow's front past its waypoint into the other lane, and the
  -- two fronts stood across the gap as two facing lines. Without the rule
  -- 240.0, 253.4 and 230.7 s (RVO2 never, 95.9 and 129.2 s); with it 100.9,
  -- 82.3 and 116.5 s. The bound is under RVO2's upper quartile over layouts
  -- 1..60 (141.5 s; its median 117.8 s, steer's now 101.3 s).
  it("keeps each flow in its lane at the gap at 60 Hz (layouts that jammed)", function()
    for _, k in ipairs({ 24, 26, 56 }) do
      local r = run("doorway", "0.0167", k)
      expect(r.time, ("layout %d: time until all 100 are through (s); %s"):format(k, r.line)):le(130)
      expect(tonumber(r.deepest_r), ("layout %d: deepest overlap (radii); %s"):format(k, r.line)):le(0.1)
    end
  end)

  it("swaps them at 4 Hz in about RVO2's time, each layout within 400 s", function()
    local m, runs = layouts("0.25")
    expect(m, "median over layouts 1..7 of the time until all 100 are through (s)"):le(255)
    for k, r in ipairs(runs) do
      expect(r.time, ("layout %d: time until all 100 are through (s); %s"):format(k, r.line)):le(400)
      expect(r.walls_crossed, ("layout %d: agents through a wall; %s"):format(k, r.line)):eq("0")
    end
  end)
end)

describe("reciprocal pressing into a gap at 4 Hz, max_overlap at its default", function()
  -- RVO2's medians over the same layouts: the overlapping pairs to match
  -- (at most; the bottleneck's bound lower still), and the time's bound
  for _, c in ipairs({ { "bottleneck", 319, 280, 170 }, { "fanin", 213, 60, 84 } }) do
    local scene, rvo2_pairs, most, time = c[1], c[2], c[3], c[4]
    it(("keeps the %s's pairs as few as RVO2's, none deeper than half a radius"):format(scene), function()
      local m, runs, pairs = layouts("0.25", scene)
      expect(pairs, "median over layouts 1..7 of the pairs that overlapped by over 10% of a radius"):le(rvo2_pairs)
      expect(pairs, "the same, against this scene's bound"):le(most)
      expect(m, "median over layouts 1..7 of the time until all 100 are through (s)"):le(time)
      for k, r in ipairs(runs) do
        expect(tonumber(r.deepest_r), ("layout %d: deepest overlap (radii); %s"):format(k, r.line)):le(0.5)
        expect(r.walls_crossed, ("layout %d: agents through a wall; %s"):format(k, r.line)):eq("0")
      end
    end)
  end
end)

spec.report()
