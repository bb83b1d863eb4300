"""A private on-disk cache for things built from the catalogue files.

Parsing ~3,000 lines of YAML and indexing 88 tasks for matching costs about
200 ms per process; `ask` and the shell pay it at every start. The result is
pickled under `<home>/cache/`, keyed by a signature of every source file's
path, size and mtime and of design-agent's version, so any edit rebuilds it.
The cache is only an optimisation: any problem reading or writing it just
means building again.

DESIGN_AGENT_CACHE_DIR points several homes at one cache folder (the test
suite does, so that hundreds of fresh homes and the processes spawned on them
build the catalogue once): entries are keyed by their sources' paths, so homes
with different catalogue files never share an entry, and none is pruned there.

Within one process an entry is unpickled once and then reused while its file is
unchanged: a server builds a fresh set of services for every turn, and the test
suite a fresh home for every test, each reading the same entry again (~0.1 s a
time). Values in the cache are therefore shared and must be treated as read-only.

A pickle runs code when it is loaded, and a home may be a folder other users can
write. So the folder must be the user's own (design_agent.core.home_trust), and every
entry carries an HMAC-SHA256 of its bytes under a secret key kept in the folder
(`key`, 0600, made on first use): a file nobody holding the key wrote is never
unpickled, only deleted and built again (~1 ms per MB to check).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TypeVar

from design_agent import __version__
from design_agent.core.errors import DesignAgentError
from design_agent.core.fsutil import FILE_MODE, ensure_private_dir, write_private_bytes
from design_agent.core.home_trust import check_entry, open_trusted, trusted
from design_agent.core.paths import HomeLayout

T = TypeVar("T")
CACHE_ENV = "DESIGN_AGENT_CACHE_DIR"
# Entries kept unpickled in this process (a catalogue and its matcher per set of sources).
LOADED_LIMIT = 8
KEY_FILE = "key"
KEY_BYTES = 32
MAC_BYTES = 32  # HMAC-SHA256, at the start of every entry

_MISSING = object()
# path -> (the file's identity when it was read, the value it held)
_loaded: OrderedDict[Path, tuple[tuple[int, int, int], object]] = OrderedDict()
_loaded_lock = threading.Lock()


def signature(paths: Iterable[Path]) -> str:
    """A digest of design-agent's version and each file's path, size and mtime."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(paths, key=os.fspath):  # Path's own ordering is ~10x slower
        try:
            stat = path.stat()
        except OSError:
            continue
        digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:24]


def cached(home: HomeLayout, kind: str, key: str, build: Callable[[], T]) -> T:
    """The value cached as `kind` under `key`, or `build()` (then cached).

    Raises UntrustedPathError when the cache folder is not the user's own."""
    shared = os.environ.get(CACHE_ENV)
    folder = Path(shared) if shared else home.cache_dir
    trusted(folder, folder.parent if shared else home.root)
    secret = _secret(folder)
    path = folder / f"{kind}-{key}.pickle"
    found = _read(path, secret)
    if found is not _MISSING:
        return found  # type: ignore[return-value]
    with _building(folder / f"{kind}-{key}.lock"):
        # Processes started at once (a shell and a server, the test suite's workers) wait
        # for the first one's build instead of each building the same entry.
        found = _read(path, secret)
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        value = build()
        # A shared folder serves other homes too: their entries are not stale.
        _write(path, value, secret, [] if shared else folder.glob(f"{kind}-*"))
    return value


def _secret(folder: Path) -> bytes | None:
    """The folder's HMAC key, made on first use; None (no caching) if it cannot be had."""
    path = folder / KEY_FILE
    for _ in range(2):
        try:
            key = open_trusted(path, folder)
        except FileNotFoundError:
            _make_key(path)
            continue
        except OSError:
            return None
        return key if len(key) == KEY_BYTES else None
    return None


def _make_key(path: Path) -> None:
    """Write a new random key with O_EXCL, so two processes never both make one."""
    try:
        ensure_private_dir(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, FILE_MODE)
    except (OSError, DesignAgentError):
        return
    with os.fdopen(fd, "wb") as handle:
        handle.write(secrets.token_bytes(KEY_BYTES))


def _mac(secret: bytes, payload: bytes | memoryview) -> bytes:
    return hmac.new(secret, payload, hashlib.sha256).digest()


def _read(path: Path, secret: bytes | None) -> object:
    if secret is None:
        return _MISSING
    try:
        return _load(path, secret)
    except FileNotFoundError:
        return _MISSING
    except Exception:
        path.unlink(missing_ok=True)
        return _MISSING


def _write(path: Path, value: object, secret: bytes | None, stale: Iterable[Path]) -> None:
    if secret is None:
        return
    try:
        for old in stale:
            if old.stem != path.stem:
                old.unlink(missing_ok=True)
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        write_private_bytes(path, _mac(secret, payload) + payload)
    except (OSError, pickle.PicklingError):
        pass


@contextmanager
def _building(lock: Path) -> Iterator[None]:
    """Hold an exclusive lock on `lock` (best effort: without one, just build)."""
    try:
        import fcntl

        ensure_private_dir(lock.parent)
        handle = os.fdopen(os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW, FILE_MODE), "ab")
    except (ImportError, OSError, DesignAgentError):
        yield
        return
    with handle:
        with suppress(OSError):
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def forget_loaded() -> None:
    """Drop the values unpickled in this process, as a new process starts without them."""
    with _loaded_lock:
        _loaded.clear()


class ForgedEntryError(ValueError):
    """A cache file whose HMAC does not match: not written by this cache."""


def _load(path: Path, secret: bytes) -> object:
    """The value pickled at `path`, reused while the file is the one read before.

    The file must be the user's and carry the right HMAC before a byte is unpickled."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as handle:
        stat = os.fstat(fd)
        check_entry(path, stat)
        identity = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        with _loaded_lock:
            known = _loaded.get(path)
            if known is not None and known[0] == identity:
                _loaded.move_to_end(path)
                return known[1]
        data = memoryview(handle.read())
    if not hmac.compare_digest(bytes(data[:MAC_BYTES]), _mac(secret, data[MAC_BYTES:])):
        raise ForgedEntryError(str(path))
    value = pickle.loads(data[MAC_BYTES:])
    with _loaded_lock:
        _loaded[path] = (identity, value)
        while len(_loaded) > LOADED_LIMIT:
            _loaded.popitem(last=False)
    return value
