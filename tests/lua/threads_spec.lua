-- SPDX-License-Identifier: MIT
-- threads_spec.lua — a world's worker threads change how fast it ticks,
-- never what it computes: every demo gives the same w:hash() after N ticks
-- on 1, 2, 3, 4 and 8 threads, also when w.threads changes mid-run or a
-- snapshot is loaded on another count; bad counts raise naming the
-- function, the field and what was expected, at the caller's line.
--
-- The demos' worlds are small (8 to 2000 agents), below the agents per item
-- at which a pass splits by default; meson runs this spec with a small
-- STEER_PAR_GRAIN, so that their passes do run on every worker.
local steer = require "steer"
local spec = require "spec"
local demo = require "demo_run"
local describe, it, expect = spec.describe, spec.it, spec.expect

local N = 240
local COUNTS = { 2, 3, 4, 8 }

describe("threads", function()
  it("run with passes split into small items (STEER_PAR_GRAIN from meson)", function()
    local grain = tonumber(os.getenv("STEER_PAR_GRAIN") or "")
    expect(grain, "STEER_PAR_GRAIN"):type("number")
    expect(grain, "agents per item: a world of a few agents must split"):le(2)
  end)

  for _, name in ipairs(demo.names) do
    it(name .. ": the same hash after N ticks on 1, 2, 3, 4 and 8 threads, and when w.threads changes mid-run",
      function()
        local one = demo.run(name, N, { threads = 1 })
        expect(one.threads, "w.threads"):eq(1)
        local want = one:hash()
        for _, n in ipairs(COUNTS) do
          local w = demo.run(name, N, { threads = n })
          expect(w.threads, "w.threads"):eq(n)
          expect(w:hash(), name .. " on " .. n .. " threads vs 1"):eq(want)
        end
        -- between ticks, from the loop and from a think (w:step's own
        -- callbacks run between the passes too)
        local w, sc = demo.start(name, { threads = 1 })
        demo.advance(w, sc, math.floor(N / 4))
        w.threads = 4
        demo.advance(w, sc, math.floor(N / 4))
        w:spawn{ think = function(a)
          a.world.threads = 3
          a:remove()
        end }
        demo.advance(w, sc, math.floor(N / 4))
        expect(w.threads, "set by the think"):eq(3)
        w.threads = 8
        demo.advance(w, sc, N - 3 * math.floor(N / 4))
        expect(w.tick, "ticks"):eq(one.tick)
        -- the think's agent lived one tick: compare with a run that had it too
        local ref, rsc = demo.start(name, { threads = 1 })
        demo.advance(ref, rsc, math.floor(N / 2))
        ref:spawn{ think = function(a) a:remove() end }
        demo.advance(ref, rsc, N - math.floor(N / 2))
        expect(w:hash(), name .. " with w.threads changed 1 -> 4 -> 3 -> 8"):eq(ref:hash())
      end)
  end

  it("steer.load(s, { threads = n }) gives the same trajectory; w:restore keeps the world's count", function()
    local w, sc = demo.start("flock", { threads = 2 })
    demo.advance(w, sc, 60)
    local s = w:save()
    local want = demo.advance(w, sc, 60):hash()
    for _, n in ipairs { 1, 3, 8 } do
      local loaded = steer.load(s, { threads = n })
      expect(loaded.threads, "the loaded world's threads"):eq(n)
      expect(demo.advance(loaded, sc, 60):hash(), "loaded on " .. n .. " threads"):eq(want)
    end
    -- the count is the host's, not the snapshot's: a plain load takes the default
    expect(steer.load(s).threads, "a load without threads"):eq(steer.world{}.threads)
    local other = steer.world{ threads = 3 }
    other:restore(s)
    expect(other.threads, "threads after w:restore"):eq(3)
    expect(demo.advance(other, sc, 60):hash(), "restored on 3 threads"):eq(want)
  end)

  it("default to 1 unless STEER_THREADS says otherwise", function()
    local env = os.getenv("STEER_THREADS")
    if not env then expect(steer.world{}.threads, "steer.world{}.threads"):eq(1) end
    expect(steer.world{ threads = 64 }.threads, "the most"):eq(64)
  end)

  it("refuse a bad count naming the function, the field and what is expected, at the caller's line", function()
    local expected = "expected an integer from 1 to 64 (worker threads)"
    expect(function() steer.world{ threads = 0 } end):raises_here("steer.world", "field 'threads'", expected, "0")
    expect(function() steer.world{ threads = 65 } end):raises_here("steer.world", "'threads'", expected, "65")
    expect(function() steer.world{ threads = -1 } end):raises_here("steer.world", "'threads'", expected, "-1")
    expect(function() steer.world{ threads = 2.5 } end):raises_here("steer.world", "'threads'", expected, "2.5")
    expect(function() steer.world{ threads = "4" } end):raises_here("steer.world", "'threads'", expected, '"4"')
    expect(function() steer.world{ threads = true } end):raises_here("steer.world", "'threads'", expected, "true")
    local w = steer.world{ threads = 2 }
    expect(function() w.threads = 0 end):raises_here("steer.world", "field 'threads'", expected, "0")
    expect(function() w.threads = nil end):raises_here("steer.world", "field 'threads'", expected, "nil")
    expect(function() w.threads = 1e9 end):raises_here("steer.world", "field 'threads'", expected, "1000000000")
    expect(w.threads, "unchanged by the failed writes"):eq(2)
    local s = w:save()
    expect(function() steer.load(s, { threads = 0 }) end):raises_here("steer.load", "'threads'", expected, "0")
    expect(function() steer.load(s, { thread = 2 }) end):raises_here("steer.load", "unknown field 'thread'")
    expect(function() w:restore(s, { threads = 4 }) end)
      :raises_here("steer.world:restore", "field 'threads'", "keeps the world's thread count")
    expect(function() w:save{ threads = 4 } end):raises_here("steer.world:save", "unknown field 'threads'")
    expect(w.threads, "unchanged"):eq(2)
  end)

  it("may not be set from inside the steer pass (a custom behaviour)", function()
    local w = steer.world{ threads = 2 }
    w:spawn{ brain = steer.custom(function(a)
      a.world.threads = 4
      return 0, 0
    end) }
    expect(function() w:step() end)
      :raises_here("steer.world:step", "steer.custom function", "not allowed during the steer pass")
    expect(w.threads, "unchanged"):eq(2)
  end)
end)
