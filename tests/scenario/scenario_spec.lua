-- SPDX-License-Identifier: MIT
-- scenario_spec.lua — whole scenarios through the `steer` program: a run
-- of N headless ticks ends with a summary line carrying the world hash; the
-- same scenario and seed must give the same hash on every run (a new
-- process, a fresh heap), another seed another hash, and a failing script
-- must exit 1 naming FILE:LINE. Meson passes the program and this folder in
-- STEER_EXE and STEER_SCENARIO_DIR.
local steer = require "steer"
local spec = require "spec"
local describe, it, expect = spec.describe, spec.it, spec.expect

local exe = os.getenv("STEER_EXE")
local dir = os.getenv("STEER_SCENARIO_DIR")

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- Run `steer run --headless ARGS` (with the environment assignments ENV,
-- if given); returns its output (stdout and stderr) and exit code.
local function steer_run(args, env)
  local p = assert(io.popen((env and env .. " " or "") .. quote(exe) .. " run --headless " .. args .. " 2>&1"))
  local out = p:read("*a")
  local _, _, code = p:close()
  return out, code
end

local function hash_of(out)
  return out:match("hash (%x+)")
end

describe("scenarios", function()
  it("have the program and the folder", function()
    expect(exe, "STEER_EXE"):type("string")
    expect(dir, "STEER_SCENARIO_DIR"):type("string")
  end)

  local flock = dir and quote(dir .. "/flock.lua")

  it("flock.lua runs 600 ticks with its invariants holding", function()
    local out, code = steer_run("--ticks 600 " .. flock)
    expect(code, "exit status; output: " .. out):eq(0)
    expect(out, "summary"):contains("ran 600 ticks", "200 agents")
    expect(hash_of(out), "hash in " .. spec.show(out)):type("string")
  end)

  it("flock.lua gives the same hash on every run with the same seed", function()
    local h1 = hash_of((steer_run("--ticks 300 --seed 11 " .. flock)))
    local h2 = hash_of((steer_run("--ticks 300 --seed 11 " .. flock)))
    expect(h1, "first run"):type("string")
    expect(h2, "second run"):eq(h1)
  end)

  -- Each process seeds Lua's string hashing anew, so a demo that lets the
  -- order of pairs() decide what it spawns or updates first would give
  -- another trajectory on another run: four runs of every demo must agree.
  it("every demo gives the same hash in four runs", function()
    local demos = dir .. "/../../demos/"
    for _, name in ipairs { "flock", "arrive", "pursuit", "patrol", "crowd", "gallery", "zombie_horde",
                            "directed_seek", "dogfighter" } do
      local first
      for run = 1, 4 do
        local out = steer_run("--ticks 120 " .. quote(demos .. name .. ".lua"))
        local h = hash_of(out)
        expect(h, name .. " run " .. run .. ": " .. out):type("string")
        if run == 1 then first = h else expect(h, name .. " run " .. run .. " vs run 1"):eq(first) end
      end
    end
  end)

  -- `show` in the scenario: the viewer's toggles it starts with (as
  -- --show). One file name for every variant, so the HUD's title is the same.
  it("a scenario's show starts the viewer with those toggles; a wrong one is named and ignored", function()
    local function shot(show)
      local f = assert(io.open("show.lua", "w"))
      f:write(("return { %s world = { size = { 20, 20 }, seed = 1 },\n"):format(show and ("show = %q,"):format(show) or ""),
              "  setup = function(w) w:spawn{ position = { 10, 10 }, velocity = { 1, 0 } } end }\n")
      f:close()
      local out, code = steer_run("--ticks 5 --screenshot show.png show.lua")
      expect(code, out):eq(0)
      local png = io.open("show.png", "rb")
      if not png then return nil, out end
      local bytes = png:read("*a")
      png:close()
      os.remove("show.png")
      return bytes, out
    end
    local plain, out = shot(nil)
    os.remove("show.lua")
    if not plain then
      expect(out, "no viewer in this build"):contains("screenshot")
      return
    end
    expect(shot(nil) == plain, "the same scenario twice, the same picture"):eq(true)
    expect(shot("help") ~= plain, "the help overlay changes the picture"):eq(true)
    local same, warned = shot("grid,helps")
    expect(warned, "the warning"):contains("show.lua", "the scenario's show", "'helps'")
    expect(same == plain, "a wrong show is ignored"):eq(true)
    os.remove("show.lua")
  end)

  it("flock.lua gives another hash with another seed", function()
    local h1 = hash_of((steer_run("--ticks 300 --seed 11 " .. flock)))
    local h2 = hash_of((steer_run("--ticks 300 --seed 12 " .. flock)))
    expect(h2, "seed 12 vs seed 11"):ne(h1)
  end)

  it("a failing update exits 1 and names FILE:LINE", function()
    local out, code = steer_run("--ticks 100 " .. quote(dir .. "/broken.lua"))
    expect(code, "exit status; output: " .. out):eq(1)
    expect(out, "message"):contains("broken.lua:7:", "deliberate failure at tick 5")
  end)
  -- Rewind and snapshots through the program: N ticks, back to T through
  -- the viewer's ring, on to N again; and N ticks, --save, then a fresh
  -- process with --load and M ticks: both give the uninterrupted hash.
  local function rewind_cases()
    local demos = dir .. "/../../demos/"
    local files = { flock, quote(dir .. "/../view/wander.lua") }
    for _, name in ipairs { "flock", "crowd", "directed_seek" } do -- the demos whose state is all in the world
      files[#files + 1] = quote(demos .. name .. ".lua")
    end
    return files
  end

  it("--rewind-to: rewound through the ring and run on, the hash is the uninterrupted one", function()
    for _, file in ipairs(rewind_cases()) do
      local plain = hash_of((steer_run("--ticks 240 " .. file)))
      local out, code = steer_run("--ticks 240 --rewind-to 1.5 " .. file)
      if out:find("built without the viewer", 1, true) then return end
      expect(code, "exit status for " .. file .. "; output: " .. out):eq(0)
      expect(out, file):contains("rewound to tick 90 (1.50 s)", "the same")
      expect(out:match("hash (%x+), uninterrupted"), file):eq(plain)
    end
  end)

  -- Every demo that keeps script state of its own (arrive: its round and a
  -- steer.random stream, in save/load; pursuit: its stream in the prey's
  -- a.data; gallery: the agents its updates move, by id; patrol: its
  -- tallies and intruder; zombie_horde: the field and player, found again
  -- in the zombies' a.data; directed_seek: its fliers, which are the
  -- agents' a.data; dogfighter: the fighters' trees, by name), over a run
  -- long enough for new rounds, catches and waypoints after the point
  -- rewound to or loaded at (zombie_horde's 2000 agents run shorter).
  it("every demo with state of its own: rewound, and saved then loaded in a fresh process, it runs on as uninterrupted",
     function()
    local demos = dir .. "/../../demos/"
    local snap = os.tmpname()
    for _, case in ipairs { { "arrive", 900 }, { "pursuit", 900 }, { "gallery", 900 }, { "patrol", 900 },
                            { "directed_seek", 900 }, { "dogfighter", 600 }, { "zombie_horde", 300 } } do
      local name, n = case[1], case[2]
      local file = quote(demos .. name .. ".lua")
      local plain = hash_of((steer_run("--ticks " .. n .. " " .. file)))
      local out, code = steer_run("--ticks " .. n .. " --rewind-to 2 " .. file)
      if out:find("built without the viewer", 1, true) then return end
      expect(code, name .. ": " .. out):eq(0)
      expect(out:match("hash (%x+), uninterrupted"), name .. " rewound"):eq(plain)
      out, code = steer_run("--ticks " .. math.floor(n / 2) .. " --save " .. quote(snap) .. " " .. file)
      expect(code, name .. " save: " .. out):eq(0)
      out, code = steer_run("--ticks " .. n - math.floor(n / 2) .. " --load " .. quote(snap) .. " " .. file)
      expect(code, name .. " load: " .. out):eq(0)
      expect(hash_of(out), name .. " loaded and run on"):eq(plain)
    end
    os.remove(snap)
  end)

  -- demos/building.lua keeps handles to its mesh's obstacles (the crate,
  -- the shut doors) in its locals: after a restore its nm is the world's
  -- mesh again and it finds them by id (load). Rewound to 12 s (a door
  -- shut, the crate on its way back west) and saved at 7.5 s (two doors
  -- shut) then loaded in a fresh process, it runs on as uninterrupted.
  it("demos/building.lua: rewound with doors shut, and saved then loaded, it runs on as uninterrupted", function()
    local file = quote(dir .. "/../../demos/building.lua")
    local snap = os.tmpname()
    local plain = hash_of((steer_run("--ticks 900 " .. file)))
    local out, code = steer_run("--ticks 900 --rewind-to 12 " .. file)
    if out:find("built without the viewer", 1, true) then return end
    expect(code, out):eq(0)
    expect(out:match("hash (%x+), uninterrupted"), "rewound to 12 s"):eq(plain)
    out, code = steer_run("--ticks 450 --save " .. quote(snap) .. " " .. file)
    expect(code, "save: " .. out):eq(0)
    out, code = steer_run("--ticks 450 --load " .. quote(snap) .. " " .. file)
    expect(code, "load: " .. out):eq(0)
    expect(hash_of(out), "saved at 7.5 s, loaded and run on"):eq(plain)
    os.remove(snap)
  end)


  -- update moves its flow field's goal (issue 29, item 6): after the
  -- rewind its agents' brains are its own trees again, steered by its own
  -- field, and the run ends as the uninterrupted one.
  it("--rewind-to with demos/embed's horde mod: the hash is the uninterrupted one", function()
    local pasture = quote(dir .. "/pasture.lua") .. " --mod " .. quote(dir .. "/../../demos/embed/mods/horde.lua")
    local plain = hash_of((steer_run("--ticks 600 " .. pasture)))
    for _, t in ipairs { 1, 5, 8.5 } do
      local out, code = steer_run("--ticks 600 --rewind-to " .. t .. " " .. pasture)
      if out:find("built without the viewer", 1, true) then return end
      expect(code, "rewound to " .. t .. ": " .. out):eq(0)
      expect(out, "rewound to " .. t):contains("the same")
      expect(out:match("hash (%x+), uninterrupted"), "rewound to " .. t):eq(plain)
    end
  end)

  it("--rewind-to needs --headless --ticks and a time within the run", function()
    local out, code = steer_run("--rewind-to 1 " .. flock)
    expect(code, out):eq(2)
    expect(out):contains("--rewind-to goes with --headless --ticks N")
    out, code = steer_run("--ticks 10 --rewind-to 5 " .. flock)
    expect(code, out):eq(1)
    expect(out):contains("past the run's end")
  end)

  it("--save then --load in a fresh process: the hash of the uninterrupted run", function()
    local snap = os.tmpname()
    for _, file in ipairs(rewind_cases()) do
      local plain = hash_of((steer_run("--ticks 240 " .. file)))
      local out, code = steer_run("--ticks 120 --save " .. quote(snap) .. " " .. file)
      expect(code, "save " .. file .. ": " .. out):eq(0)
      expect(out):contains("saved " .. snap)
      out, code = steer_run("--ticks 120 --load " .. quote(snap) .. " " .. file)
      expect(code, "load " .. file .. ": " .. out):eq(0)
      expect(hash_of(out), "loaded and run on: " .. file):eq(plain)
    end
    local f = assert(io.open(snap, "wb"))
    f:write("STEERENG\1\0\0\0garbage")
    f:close()
    local out, code = steer_run("--ticks 1 --load " .. quote(snap) .. " " .. flock)
    expect(code, out):eq(1)
    expect(out):contains("engine snapshot")
    out, code = steer_run("--ticks 1 --load /nonexistent/snap " .. flock)
    expect(code, out):eq(1)
    expect(out):contains("cannot read /nonexistent/snap")
    os.remove(snap)
  end)

  -- A corrupt mod data section (issue 29, item 7) is refused with the whole
  -- snapshot before anything runs: exit 1, the section named, no mod blamed.
  it("--load refuses a snapshot whose mod data is corrupt, naming the section", function()
    local snap, mod = os.tmpname(), os.tmpname() .. "_keeper.lua"
    local m = assert(io.open(mod, "w"))
    m:write("local n = 0\nreturn { update = function() n = n + 1 end, save = function() return { n = n } end,\n" ..
            "  load = function(d) n = d.n end }\n")
    m:close()
    local name = mod:match("([^/]+)%.lua$")
    local out, code = steer_run("--ticks 10 --mod " .. quote(mod) .. " --save " .. quote(snap) .. " " .. flock)
    expect(code, out):eq(0)
    local f = assert(io.open(snap, "rb"))
    local bytes = f:read("a")
    f:close()
    local at, count = 17, string.unpack("<I4", bytes, 13)
    local found
    for _ = 1, count do
      local kind, nl = bytes:byte(at, at + 1)
      local len = string.unpack("<I8", bytes, at + 2 + nl)
      if kind == 3 and bytes:sub(at + 2, at + 1 + nl) == name then found = at + 2 + nl + 8 end
      at = at + 2 + nl + 8 + len
    end
    expect(found, "the mod's data section"):type("number")
    bytes = bytes:sub(1, found - 1) .. "\7" .. bytes:sub(found + 1) -- a value of no known tag
    f = assert(io.open(snap, "wb"))
    f:write(bytes)
    f:close()
    out, code = steer_run("--ticks 10 --mod " .. quote(mod) .. " --load " .. quote(snap) .. " " .. flock)
    os.remove(snap)
    os.remove(mod)
    expect(code, out):eq(1)
    expect(out):contains("mod " .. name .. "'s data", "corrupt mod data")
    expect(out:find("save()", 1, true), "no mod's save() is blamed: " .. out):eq(nil)
    expect(out:find("disabled", 1, true), "no mod is disabled: " .. out):eq(nil)
  end)

  -- --threads N: the demos' worlds are small, so each run splits their
  -- passes into items of one agent (STEER_PAR_GRAIN) for the workers to run.
  it("--threads N: every demo prints the hash of --threads 1", function()
    local demos = dir .. "/../../demos/"
    for _, name in ipairs(require("demo_run").names) do
      local file = quote(demos .. name .. ".lua")
      local one = hash_of((steer_run("--ticks 120 --threads 1 " .. file, "STEER_PAR_GRAIN=1")))
      expect(one, name .. " on one thread"):type("string")
      for _, n in ipairs { 2, 4 } do
        local out, code = steer_run("--ticks 120 --threads " .. n .. " " .. file, "STEER_PAR_GRAIN=1")
        expect(code, name .. ": " .. out):eq(0)
        expect(hash_of(out), name .. " --threads " .. n .. " vs --threads 1"):eq(one)
      end
      expect(hash_of((steer_run("--ticks 120 " .. file))), name .. " without --threads"):eq(one)
    end
  end)

  it("--threads N sets the scenario's world (over its own threads), the worlds it makes, and a loaded run's", function()
    local f = assert(io.open("threads.lua", "w"))
    f:write([[
local steer = require "steer"
return { world = { threads = 2 }, setup = function(w) w:spawn{ velocity = { 1, 0 } } end,
  update = function(w)
    if w.tick == 3 then
      print(("THREADS %d OTHER %d LOADED %d"):format(w.threads, steer.world{}.threads, steer.load(w:save()).threads))
    end
  end }
]])
    f:close()
    local default = steer.world{}.threads -- 1, or STEER_THREADS: the child has this environment
    local out, code = steer_run("--ticks 5 threads.lua")
    expect(code, out):eq(0)
    expect(out, "its own threads"):contains(("THREADS 2 OTHER %d LOADED %d"):format(default, default))
    out = steer_run("--ticks 5 --threads 5 threads.lua")
    expect(out, "--threads 5"):contains("THREADS 5 OTHER 5 LOADED 5")
    local snap = os.tmpname()
    out, code = steer_run("--ticks 2 --threads 7 --save " .. quote(snap) .. " threads.lua")
    expect(code, out):eq(0)
    out, code = steer_run("--ticks 2 --threads 3 --load " .. quote(snap) .. " threads.lua")
    expect(code, out):eq(0)
    expect(out, "loaded with --threads 3"):contains("THREADS 3 OTHER 3 LOADED 3")
    os.remove(snap)
    os.remove("threads.lua")
  end)

  it("--threads takes 1 to 64, shows in --help, and a mod may not change w.threads", function()
    for _, bad in ipairs { "0", "65", "-2", "two", "1.5" } do
      local out, code = steer_run("--threads " .. bad .. " " .. flock)
      expect(code, bad .. ": " .. out):eq(2)
      expect(out, bad):contains("--threads expects an integer from 1 to 64 (worker threads), got '" .. bad .. "'")
    end
    local out, code = steer_run("--threads")
    expect(code, out):eq(2)
    expect(out):contains("--threads needs a value")
    local p = assert(io.popen(quote(exe) .. " --help"))
    local help = p:read("*a")
    p:close()
    expect(help, "--help"):contains("--threads N", "worker threads for the tick")
    local m = assert(io.open("threads_mod.lua", "w"))
    m:write("return { setup = function(w) w.threads = 2 end }\n")
    m:close()
    out, code = steer_run("--ticks 1 --mod threads_mod.lua " .. flock)
    os.remove("threads_mod.lua")
    expect(code, out):eq(0)
    expect(out, "the mod's failure"):contains("w.threads: not available to mods")
  end)
end)
