"""How much an input file may hold, and the error every reader raises.

An input is hostile until parsed: a file is refused before it is read in full when it is
larger than these caps, and a reader stops the moment a count goes past them, so a crafted
file costs at most a bounded amount of memory and time. Readers look the caps up through this
module at call time (tests lower them).
"""

from __future__ import annotations

from app.core import StudioError

MAX_TEXT_BYTES = 32 * 1024 * 1024  # .txt, .md, .srt, .vtt: a long novel in UTF-16 is ~8 MiB
MAX_EPUB_BYTES = 256 * 1024 * 1024  # the zip itself (pictures make EPUBs large)
MAX_ZIP_ENTRIES = 10_000
MAX_ZIP_ENTRY_BYTES = 64 * 1024 * 1024  # one entry, unpacked
MAX_ZIP_TOTAL_BYTES = 512 * 1024 * 1024  # all entries, unpacked
MAX_ZIP_RATIO = 200  # unpacked / packed for an entry above 1 MiB: a bomb
MAX_CHAPTERS = 5_000  # web novels run to thousands of chapters
MAX_SENTENCES = 300_000
MAX_TITLE_CHARS = 200
MAX_NOTICES = 100  # a file of broken cues: the rest are counted


class SourceFileError(StudioError):
    """An input for narration that cannot be read: missing, too large, damaged or of a kind
    we do not read. The message names the file and says what to do."""
