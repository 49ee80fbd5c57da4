"""A message made by app.i18n._ is said again in the language chosen later (the window's
banners and warnings on a language switch), and still travels like plain text."""

import json
import pickle
from decimal import Decimal

import numpy as np

from app import i18n
from app.audio.playback import NO_DEVICE
from app.synthesis import messages


def test_again_follows_the_language():
    try:
        i18n.set_language("en")
        plain = i18n._(NO_DEVICE)
        warning = messages.token_cut_warning(0, 1, 4)
        assert warning.startswith("Sentence 1 reached the limit of 4 audio tokens")
        i18n.set_language("zh_CN")
        assert i18n.again(plain) == i18n._(NO_DEVICE) != NO_DEVICE
        chinese = i18n.again(warning)
        assert "4" in chinese and "--max-tokens" in chinese and "Sentence" not in chinese
        assert i18n.again("not from the catalog") == "not from the catalog"
        i18n.set_language("en")
        assert i18n.again(chinese) == warning  # and back, fields and all
    finally:
        i18n.set_language("en")


def test_a_phrase_travels_as_plain_text():
    warning = messages.token_cut_warning(2, 1, 8)
    again = pickle.loads(pickle.dumps(warning))  # to and from a farm worker
    assert again == warning and again.source == warning.source and again.fields == warning.fields
    assert json.loads(json.dumps([warning])) == [str(warning)]
    failure = i18n._(
        "The sound device could not be opened ({error}); Export WAV still works."
    ).format(error=OSError("busy"))
    assert (
        pickle.loads(pickle.dumps(failure)) == failure
    )  # a field that is an object is kept as text


def test_again_keeps_number_formats():
    try:
        i18n.set_language("en")
        size = i18n.Phrase("{n:.1f} MB of {total:,}", "{n:.1f} MB of {total:,}").format(
            n=np.float32(2.5), total=np.int64(3000)
        )
        assert i18n.again(size) == "2.5 MB of 3,000"  # a NumPy number formats again
        odd = i18n.Phrase("{n:,} left", "{n:,} left").format(n=Decimal(3000))
        assert i18n.again(odd) == "3,000 left"  # kept as it was, never raises
    finally:
        i18n.set_language("en")
