"""Rendering a report: one line per check with flutter-doctor marks, then the fixes."""

from __future__ import annotations

import json
import unicodedata

from app.doctor.result import ERROR, MARKS, OK, SKIP, Basis, CheckResult
from app.doctor.runner import Report
from app.i18n import _, join_items


def display_width(text: str) -> int:
    """Columns a terminal gives `text`: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - display_width(text))


def _plain(result: CheckResult) -> CheckResult:
    """The result with every field as text, so rendering cannot fail on what a check put there."""
    status = result.status if result.status in MARKS else ERROR
    basis = result.basis if result.basis in tuple(Basis) else Basis.JUDGED
    return CheckResult(
        *(str(v) if v is not None else "" for v in (result.id, result.title)),
        status,
        *(str(v) if v is not None else "" for v in (result.summary, result.details, result.fix)),
        basis=basis,
    )


def fold_not_applicable(results) -> tuple[list, list]:
    """(the checks that apply here, those for another system): the text report and the window's
    panel show the second kind folded into one line after the rest, so a Windows setting is no
    noise on Linux (tests/doctor/test_runner.py, tests/ui/test_doctor_ui.py)."""
    return (
        [r for r in results if r.basis != Basis.NOT_APPLICABLE],
        [r for r in results if r.basis == Basis.NOT_APPLICABLE],
    )


def not_applicable_title() -> str:
    return _("Not applicable here")


def not_applicable_summary(elsewhere) -> str:
    """The folded line's text: the checks' names in a list."""
    return _("{checks}.").format(checks=join_items(r.title for r in elsewhere))


def render_text(report: Report, verbose: bool = False) -> str:
    results, elsewhere = fold_not_applicable([_plain(r) for r in report.results])
    folded = not_applicable_title()
    titles = [r.title for r in results] + ([folded] if elsewhere else [])
    width = max(map(display_width, titles), default=0)
    lines = []
    for r in results:
        lines.append(f"{MARKS[r.status]} {_pad(r.title, width)}  {r.summary}")
        if verbose and r.details:
            lines.append(f"    {r.details}")
    if elsewhere:
        lines.append(f"{MARKS[SKIP]} {_pad(folded, width)}  " + not_applicable_summary(elsewhere))
        if verbose:
            lines.extend(
                "    " + _("{check}: {reason}").format(check=r.title, reason=r.summary)
                for r in elsewhere
            )
    fixes = [r for r in results if r.fix and r.status not in (OK, SKIP)]
    if fixes:
        lines.append("")
        lines.append(_("How to fix:"))
        for r in fixes:
            lines.append("  " + _("{check}: {fix}").format(check=r.title, fix=r.fix))
            if r.details and not verbose:
                lines.append(f"    ({r.details})")
    rec = report.recommendation
    if rec is not None:
        lines.append("")
        lines.append(
            _("Recommended device: {device} ({reason})").format(
                device=rec.device.value, reason=rec.reason
            )
        )
        if rec.torch_install:
            lines.append(_("To use the GPU: {command}").format(command=rec.torch_install))
    return "\n".join(lines)


def render_json(report: Report) -> str:
    # default=str: a value a probe returned that JSON has no type for is shown, not a crash.
    return json.dumps(
        {
            "checks": [_plain(r).to_dict() for r in report.results],
            "recommendation": report.recommendation.to_dict() if report.recommendation else {},
        },
        ensure_ascii=False,
        indent=2,
        default=str,
    )
