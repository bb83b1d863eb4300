"""Everything design-agent writes under its home is private to the user."""

from __future__ import annotations

import os
import stat

from design_agent.core.fsutil import ensure_private_dir, touch_private, write_private_text


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_private_writes_survive_a_permissive_umask(tmp_path):
    old = os.umask(0)
    try:
        folder = ensure_private_dir(tmp_path / "a" / "b")
        write_private_text(folder / "settings.yaml", "x: 1\n")
        touch_private(folder / "history")
    finally:
        os.umask(old)
    assert mode(folder) == 0o700
    assert mode(folder / "settings.yaml") == 0o600
    assert mode(folder / "history") == 0o600


def test_atomic_write_replaces_the_whole_file(tmp_path):
    target = tmp_path / "settings.yaml"
    write_private_text(target, "first\n")
    write_private_text(target, "second\n")
    assert target.read_text() == "second\n"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.yaml"]
