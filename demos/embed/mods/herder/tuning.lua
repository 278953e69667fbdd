return { sheep = 24, sheep_speed = 2.5 }
