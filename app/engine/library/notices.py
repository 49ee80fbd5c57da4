"""What the library tells the user: a kind (the window translates it) and an English sentence.

The engine has no translation catalogue; the window maps `kind` to its own translated template
and fills in `args` (file names, field names), while the command line prints `message`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Notice:
    kind: str                 # "skipped", "restored", "damaged_no_backup", "imported"
    message: str              # the English sentence
    args: tuple[str, ...] = field(default_factory=tuple)


def skipped(file: str, field_name: str) -> Notice:
    return Notice("skipped", f"{file}: a record was skipped because its field '{field_name}' is not "
                  "valid; the rest was loaded.", (file, field_name))


def restored(aside: str, backup: str) -> Notice:
    return Notice("restored", f"Your library was damaged: it was set aside as {aside} and the backup "
                  f"{backup} was restored; results since that backup may be missing.", (aside, backup))


def damaged_no_backup(aside: str) -> Notice:
    return Notice("damaged_no_backup", f"Your library was damaged and no backup could be used: it was "
                  f"set aside as {aside} and a new library was started.", (aside,))


def imported(source: str, renamed: str) -> Notice:
    return Notice("imported", f"Imported {source} into the library; the original is kept as {renamed}.",
                  (source, renamed))
