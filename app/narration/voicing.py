"""Who speaks a sentence and how its words are read: the project's voices (a script speaker's
name -> a seed or a speaker string, else the project's own voice), the project's lexicon, and
a chapter's locked voice (a reference made on the engine's thread from a stored take)."""

from __future__ import annotations

import logging

import numpy as np

from app.narration.project import Project, ProjectError, Sentence, SentenceStatus

log = logging.getLogger("chattts_studio.narration")


class Voicing:
    def __init__(self, project: Project, engine):
        self.project = project
        self.engine = engine
        self.voices = project.voices()
        lexicon = project.lexicon()
        self._lexicon = sorted(lexicon.items(), key=lambda item: -len(item[0]))
        self._speakers: dict[int, str] = {}

    def text(self, text: str) -> str:
        """The sentence as the model reads it: the project's lexicon applied, longest words first."""
        for word, replacement in self._lexicon:
            text = text.replace(word, replacement)
        return text

    def speaker(self, name: str | None) -> str:
        """The speaker string for a script speaker's name (None: the narrator)."""
        voice = self.voices.get(name) if name else None
        if voice is not None and voice.speaker:
            return voice.speaker
        if voice is None and self.project.speaker:
            return self.project.speaker
        # A voice has a seed or a speaker (Edits.voices), so one without a speaker has a seed.
        seed = voice.seed if voice is not None and voice.seed is not None else self.project.seed
        if seed not in self._speakers:
            synth = self.engine.synthesizer
            self._speakers[seed] = self.engine.call(lambda: synth.speaker_for_seed(seed))
        return self._speakers[seed]

    def reference_from_audio(self, audio: np.ndarray, text: str, voice: str | None):
        """(codes, transcript, voice) from a take as stored, or None if the model cannot make one."""
        synth = self.engine.synthesizer
        try:
            codes, transcript = self.engine.call(lambda: synth.reference_from_audio(audio, text))
        except Exception as exc:  # out of memory on a GPU: the next sentence tries again
            log.warning("no chapter voice from this take: %s", exc)
            return None
        return (codes, transcript, voice) if isinstance(codes, str) and codes else None

    def reference_from_done(self, chapter_id: int, sentences: list[Sentence]):
        """A chapter without a reference whose sentences were already rendered (the reference was
        cleared): the first rendered sentence's take gives it, and it is stored."""
        for sentence in sentences:
            if sentence.status != SentenceStatus.DONE or sentence.take_id is None:
                continue
            try:
                audio = self.project.take_audio(sentence.take_id)
            except ProjectError:
                continue
            reference = self.reference_from_audio(audio, sentence.text, sentence.speaker)
            if reference is not None:
                self.project.set_reference(chapter_id, *reference)
            return reference
        return None
