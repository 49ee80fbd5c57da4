"""The export choices the command line offers, in a module that imports nothing heavy: the
`narrate` parser is built at every start of the program, before the window shows."""

FORMATS: tuple[str, ...] = ("wav", "flac", "mp3", "ogg", "opus", "m4a", "m4b")
SUBTITLE_FORMATS: tuple[str, ...] = ("srt", "vtt")
# Ranges a person could mean; anything outside is a damaged file or a typo.
LOUDNESS_RANGE = (-40.0, -5.0)
