"""What a failed model download says: a failed connection in words, and the other sources to
try after one source failed. ModelDownloader (download.py) joins them into its errors.
"""

from __future__ import annotations

from app.i18n import N_, _
from app.model.sources import SourceName


def is_timeout(exc: Exception) -> bool:
    """requests reports a stalled body as ConnectionError(ReadTimeoutError): a timeout too."""
    import requests
    from urllib3.exceptions import ReadTimeoutError

    return isinstance(exc, requests.Timeout) or any(
        isinstance(a, ReadTimeoutError) for a in exc.args
    )


# What to do after a source failed, suggesting only the other sources (never the one that just
# failed). Whole sentences, so that a translation need not assemble a list.
_CHOICES: dict[str, str] = {
    SourceName.HUGGINGFACE: N_(
        "Try again later, pick another source (a Hugging Face mirror such as hf-mirror.com, "
        "or ModelScope), or import a model folder you already have."
    ),
    SourceName.MIRROR: N_(
        "Try again later, pick another source (Hugging Face itself, or ModelScope), or import a "
        "model folder you already have."
    ),
    SourceName.MODELSCOPE: N_(
        "Try again later, pick another source (Hugging Face, or a Hugging Face mirror such as "
        "hf-mirror.com), or import a model folder you already have."
    ),
    SourceName.CUSTOM: N_(
        "Try again later, pick another source (Hugging Face, a Hugging Face mirror such as "
        "hf-mirror.com, or ModelScope), or import a model folder you already have."
    ),
}


def choices_after(source_name: str) -> str:
    return _(_CHOICES.get(source_name, _CHOICES[SourceName.CUSTOM]))


def connection_problem(host: str, exc: BaseException) -> str:
    """What a failed connection means, in words: requests' own text is a screenful of
    `HTTPSConnectionPool(host=..., port=443): Max retries exceeded ... NameResolutionError`."""
    text = f"{type(exc).__name__} {exc}".lower()
    if any(
        sign in text
        for sign in (
            "nameresolution",
            "failed to resolve",
            "name or service not known",
            "getaddrinfo",
            "temporary failure in name resolution",
            "nodename nor servname",
        )
    ):
        return _(
            "Could not find {host} on the network: this computer seems to be offline, or its network "
            "cannot look that address up."
        ).format(host=host)
    if "ssl" in text or "certificate" in text:
        return _(
            "The secure connection to {host} failed (a proxy or firewall in between, or a wrong clock on "
            "this computer)."
        ).format(host=host)
    if "refused" in text or "newconnectionerror" in text or "connecttimeout" in text:
        return _(
            "Could not connect to {host}: it did not answer, or a firewall or proxy blocks it."
        ).format(host=host)
    return _("The connection to {host} failed ({error}).").format(
        host=host, error=type(exc).__name__
    )
