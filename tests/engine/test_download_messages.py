"""What a failed download says: the cause in words (not requests' screenful), and other
sources than the one that just failed."""

import pytest
import requests

from app.core.errors import DownloadError
from app.model.download import ModelDownloader
from app.model.download_failures import choices_after, connection_problem
from app.model.files import MODEL_FILES
from app.model.sources import make_source

OFFLINE = requests.ConnectionError(
    "HTTPSConnectionPool(host='hf-mirror.com', port=443): Max retries exceeded with url: /2Noise/ChatTTS "
    '(Caused by NameResolutionError("<urllib3.connection.HTTPSConnection object at 0x7f>: Failed to resolve '
    "'hf-mirror.com' ([Errno -3] Temporary failure in name resolution)\"))"
)


class _Offline:
    def request(self, *_args, **_kwargs):
        raise OFFLINE

    def close(self):
        pass


@pytest.mark.parametrize(
    "source, suggested, not_suggested",
    [
        ("huggingface", "hf-mirror.com", "Hugging Face itself"),
        ("mirror", "Hugging Face itself", "hf-mirror.com"),
        ("modelscope", "hf-mirror.com", "ModelScope"),
    ],
)
def test_an_offline_download_says_so_and_suggests_only_other_sources(
    tmp_path, source, suggested, not_suggested
):
    d = ModelDownloader(
        tmp_path / "m",
        make_source(source),
        expected=dict.fromkeys(MODEL_FILES, "0" * 64),
        session=_Offline(),
        retries=1,
        backoff_s=0.0,
    )
    with pytest.raises(DownloadError) as err:
        d.run()
    message = str(err.value)
    assert "seems to be offline" in message and make_source(source).host in message
    assert "HTTPSConnectionPool" not in message and "NameResolutionError" not in message
    offered = message.split("pick another source (", 1)[1].split(")", 1)[0]
    assert suggested in offered and not_suggested not in offered


@pytest.mark.parametrize(
    "exc, words",
    [
        (
            requests.ConnectionError(
                "HTTPSConnectionPool(...): Caused by NewConnectionError(... Connection refused)"
            ),
            "did not answer",
        ),
        (
            requests.exceptions.SSLError(
                "HTTPSConnectionPool(...): Caused by SSLError(CERTIFICATE_VERIFY_FAILED)"
            ),
            "secure connection",
        ),
        (
            requests.ConnectionError("something else entirely"),
            "connection to example.org failed (ConnectionError)",
        ),
    ],
)
def test_connection_problems_in_words(exc, words):
    assert words in connection_problem("example.org", exc)


def test_suggestions_never_name_the_source_that_failed():
    assert "ModelScope" not in choices_after("modelscope")
    assert "hf-mirror" not in choices_after("mirror")
    assert all(
        "import a model folder" in choices_after(s)
        for s in ("huggingface", "mirror", "modelscope", "custom")
    )
