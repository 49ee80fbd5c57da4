"""The take checker: is a take of a sentence usable (speech, ending, length, voice, level)?"""
