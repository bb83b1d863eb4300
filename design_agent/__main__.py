"""Allow `python -m design_agent` (the same first step as the console script)."""

from design_agent.launch.entry import main

main()
