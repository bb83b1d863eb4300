"""A mistake in the team's own catalogue files never stops design-agent.

One broken entry in `<home>/config/tasks.yaml` (a name given as plain text), a file that
is not YAML at all, a persona of the team's with a field missing: each is left out with
one warning line naming its file and line, in the shell's banner and on `ask`'s stderr;
every other method, bundled or the team's, answers as before, and `check` still exits 3
with every problem. Real processes, a real home, the built-in offline provider.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

AGENT = [sys.executable, "-m", "design_agent"]
GOOD = """\
  - id: pricing_page_review
    name: {en: Pricing page review, es: Revisión de página de precios}
    description: Review a pricing page for clarity and plan comparison.
    expected_output: [Findings by severity, Recommendations]
    keywords: {en: [pricing page review], es: [revisión de página de precios]}
    guides: [pricing_page_review.md]
    agent: content_specialist
"""
BROKEN = """\
  - id: onboarding_audit
    name: Onboarding audit
    description: Audit the first week of a new account.
    expected_output: [Findings]
    keywords: {en: [onboarding audit]}
    guides: [pricing_page_review.md]
    agent: onboarding_specialist
"""
GUIDE = "# Pricing page review\n\nWe review pricing pages.\n\n## Procedure\n1. List plans.\n"


def run(home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "DESIGN_AGENT_HOME": str(home), "DESIGN_AGENT_PROVIDER": "offline"}
    return subprocess.run(
        [*AGENT, *args], input=stdin, capture_output=True, text=True, env=environ, timeout=60
    )


def team_home(home: Path, tasks: str, agents: str | None = None) -> Path:
    home.mkdir(mode=0o700, parents=True, exist_ok=True)  # a private home: no warning of its own
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "knowledge" / "guides").mkdir(parents=True, exist_ok=True)
    (home / "knowledge" / "guides" / "pricing_page_review.md").write_text(GUIDE)
    if agents is not None:
        (home / "config" / "agents.yaml").write_text(textwrap.dedent(agents))
    path = home / "config" / "tasks.yaml"
    path.write_text(tasks)
    return path


def warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("Warning: ")]


def test_one_broken_entry_is_left_out_and_everything_else_answers(home):
    path = team_home(home, "tasks:\n" + GOOD + BROKEN)
    bundled = run(home, "ask", "--no-server", "plan a usability test for the checkout")
    assert bundled.returncode == 0, bundled.stderr
    (warning,) = warnings(bundled.stderr)  # one line, naming the file and the line
    assert warning.startswith("Warning: your method 'onboarding_audit' is left out, the rest ")
    assert f"{path}:10: name: give the name in each language, e.g. name: {{en: " in warning
    assert "── Usability test plan" in bundled.stdout
    ours = run(home, "ask", "--no-server", "a pricing page review for our app")
    assert ours.returncode == 0 and "── Pricing page review" in ours.stdout
    listed = run(home, "methods", "list", "--json")
    ids = {m["id"]: m["team"] for m in json.loads(listed.stdout)}
    assert ids["pricing_page_review"] is True and ids["usability_test_plan"] is False
    assert "onboarding_audit" not in ids and len(warnings(listed.stderr)) == 1
    check = run(home, "check")
    assert check.returncode == 3 and f"{path}:10: task 'onboarding_audit': name:" in check.stderr


def test_the_shell_says_it_once_in_its_banner(home):
    team_home(home, "tasks:\n" + BROKEN)
    shell = run(home, stdin="plan a usability test\nexit\n")
    assert shell.returncode == 0, shell.stderr
    banner = shell.stdout.split("Type your request")[0]
    assert banner.count("Warning: your method 'onboarding_audit' is left out") == 1
    assert shell.stdout.count("is left out") == 1 and "is left out" not in shell.stderr
    assert "── Usability test plan" in shell.stdout


def test_a_file_that_is_not_yaml_is_left_out_whole(home):
    path = team_home(home, "tasks:\n  - id: x\n    expected_output: [a, b\n")
    result = run(home, "ask", "--no-server", "plan a usability test")
    assert result.returncode == 0, result.stderr
    (warning,) = warnings(result.stderr)
    assert warning.startswith(f"Warning: {path} is left out, the rest works: {path}:")
    assert "a list [ ... ] that is never closed; end it with ]" in warning


def test_a_broken_persona_takes_its_methods_out_with_it(home):
    persona = """\
    agents:
      - id: pricing_specialist
        role: {en: Pricing specialist, es: Especialista en precios}
        backstory: Ten years pricing SaaS.
        capabilities: [pricing pages]
        operating_procedures: [Start from the plan people choose most]
    """
    path = team_home(home, "tasks:\n" + GOOD.replace("content_specialist", "pricing_specialist"))
    agents = home / "config" / "agents.yaml"
    agents.write_text(textwrap.dedent(persona))
    result = run(home, "ask", "--no-server", "plan a usability test")
    assert result.returncode == 0, result.stderr
    said = warnings(result.stderr)
    assert len(said) == 2
    assert said[0].startswith("Warning: your persona 'pricing_specialist' is left out")
    assert f"{agents}:2: goal is missing; add goal: " in said[0]
    assert said[1].startswith("Warning: your method 'pricing_page_review' is left out")
    assert f"{path}:8: its agent 'pricing_specialist' is left out because of its own" in said[1]
