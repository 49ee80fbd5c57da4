"""ChatTTSTextFilter gives what ChatTTS's own Normalizer gives, without importing the model stack."""

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from app.text.spoken import ChatTTSTextFilter

ALPHABET = st.sampled_from(
    list("你好世界的了是重行长乐得地着和")
    + list("abcXYZ ")
    + list("0123456789")
    + list(".,!?;:-()<>[]_'\"$%&*+/=@\\^`{|}~，。！？；：（）【】《》「」－、…")
    + ["[uv_break]", "[laugh]", "😀", "é", "\u00a0"]
)
TEXTS = st.lists(ALPHABET, min_size=1, max_size=40).map("".join)
_filter = ChatTTSTextFilter()


def _upstream():
    from app.synthesis.chattts_model import chattts_normalizer

    if not hasattr(_upstream, "norm"):
        _upstream.norm = chattts_normalizer()
    return _upstream.norm


@settings(max_examples=400, deadline=None)
@given(TEXTS, st.booleans(), st.booleans(), st.sampled_from([None, "zh", "en"]))
def test_same_text_as_chattts_normalizer(text, normalize, homophones, lang):
    assert _filter(text, normalize, homophones, lang) == _upstream()(
        text, normalize, homophones, lang
    )


def test_homophones_come_from_chattts_table():
    from app.text.spoken import homophones_path

    with open(homophones_path(), encoding="utf-8") as f:
        source, target = next(iter(json.load(f).items()))
    assert source != target
    assert _filter(source, False, True) == target
    assert _filter(source, False, False) == source


def test_the_normalize_command_does_not_load_the_model_stack(tmp_path):
    """`chattts-studio normalize` must not import ChatTTS, torch or numba (seconds each)."""
    code = (
        "import sys; from app.cli import main; rc = main(['normalize', 'On 3/5/2024 pay $4.50.']); "
        "print(sorted(m for m in ('ChatTTS', 'torch', 'numba', 'transformers', 'cn2an') if m in sys.modules)); "
        "sys.exit(rc)"
    )
    env = {"CHATTTS_STUDIO_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(Path(__file__).parents[2]),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "On March fifth, twenty twenty four pay four dollars and fifty cents."
    assert lines[-1] == "[]"
