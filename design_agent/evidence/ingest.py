"""`evidence add`: files and folders read, every file parsed before anything is stored, then
all of them stored in one transaction; the first file that cannot be read stops it all
with one line naming it, and nothing is half-stored."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from design_agent.core.errors import EvidenceInputError
from design_agent.core.evidence import AddedEvidence, EvidenceAnswers, Parsed
from design_agent.evidence.formats import EXTENSIONS, ReadOptions, parse_file
from design_agent.evidence.reviews import ColumnMapping, header_key, parse_mapping
from design_agent.memory.facade import Memory


def files_in(paths: Iterable[Path]) -> list[Path]:
    """The files named, and the evidence files inside the folders named (sorted, hidden
    ones skipped); a path that does not exist is an error."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*") if p.is_file() and not _hidden(p, path))
            found += [p for p in inside if p.suffix.lower() in EXTENSIONS]
        elif path.is_file():
            found.append(path)
        else:
            raise EvidenceInputError(f"{path}: no such file or folder")
    if not found:
        raise EvidenceInputError(
            f"no evidence files in {', '.join(str(p) for p in paths)} (evidence takes "
            f"{', '.join(EXTENSIONS)})"
        )
    return list(dict.fromkeys(found))


def _hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def add_evidence(
    memory: Memory,
    project_id: str,
    paths: Sequence[Path],
    moderators: Sequence[str] = (),
    mapping: str | None = None,
    answers: EvidenceAnswers | None = None,
) -> list[AddedEvidence]:
    """Parse every file under `paths`, then store them all (duplicates found, not stored
    twice); a reviews file's `mapping` (text=COLUMN,...) is kept for files like it.
    `answers`: what the person said in conversation about these files so far (a file they
    asked about raises EvidenceNeedsAnswer, before anything is stored)."""
    said = answers or EvidenceAnswers()
    parsed: list[tuple[Parsed, str]] = []
    seen: set[str] = set()
    kept = {k: ColumnMapping.model_validate(v) for k, v in said.mappings.items()}
    for path in files_in(paths):
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest in seen or path.name in said.skipped:
            continue
        seen.add(digest)
        given = _mapping(path, data, mapping) if mapping and path.suffix == ".csv" else None
        file_options = ReadOptions(
            _moderators(path.name, said) or moderators,
            given,
            lambda h: kept.get(header_key(h)) or _known(memory, h),
            list(said.moderator_of.values()),
            path.name in said.notes,
        )
        parsed.append((parse_file(path, data, file_options), digest))
        if given is not None:
            kept[header_key(_header(data))] = given
    added = memory.evidence.add_all(project_id, parsed)
    for key, value in kept.items():
        memory.set_state(key, value.model_dump())
    return added


def _moderators(name: str, said: EvidenceAnswers) -> list[str]:
    """Who moderates the file `name`, as said of it in conversation (none: ["none"])."""
    if name in said.no_moderator:
        return ["none"]
    return [said.moderator_of[name]] if name in said.moderator_of else []


def _header(data: bytes) -> list[str]:
    from design_agent.evidence.surveys import read_rows

    rows = read_rows(data.decode("utf-8-sig", errors="replace"))
    return rows[0] if rows else []


def _mapping(path: Path, data: bytes, text: str) -> ColumnMapping:
    return parse_mapping(text, path.name, _header(data))


def _known(memory: Memory, header: list[str]) -> ColumnMapping | None:
    kept = memory.get_state(header_key(header))
    return ColumnMapping.model_validate(kept) if kept else None
