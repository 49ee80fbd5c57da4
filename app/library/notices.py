"""What the library tells the user: a kind (the window translates it) and a sentence.

The window maps `kind` to its own Qt-translated template and fills in `args` (file names, field
names); the command line prints `message`, translated by gettext in the language in effect when
the notice was made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from app.i18n import _

# The field name a skipped notice gives when a whole file, not one field, was unusable.
WHOLE_FILE = "(the whole file)"


class NoticeKind(StrEnum):
    SKIPPED = "skipped"  # args: (file, field or WHOLE_FILE)
    RESTORED = "restored"  # args: (aside, backup)
    DAMAGED_NO_BACKUP = "damaged_no_backup"  # args: (aside,)
    IMPORTED = "imported"  # args: (source, renamed)
    EMPTY_RESTORED = "empty_restored"  # args: (aside, backup)
    MISSING_RESTORED = "missing_restored"  # args: (library, backup)


@dataclass(frozen=True)
class Notice:
    kind: NoticeKind
    message: str  # the sentence for the command line (gettext)
    args: tuple[str, ...] = field(default_factory=tuple)


def skipped(file: str, field_name: str) -> Notice:
    return Notice(
        NoticeKind.SKIPPED,
        _(
            "{file}: a record was skipped because its field '{field}' is not valid; "
            "the rest was loaded."
        ).format(file=file, field=field_name),
        (file, field_name),
    )


def restored(aside: str, backup: str) -> Notice:
    return Notice(
        NoticeKind.RESTORED,
        _(
            "Your library was damaged: it was set aside as {aside} and the backup "
            "{backup} was restored; results since that backup may be missing."
        ).format(aside=aside, backup=backup),
        (aside, backup),
    )


def damaged_no_backup(aside: str) -> Notice:
    return Notice(
        NoticeKind.DAMAGED_NO_BACKUP,
        _(
            "Your library was damaged and no backup could be used: it was "
            "set aside as {aside} and a new library was started."
        ).format(aside=aside),
        (aside,),
    )


def empty_restored(aside: str, backup: str) -> Notice:
    return Notice(
        NoticeKind.EMPTY_RESTORED,
        _(
            "Your library was empty although its backups hold your data: "
            "the empty file was set aside as {aside} and the backup {backup} "
            "was restored; results since that backup may be missing."
        ).format(aside=aside, backup=backup),
        (aside, backup),
    )


def missing_restored(library: str, backup: str) -> Notice:
    return Notice(
        NoticeKind.MISSING_RESTORED,
        _(
            "Your library {library} was missing: the backup {backup} was "
            "restored; results since that backup may be missing."
        ).format(library=library, backup=backup),
        (library, backup),
    )


def imported(source: str, renamed: str) -> Notice:
    return Notice(
        NoticeKind.IMPORTED,
        _("Imported {source} into the library; the original is kept as {renamed}.").format(
            source=source, renamed=renamed
        ),
        (source, renamed),
    )
