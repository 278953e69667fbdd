-- SPDX-License-Identifier: MIT
-- conf.lua — the window of the LÖVE demo (main.lua): 1280 x 630, the size
-- its two views are laid out for. No audio: the demo plays none, and on a
-- machine without a sound card (CI, Xvfb) OpenAL only prints errors.
function love.conf(t)
  t.identity = "steer-demo"
  t.version = "11.0"
  t.window.title = "steer in LÖVE: a flock and a zombie horde"
  t.window.width = 1280
  t.window.height = 630
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
end
