"""What the library tells the user: a kind (the window translates it) and a sentence.

The window maps `kind` to its own Qt-translated template and fills in `args` (file names, field
names); the command line prints `message`, translated by gettext in the language in effect when
the notice was made.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.i18n import _


@dataclass(frozen=True)
class Notice:
    kind: str                 # "skipped", "restored", "damaged_no_backup", "imported"
    message: str              # the sentence for the command line (gettext)
    args: tuple[str, ...] = field(default_factory=tuple)


def skipped(file: str, field_name: str) -> Notice:
    return Notice("skipped", _("{file}: a record was skipped because its field '{field}' is not valid; the "
                               "rest was loaded.").format(file=file, field=field_name), (file, field_name))


def restored(aside: str, backup: str) -> Notice:
    return Notice("restored", _("Your library was damaged: it was set aside as {aside} and the backup {backup} "
                                "was restored; results since that backup may be missing.").format(
        aside=aside, backup=backup), (aside, backup))


def damaged_no_backup(aside: str) -> Notice:
    return Notice("damaged_no_backup", _("Your library was damaged and no backup could be used: it was set "
                                         "aside as {aside} and a new library was started.").format(aside=aside),
                  (aside,))


def imported(source: str, renamed: str) -> Notice:
    return Notice("imported", _("Imported {source} into the library; the original is kept as {renamed}.").format(
        source=source, renamed=renamed), (source, renamed))
