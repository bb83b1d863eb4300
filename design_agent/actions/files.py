"""Adding a brief to the project by talking or with /upload: "add ~/Docs/brief v2.md".

The path is checked before it is read, so the error names it: a missing file
is NotFoundError, a folder or a file that is not text, markdown or PDF is
UsageError. Surrounding quotes are dropped; spaces inside the path are kept.
`files add` and `ask --file` go through the same memory.add_file, so the same
checks apply: no symbolic link out of its folder, no keys or unknown types,
and a long text is cut and says "truncated" (memory/documents.py).
"""

from __future__ import annotations

from pathlib import Path

from design_agent.actions.base import ActionContext, ActionResult, action
from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory.documents import MAX_TEXT_CHARS
from design_agent.understanding.inputs import AddFile

QUOTES = "\"'“”‘’`"
PREVIEW_CHARS = 200


@action("files", "add", AddFile)
def add(data: AddFile, ctx: ActionContext) -> ActionResult:
    """Store the file's text in the active project as `data.file_type`."""
    project = ctx.require_project()
    if data.evidence:  # transcripts, a survey export: what a file needs is asked here
        from design_agent.actions.evidence import add_evidence

        return add_evidence(data.path, ctx)
    path = file_path(data.path, ctx)
    memory = ctx.services.memory
    try:
        added = memory.add_file(project.id, path, data.file_type)
    except UsageError as e:  # binary, not UTF-8, empty, too big: the reason says which
        raise UsageError(ctx.say("file_refused", path=str(path), reason=e.message)) from e
    info = added.file
    if added.duplicate:
        done = ctx.done("files.add", "file_duplicate", {"file": info.id}, filename=info.filename)
        return ActionResult(done)
    done = ctx.done(
        "files.add",
        "file_added",
        {"file": info.id, "chars": info.chars, "path": str(path)},
        filename=info.filename,
        file_type=ctx.say(f"file_type_{info.file_type}"),
        chars=info.chars,
        cut=ctx.say("file_truncated", limit=MAX_TEXT_CHARS) if added.truncated else "",
        preview=_preview(memory.get_file(info.id).content),
    )
    return ActionResult(done)


def file_path(typed: str, ctx: ActionContext) -> Path:
    """The file the user named; NotFoundError or UsageError naming the path otherwise."""
    path = Path(typed.strip().strip(QUOTES)).expanduser()
    if not path.exists():
        raise NotFoundError(ctx.say("file_missing", path=str(path)))
    if path.is_dir():
        raise UsageError(ctx.say("file_is_folder", path=str(path)))
    return path


def _preview(content: str) -> str:
    first = next((line.strip("# ").strip() for line in content.splitlines() if line.strip()), "")
    return f"\n> {first[:PREVIEW_CHARS]}" if first else ""
