"""A user extends the catalogue in their home and `design-agent check` keeps them honest."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

GUIDE = "# Pricing page review\n\n## When to use\nWhen the pricing page changes.\n"

TASK = """\
tasks:
  - id: pricing_page_review
    name: {en: Pricing page review, es: Revisión de página de precios}
    description: Review a pricing page for clarity and plan comparison.
    expected_output: [Findings by severity, Recommendations]
    keywords:
      en: [pricing page, plan comparison]
      es: [página de precios, comparación de planes]
    guides: [pricing_page_review.md]
    agent: content_specialist
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_bundled_catalogue_passes_check(run_cli):
    result = run_cli("check")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok: ")


def test_adding_a_task_is_one_yaml_entry_and_one_guide(run_cli, home):
    write(home / "config" / "tasks.yaml", TASK)
    write(home / "knowledge" / "guides" / "pricing_page_review.md", GUIDE)
    assert run_cli("check").exit_code == 0
    shown = json.loads(run_cli("tasks", "show", "pricing_page_review", "--json").output)
    assert shown["agent"] == "content_specialist"
    listed = json.loads(run_cli("tasks", "list", "--agent", "content_specialist", "--json").output)
    assert "pricing_page_review" in [t["id"] for t in listed]


def test_overlay_task_with_a_bundled_id_replaces_it(run_cli, home):
    write(
        home / "config" / "tasks.yaml", TASK.replace("pricing_page_review\n", "journey_mapping\n")
    )
    write(home / "knowledge" / "guides" / "pricing_page_review.md", GUIDE)
    assert run_cli("check").exit_code == 0
    shown = json.loads(run_cli("tasks", "show", "journey_mapping", "--json").output)
    assert shown["name"]["en"] == "Pricing page review"


def check_problems(run_cli) -> list[str]:
    result = run_cli("check")
    assert result.exit_code == 3, result.output
    return [
        line for line in result.stderr.splitlines() if ": " in line and "problem(s)" not in line
    ]


def test_duplicate_id_and_missing_guide_are_both_reported(run_cli, home):
    second = TASK.replace("tasks:\n", "").replace("agent: content_specialist", "agent: nobody")
    path = write(home / "config" / "tasks.yaml", TASK + second)
    problems = check_problems(run_cli)
    assert any(p.startswith(f"{path}:11:") and "is used twice in this file" in p for p in problems)
    assert any(
        p.startswith(f"{path}:9:") and "guide 'pricing_page_review.md' does not exist" in p
        for p in problems
    )


def test_unknown_agent_points_at_its_line(run_cli, home):
    write(home / "knowledge" / "guides" / "pricing_page_review.md", GUIDE)
    path = write(home / "config" / "tasks.yaml", TASK.replace("content_specialist", "nobody"))
    assert any(
        p.startswith(f"{path}:10:") and "agent 'nobody' does not exist" in p
        for p in check_problems(run_cli)
    )


def test_extra_field_points_at_its_own_line(run_cli, home):
    write(home / "knowledge" / "guides" / "pricing_page_review.md", GUIDE)
    path = write(home / "config" / "tasks.yaml", TASK + "    colour: blue\n")
    assert any(
        p.startswith(f"{path}:11:") and "colour" in p and "unknown field" in p
        for p in check_problems(run_cli)
    )


def test_broken_yaml_gives_path_and_line_not_a_traceback(run_cli, home):
    path = write(home / "config" / "agents.yaml", "agents:\n  - id: x\n    role: [en\n")
    problems = check_problems(run_cli)
    assert any(p.startswith(f"{path}:4:") and "invalid YAML" in p for p in problems)


def test_an_unreadable_overlay_file_is_left_out_and_the_rest_works(run_cli, home):
    write(home / "config" / "tasks.yaml", "tasks: not-a-list\n")
    result = run_cli("tasks", "list")  # the old name of `methods`
    assert result.exit_code == 0
    assert "journey_mapping" in result.stdout
    (warning,) = result.stderr.splitlines()
    assert warning.startswith("Warning: ") and "tasks.yaml:1" in warning
    assert run_cli("check").exit_code == 3


def test_check_json_reports_counts(run_cli):
    report = json.loads(run_cli("check", "--json").output)
    assert report["ok"] is True
    assert set(report["counts"]) == {"agents", "tasks", "guides", "materials", "adapters"}


def test_unknown_agent_or_task_is_not_found(run_cli):
    for args in (["agents", "show", "nobody"], ["tasks", "show", "nothing"]):
        result = run_cli(*args)
        assert result.exit_code == 6
        assert "list" in result.stderr  # says how to see the valid ids


def test_a_methods_review_is_checked_naming_the_file_task_and_value(run_cli, home):
    write(home / "knowledge" / "guides" / "pricing_page_review.md", GUIDE)
    review = "    review:\n      recompute: [rise]\n      sample_size: {min: 8, max: 5}\n"
    path = write(home / "config" / "tasks.yaml", TASK + review)
    problems = check_problems(run_cli)
    table = next(p for p in problems if "review.recompute" in p)
    assert table.startswith(f"{path}:") and "pricing_page_review" in table and "'rise'" in table
    assert "\n" not in table and "rice, ice, sus, kano, nps, revenue or ab_sample" in table
    size = next(p for p in problems if "review.sample_size" in p)
    assert "max 5 is below min 8" in size


def test_a_method_naming_an_unknown_input_is_told_the_close_one_in_one_line(run_cli, home):
    write(home / "knowledge" / "guides" / "pricing_page_review.md", GUIDE)
    task = TASK.replace(
        "    agent: content_specialist\n",
        "    agent: content_specialist\n    inputs: [screen_or_flwo]\n",
    )
    path = write(home / "config" / "tasks.yaml", task)
    problems = check_problems(run_cli)
    said = [p for p in problems if "screen_or_flwo" in p]
    assert len(said) == 1, problems
    assert said[0].startswith(f"{path}:11:")
    assert "input 'screen_or_flwo' is not defined in config/inputs.yaml" in said[0]
    assert said[0].endswith("did you mean screen_or_flow?")
