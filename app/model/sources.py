"""Where the official weights can be downloaded from.

Hugging Face URLs come from huggingface_hub (`hf_hub_url`), honouring HF_ENDPOINT; a mirror
is the same layout under another host. ModelScope serves a copy for users in mainland
China through its file API. Never the upstream `rvcmd` downloader.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import quote, urlparse

from app.core import SourceError
from app.i18n import _
from app.model.files import OFFICIAL_REPO

HF_DEFAULT = "https://huggingface.co"
HF_MIRROR = "https://hf-mirror.com"
MODELSCOPE = "https://www.modelscope.cn"
MODELSCOPE_REPO = "pzc163/chatTTS"
OFFICIAL_URL = f"{HF_DEFAULT}/{OFFICIAL_REPO}"


class SourceName(StrEnum):
    """The kinds of source, in the order the download dialog lists them."""

    HUGGINGFACE = "huggingface"
    MIRROR = "mirror"
    MODELSCOPE = "modelscope"
    CUSTOM = "custom"

    @property
    def takes_address(self) -> bool:
        """Whether the user types an address for it (a mirror's has a default: HF_MIRROR)."""
        return self in (SourceName.MIRROR, SourceName.CUSTOM)


SOURCE_NAMES = tuple(name.value for name in SourceName)  # plain text, for argparse and messages
DEFAULT_SOURCE = SourceName.HUGGINGFACE


@dataclass(frozen=True)
class Source:
    name: str
    endpoint: str
    repo: str = OFFICIAL_REPO
    revision: str = "main"

    @property
    def host(self) -> str:
        return urlparse(self.endpoint).netloc or self.endpoint

    def file_url(self, relpath: str) -> str:
        if self.name == SourceName.MODELSCOPE:
            return (
                f"{self.endpoint}/api/v1/models/{self.repo}/repo?Revision={self.revision}"
                f"&FilePath={quote(relpath)}"
            )
        from huggingface_hub import hf_hub_url

        return hf_hub_url(self.repo, relpath, revision=self.revision, endpoint=self.endpoint)


def make_source(name: str = DEFAULT_SOURCE, url: str | None = None) -> Source:
    if name == SourceName.HUGGINGFACE:
        return Source(
            SourceName.HUGGINGFACE, (os.environ.get("HF_ENDPOINT") or HF_DEFAULT).rstrip("/")
        )
    if name == SourceName.MIRROR:
        return Source(SourceName.MIRROR, (url or HF_MIRROR).rstrip("/"))
    if name == SourceName.MODELSCOPE:
        return Source(
            SourceName.MODELSCOPE,
            (url or MODELSCOPE).rstrip("/"),
            repo=MODELSCOPE_REPO,
            revision="master",
        )
    if name == SourceName.CUSTOM:
        if not url or not urlparse(url).scheme.startswith("http"):
            raise SourceError(
                _("A custom source needs a full http(s) address, such as {example}.").format(
                    example="https://example.com"
                )
            )
        return Source(SourceName.CUSTOM, url.rstrip("/"))
    raise SourceError(
        _("Unknown source {name}; use one of: {names}.").format(
            name=repr(name), names=", ".join(SOURCE_NAMES)
        )
    )
