"""What design-agent reads from its home must be the user's own, as ssh treats its files.

A home may be a folder other users can write (a shared 1777 folder, a group-writable
team folder). There, anyone could plant a `settings.yaml` naming their program as a
provider, a cache file, a database or a `logs` symlink before we create ours. So
nothing under the home is read, written or followed unless it and every folder
between the home and it are owned by the user (or root) and cannot be written by
group or others. A group-writable entry is still the user's own when its group is
the user's private group with no other members (Debian's ssh accepts it too).

Standard library only, and no pathlib: the `ask` fast path (remote_ask.py) reads
server.json through it.
"""

from __future__ import annotations

import os
import stat
from functools import cache

WRITABLE_BY_OTHERS = 0o022  # the group's or others' write bit


def trusted(path: str | os.PathLike[str], home: str | os.PathLike[str]) -> None:
    """Check that `path` and every folder from `home` down to it are the user's.

    A missing entry ends the check (nothing is there to read yet); a symbolic link must
    be the user's and so must what it points to. A path outside `home` is checked alone.
    Raises UntrustedPathError."""
    target, root = os.fspath(path), os.fspath(home)
    relative = os.path.relpath(target, root)
    if relative == "." or relative.startswith(".." + os.sep) or relative == "..":
        root, relative = os.path.dirname(target), os.path.basename(target)
    current = root
    for part in relative.split(os.sep):
        current = os.path.join(current, part)
        try:
            info = os.lstat(current)
        except OSError:
            return  # missing, or unreadable: opening it fails with its own clear error
        check_entry(current, info)
        if stat.S_ISLNK(info.st_mode):
            try:
                check_entry(current, os.stat(current), through_link=True)
            except FileNotFoundError:
                return


def check_home(home: str | os.PathLike[str]) -> None:
    """Refuse a home folder owned by another user: they could replace anything in it.

    A shared folder that is ours or root's (/tmp, a 1777 team folder) is allowed: the
    sticky bit keeps others from replacing what we made, and `trusted` checks the rest."""
    try:
        info = os.stat(home)
    except OSError:
        return  # missing (made on first write) or unreadable (that write says why)
    if info.st_uid not in _own_uids():
        raise _untrusted(
            home,
            f"is owned by another user (uid {info.st_uid})",
            "use a home of your own (--home PATH or DESIGN_AGENT_HOME)",
        )


def check_entry(
    path: str | os.PathLike[str], info: os.stat_result, *, through_link: bool = False
) -> None:
    """Raise UntrustedPathError unless `info` (of `path`) is the user's and private to them."""
    where = "points to a file that " if through_link else ""
    if info.st_uid not in _own_uids():
        raise _untrusted(
            path,
            f"{where}is owned by another user (uid {info.st_uid})",
            "remove it if you did not put it there, or use a home of your own "
            "(--home PATH or DESIGN_AGENT_HOME)",
        )
    is_link = stat.S_ISLNK(info.st_mode)
    if not is_link and info.st_mode & WRITABLE_BY_OTHERS and not _private_group(info):
        mode = stat.S_IMODE(info.st_mode)
        raise _untrusted(
            path,
            f"{where}can be written by other users (mode {mode:o})",
            f"if it is yours, run: chmod go-w '{os.fspath(path)}'",
        )


def open_trusted(path: str | os.PathLike[str], home: str | os.PathLike[str]) -> bytes:
    """The bytes of `path`, read only if it is the user's (checked on the open file too, so
    a file swapped in between the check and the read is refused as well).

    Raises FileNotFoundError when it does not exist, UntrustedPathError, OSError."""
    trusted(os.path.dirname(os.fspath(path)), home)
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        check_entry(path, os.fstat(fd))
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    finally:
        os.close(fd)


def _untrusted(path: str | os.PathLike[str], problem: str, remedy: str) -> Exception:
    # Imported here: the `ask` fast path reads server.json through this module and must
    # not pay for the error hierarchy's enum unless something is wrong.
    from design_agent.core.errors import UntrustedPathError

    return UntrustedPathError(
        f"{os.fspath(path)} {problem}; design-agent reads nothing in its home that other "
        f"users could have written: {remedy}"
    )


@cache
def _own_uids() -> frozenset[int]:
    """The user, and root (who can change anything anyway)."""
    return frozenset({os.geteuid(), 0})


def _private_group(info: os.stat_result) -> bool:
    """True when the entry's only writers besides its owner are the owner's private group:
    the user's primary group, named as the user, with no other members."""
    if info.st_mode & 0o002:
        return False
    return info.st_gid in _private_groups()


@cache
def _private_groups() -> frozenset[int]:
    try:
        import grp
        import pwd

        user = pwd.getpwuid(os.geteuid())
        group = grp.getgrgid(user.pw_gid)
    except (ImportError, KeyError):
        return frozenset()
    if group.gr_name != user.pw_name or set(group.gr_mem) - {user.pw_name}:
        return frozenset()
    return frozenset({user.pw_gid})
