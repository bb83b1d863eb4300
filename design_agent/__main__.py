"""Allow `python -m design_agent`."""

from design_agent.cli import main

main()
