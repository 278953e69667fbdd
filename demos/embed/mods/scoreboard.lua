-- Mod "scoreboard": counts what happens and prints a line now and then.
-- It sees the world only through the sandbox and the herder only through
-- the messages it copies.
local reports, collisions = 0, 0
return {
  on_event = function(name)
    if name == "collide" then collisions = collisions + 1 end
  end,
  on_message = function(from, data)
    reports = reports + 1
    if reports % 5 == 0 then
      print(string.format("report %d from %s: %d sheep, spread %.1f m around (%.0f, %.0f)",
                          reports, from, data.sheep, data.spread, data.centre[1], data.centre[2]))
    end
  end,
}
