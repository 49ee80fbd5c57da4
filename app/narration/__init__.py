"""Long-form narration (no Qt): a book or script becomes a project of chapters and sentences,
rendered sentence by sentence through the engine, kept as takes, exported as audio and subtitles.

    inputs/   a file -> SourceDocument (source.py)
    project/  the .ctsproj SQLite file: chapters, sentences, takes, voices, settings
    render.py pending sentences -> engine requests (background priority) -> takes
    export/   chosen takes -> audio files with chapters, subtitles, loudness (rendered.py)
"""
