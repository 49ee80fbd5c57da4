"""Rendering a report: one line per check with flutter-doctor marks, then the fixes."""

from __future__ import annotations

import json

from app.doctor.result import MARKS, OK, SKIP
from app.doctor.runner import Report


def render_text(report: Report, verbose: bool = False) -> str:
    width = max(len(r.title) for r in report.results)
    lines = []
    for r in report.results:
        lines.append(f"{MARKS[r.status]} {r.title.ljust(width)}  {r.summary}")
        if verbose and r.details:
            lines.append(f"    {r.details}")
    fixes = [r for r in report.results if r.fix and r.status not in (OK, SKIP)]
    if fixes:
        lines.append("")
        lines.append("How to fix:")
        for r in fixes:
            lines.append(f"  {r.title}: {r.fix}")
            if r.details and not verbose:
                lines.append(f"    ({r.details})")
    rec = report.recommendation
    if rec:
        lines.append("")
        lines.append(f"Recommended device: {rec['device']} ({rec['reason']})")
        if rec.get("torch_install"):
            lines.append(f"To use the GPU: {rec['torch_install']}")
    return "\n".join(lines)


def render_json(report: Report) -> str:
    return json.dumps(report.to_dict(), ensure_ascii=False, indent=2)
