-- SPDX-License-Identifier: MIT
-- label.lua — a label drawn across bright lines, one a metre, as a
-- scenario's status line runs over flow arrows or paths: the viewer
-- tests check that the lines do not show through the text.
return {
  world = { dim = 2, size = { 100, 60 }, seed = 5 },
  setup = function(w)
    w:spawn{ position = { 5, 5 }, tag = "one", radius = 1 }
    w:spawn{ position = { 95, 55 }, tag = "two", radius = 1 }
  end,
  draw = function(d)
    for y = 20, 40 do d:line(10, y, 90, y, { 0, 255, 0 }) end
    d:text(30, 30, "a label over the lines", { 255, 255, 255 })
  end,
}
