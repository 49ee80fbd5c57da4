"""Plain text (.txt) and dialogue scripts: chapters at heading lines, paragraphs at blank lines.

A paragraph's wrapped lines are joined before it is cut into sentences (books from Project
Gutenberg wrap at 70 columns: a line is not a sentence). In a script every line stands alone.
A file without headings is one chapter named after the file.
"""

from __future__ import annotations

from app.narration.inputs.building import DocumentBuilder
from app.narration.inputs.cleaning import clean_lines, join_lines
from app.narration.inputs.headings import is_heading
from app.narration.inputs.script import is_stage_direction, looks_like_script, speaker_line
from app.narration.source import SourceDocument


def is_script_text(text: str) -> bool:
    lines = [line for line in clean_lines(text).split("\n") if not is_heading(line)]
    return looks_like_script(lines)


def read_text(text: str, source: str, title: str, script: bool | None = None) -> SourceDocument:
    """`script`: True/False to force, None to decide from the text."""
    text = clean_lines(text)
    if script is None:
        script = is_script_text(text)
    doc = DocumentBuilder(source, "script" if script else "text", title)
    doc.chapter(title)
    paragraph: list[str] = []

    def end_paragraph():
        if paragraph:
            doc.text(join_lines(paragraph))
            paragraph.clear()

    for line in text.split("\n"):
        if is_heading(line):
            end_paragraph()
            doc.chapter(line)
        elif not line.strip():
            end_paragraph()
        elif script:
            if is_stage_direction(line):
                continue
            said = speaker_line(line)
            if said:
                doc.text(said[1], speaker=said[0])
            else:
                doc.text(line)
        else:
            paragraph.append(line)
    end_paragraph()
    return doc.build()
