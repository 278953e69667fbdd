return { world = { size = { 10, 10 } } } -- no agents: the per-call cost alone
