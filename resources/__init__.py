"""Data files of ChatTTS Studio (installed as the package `chattts_studio_resources`)."""
