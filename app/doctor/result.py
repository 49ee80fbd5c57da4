"""What a check says: a status, one sentence, the details, and a fix a user can follow."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from app.i18n import _

OK, WARN, FAIL, SKIP, ERROR = "ok", "warn", "fail", "skip", "error"
STATUSES = (OK, WARN, FAIL, SKIP, ERROR)
MARKS = {OK: "[✓]", WARN: "[!]", FAIL: "[✗]", SKIP: "[-]", ERROR: "[?]"}


@dataclass
class CheckResult:
    id: str
    title: str
    status: str
    summary: str
    details: str = ""
    fix: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


class Verdict:
    """Shorthands a check uses: `return v.fail("...", fix="...")`. The title is the check's
    N_()-marked TITLE, translated here into the language in effect."""

    def __init__(self, check_id: str, title: str):
        self.id, self.title = check_id, _(title)

    def _make(self, status, summary, details="", fix=""):
        return CheckResult(self.id, self.title, status, summary, details, fix)

    def ok(self, summary, details=""):
        return self._make(OK, summary, details)

    def warn(self, summary, details="", fix=""):
        return self._make(WARN, summary, details, fix)

    def fail(self, summary, details="", fix=""):
        return self._make(FAIL, summary, details, fix)

    def skip(self, reason, details=""):
        return self._make(SKIP, reason, details)

    def unreadable(self, what: str):
        """`what`: an already translated phrase such as _("the registry")."""
        return self._make(WARN, _("Could not read {what}, so this was not checked.").format(what=what))
