"""The window starts over a damaged model description or verified-models cache, and says so."""

import json

from app import paths
from app.model.files import STUDIO_CONFIG_NAME
from app.ui.controllers import ModelState
from tests.ui.conftest import LOAD_TIMEOUT_MS


def test_the_window_starts_over_a_model_description_with_strings_for_numbers(
    make_window, settings, model_copy, qtbot
):
    cfg_path = model_copy / STUDIO_CONFIG_NAME
    cfg = json.loads(cfg_path.read_text())
    cfg["dimensions"]["gpt"]["hidden_size"] = "64"
    cfg_path.write_text(json.dumps(cfg))
    settings.model_dir = str(model_copy)
    window = make_window(wait_loaded=False)
    qtbot.waitUntil(lambda: window.model.state is ModelState.FAILED, timeout=LOAD_TIMEOUT_MS)
    assert window.isVisible() and window.model_status is None
    assert "dimensions.gpt.hidden_size" in window.model_banner.text()


def test_the_window_starts_over_a_damaged_verified_cache(make_window, qtbot):
    cache = paths.cache_dir() / "verified-models.json"
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text('{"x": [1, 2')
    window = make_window()
    assert window.model_status is not None and window.isVisible()
