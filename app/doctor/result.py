"""What a check says: a status, one sentence, the details, and a fix a user can follow."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum

from app.i18n import _


class Status(StrEnum):
    OK = "ok"
    WARN = "warn"
    FAIL = "fail"
    SKIP = "skip"
    ERROR = "error"  # the check itself did not complete


OK, WARN, FAIL, SKIP, ERROR = Status
STATUSES = tuple(Status)
MARKS = {OK: "[✓]", WARN: "[!]", FAIL: "[✗]", SKIP: "[-]", ERROR: "[?]"}


class Basis(StrEnum):
    """What a result rests on, for code to act on (its sentence is for people)."""

    JUDGED = "judged"  # the check judged what the probes read
    UNREADABLE = "unreadable"  # what it needs could not be read, so it was not judged (a warn)
    TIMED_OUT = "timed_out"  # the check did not finish in time (an error)
    CRASHED = "crashed"  # the check raised (an error; details hold the exception)
    # Not for this system (a Windows setting on Linux): a skip the text report folds into one line.
    NOT_APPLICABLE = "not_applicable"


@dataclass
class CheckResult:
    id: str
    title: str
    status: str
    summary: str
    details: str = ""
    fix: str = ""
    basis: Basis = Basis.JUDGED

    def to_dict(self) -> dict:
        return asdict(self)


class Verdict:
    """Shorthands a check uses: `return v.fail("...", fix="...")`. The title is the check's
    N_()-marked TITLE, translated here into the language in effect."""

    def __init__(self, check_id: str, title: str):
        self.id, self.title = check_id, _(title)

    def _make(self, status, summary, details="", fix="", basis=Basis.JUDGED):
        return CheckResult(self.id, self.title, status, summary, details, fix, basis)

    def ok(self, summary, details=""):
        return self._make(OK, summary, details)

    def warn(self, summary, details="", fix=""):
        return self._make(WARN, summary, details, fix)

    def fail(self, summary, details="", fix=""):
        return self._make(FAIL, summary, details, fix)

    def skip(self, reason, details=""):
        return self._make(SKIP, reason, details)

    def not_applicable(self, reason):
        """A skip because the check concerns another system; `reason` says which."""
        return self._make(SKIP, reason, basis=Basis.NOT_APPLICABLE)

    def unreadable(self, what: str):
        """`what`: an already translated phrase such as _("the registry")."""
        return self._make(
            WARN,
            _("Could not read {what}, so this was not checked.").format(what=what),
            basis=Basis.UNREADABLE,
        )
