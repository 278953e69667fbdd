local helper = {}
function helper.goal(t) return { 50 + 30 * math.cos(t / 60), 50 + 30 * math.sin(t / 60) } end
return helper
