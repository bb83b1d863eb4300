"""One error hierarchy and the documented exit codes.

Services raise these; the CLI edge turns them into one line on stderr and the
exit code below; the shell shows the same message and carries on.
"""

from __future__ import annotations

import signal
from enum import IntEnum


class ExitCode(IntEnum):
    """Exit codes of every design-agent command (also tabled in README.md)."""

    OK = 0
    UNEXPECTED = 1
    USAGE = 2
    INVALID_CONFIG = 3
    PROVIDER_UNAVAILABLE = 4
    PROVIDER_FAILED = 5
    NOT_FOUND = 6
    OVER_BUDGET = 7  # the project's monthly budget is spent: `ask` ran nothing (budget.py)
    DISK_FULL = 8  # a write failed for want of space: nothing half-written (memory/faults.py)
    DATABASE_UNAVAILABLE = 9  # the database server could not be reached: try again later
    # A team server (issue 28): not signed in, a login that expired or was revoked, or a
    # role in the project that does not allow it (the API's 401 and 403).
    NOT_ALLOWED = 10
    # Stopped by a signal: 128 + its number, as shells report it. The turn is
    # cancelled the same way for each (partial answer saved as cancelled).
    HANGUP = 129  # SIGHUP: the terminal was closed
    CANCELLED = 130  # SIGINT: Ctrl-C
    TERMINATED = 143  # SIGTERM: kill, systemd, a container stopping


class DesignAgentError(Exception):
    """Base of every error the user may see; `message` says what to do next."""

    exit_code: ExitCode = ExitCode.UNEXPECTED

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(DesignAgentError):
    """The user asked for something that cannot be done as asked."""

    exit_code = ExitCode.USAGE


class ConflictError(UsageError):
    """What was asked no longer fits what is stored: a decision already replaced or retired
    (the API answers 409 `conflict`; the command line exits 2, as for any usage error)."""


class EvidenceInputError(UsageError):
    """A research file that cannot be read as evidence (an unknown format, no speaker labels,
    a CSV header not recognised, no moderator to tell): one line naming the file, the line
    and what to do; nothing of the files added with it is stored (exit 2)."""


class EvidenceNeedsAnswer(EvidenceInputError):
    """A research file that can be read once the person says one thing (`ask`): which of its
    speakers moderates ("moderator"), which column holds the text ("columns"), or whether a
    transcript without speaker labels is one participant's notes ("labels"). The message
    is the command line's one line (with the flag to give); a conversation asks it instead,
    with `options` numbered (understanding/conversation.EvidenceQuestion)."""

    def __init__(
        self, message: str, *, ask: str, source: str, options: list[str], header: list[str]
    ) -> None:
        super().__init__(message)
        self.ask = ask
        self.source = source
        self.options = options
        self.header = header


class ConfigError(DesignAgentError):
    """A configuration, catalogue or adapter file is invalid."""

    exit_code = ExitCode.INVALID_CONFIG

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]

    @classmethod
    def listing(cls, problems: list[str]) -> ConfigError:
        """The first problem as the message (pointing at `check` for the rest), all kept."""
        more = f" (and {len(problems) - 1} more; run 'design-agent check')"
        return cls(problems[0] + more * (len(problems) > 1), problems=problems)


class UntrustedPathError(ConfigError):
    """A file or folder in the home that another user made or can change
    (design_agent.core.home_trust): nothing there is read, run or followed."""


class NotFoundError(DesignAgentError):
    """A named project, task, agent, provider or file does not exist."""

    exit_code = ExitCode.NOT_FOUND


class NotAllowedError(DesignAgentError):
    """A person may not do this: their role in the project is too small, their account is
    disabled, their login expired (the API answers 403, or 401 for no login at all)."""

    exit_code = ExitCode.NOT_ALLOWED

    def __init__(self, message: str, signed_in: bool = True) -> None:
        super().__init__(message)
        self.signed_in = signed_in


class DiskFullError(DesignAgentError):
    """The disk (or the filesystem holding a file) is full: the message names the path."""

    exit_code = ExitCode.DISK_FULL

    def __init__(self, message: str, path: object = None) -> None:
        super().__init__(message)
        self.path = path


class CancelledError(DesignAgentError):
    """The user interrupted the operation: Ctrl-C, or SIGTERM / SIGHUP (see ExitCode)."""

    exit_code = ExitCode.CANCELLED

    def __init__(self, message: str, signum: int = signal.SIGINT) -> None:
        super().__init__(message)
        self.exit_code = ExitCode(128 + signum)


class ProviderError(DesignAgentError):
    """Base for failures of an AI CLI provider; carries the adapter name and stderr tail."""

    exit_code = ExitCode.PROVIDER_FAILED

    def __init__(
        self, message: str, provider: str = "", stderr_tail: list[str] | None = None
    ) -> None:
        super().__init__(message)
        self.provider = provider
        self.stderr_tail = stderr_tail or []


class ProviderUnavailableError(ProviderError):
    """The provider cannot be used at all: not installed or not authenticated."""

    exit_code = ExitCode.PROVIDER_UNAVAILABLE


class ProviderFailedError(ProviderError):
    """The provider started but failed: crash, timeout, rate limit, unreadable output."""

    exit_code = ExitCode.PROVIDER_FAILED


class ProviderNotInstalledError(ProviderUnavailableError):
    """The provider's binary was not found on PATH or at the configured location."""


class ProviderNotAuthenticatedError(ProviderUnavailableError):
    """The provider's CLI is installed but not logged in."""


class ProviderRateLimitedError(ProviderFailedError):
    """The provider refused the request because of a rate limit or quota."""


class ProviderQuotaExhaustedError(ProviderRateLimitedError):
    """The provider's plan, credit or daily quota is used up: waiting minutes will not do."""


class ProviderCrashedError(ProviderFailedError):
    """The provider exited with an error or its stream ended without a final result."""


class ProviderTimeoutError(ProviderFailedError):
    """The provider produced no output (or stopped producing it) within its timeouts."""


class ProviderOutputError(ProviderFailedError):
    """The provider's output could not be read as its declared format."""
