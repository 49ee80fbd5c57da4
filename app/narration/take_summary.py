"""What the take checks of a project come to, for the command line and its JSON: the sentences
re-taken in a render and those whose chosen take is still flagged, with the reasons."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.narration.project import Project


@dataclass(frozen=True)
class StillFlagged:
    sentence_id: int
    chapter: int  # from 1, as people count
    sentence: int  # from 1, in its chapter
    text: str
    kinds: tuple[str, ...]
    reasons: tuple[str, ...]

    def to_json(self) -> dict:
        return {
            "sentence_id": self.sentence_id,
            # numbered as people count; the export report's "chapter"/"sentence" count from 0
            "chapter_number": self.chapter,
            "sentence_number": self.sentence,
            "text": self.text,
            "kinds": list(self.kinds),
            "reasons": [str(r) for r in self.reasons],
        }


@dataclass(frozen=True)
class TakeSummary:
    retaken: tuple[int, ...] = ()  # sentence ids made more than once in this render
    flagged: tuple[StillFlagged, ...] = ()
    checked: int = 0  # sentences whose chosen take was checked
    notes: tuple[str, ...] = field(default=())  # e.g. takes are not checked

    def to_json(self) -> dict:
        return {
            "checked": self.checked,
            "retaken": len(self.retaken),
            "retaken_sentences": list(self.retaken),
            "flagged": [f.to_json() for f in self.flagged],
            "notes": [str(n) for n in self.notes],
        }


def take_summary(project: Project, retaken=(), notes=()) -> TakeSummary:
    """The project's flagged sentences now, with what a render re-took and said."""
    numbers = {c.id: n + 1 for n, c in enumerate(project.chapters())}
    flagged = []
    checked = 0
    for s in project.sentences():
        if s.check is None or not s.check.checked:
            continue
        checked += 1
        if s.check.flagged:
            flagged.append(
                StillFlagged(
                    s.id,
                    numbers.get(s.chapter_id, 0),
                    s.index + 1,
                    s.text,
                    tuple(s.check.kinds()),
                    tuple(s.check.reasons()),
                )
            )
    return TakeSummary(tuple(retaken), tuple(flagged), checked, tuple(notes))
