"""MP3 chapter marks: ID3v2 CHAP frames under one ordered CTOC (the ID3 chapter addendum),
which podcast and audiobook players read. Written with mutagen into the finished MP3."""

from __future__ import annotations

from pathlib import Path


def add_mp3_chapters(
    path: Path, chapters: list[tuple[str, float, float]], title: str | None = None
) -> None:
    """`chapters`: (title, start seconds, end seconds)."""
    from mutagen.id3 import CHAP, CTOC, ID3, TIT2, CTOCFlags, ID3NoHeaderError

    try:
        tags = ID3(str(path))
    except ID3NoHeaderError:
        tags = ID3()
    ids = [f"chp{n}" for n in range(len(chapters))]
    tags.delall("CHAP")
    tags.delall("CTOC")
    tags.add(
        CTOC(
            element_id="toc",
            flags=CTOCFlags.TOP_LEVEL | CTOCFlags.ORDERED,
            child_element_ids=ids,
            sub_frames=[TIT2(encoding=3, text=[title or ""])],
        )
    )
    for element, (name, start, end) in zip(ids, chapters):
        tags.add(
            CHAP(
                element_id=element,
                start_time=int(round(start * 1000)),
                end_time=int(round(end * 1000)),
                sub_frames=[TIT2(encoding=3, text=[name])],
            )
        )
    if title:
        tags.add(TIT2(encoding=3, text=[title]))
    tags.save(str(path), v2_version=4)
