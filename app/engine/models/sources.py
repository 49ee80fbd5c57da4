"""Where the official weights can be downloaded from.

Hugging Face URLs come from huggingface_hub (`hf_hub_url`), honouring HF_ENDPOINT; a mirror
is the same layout under another host. ModelScope serves a copy for users in mainland
China through its file API. Never the upstream `rvcmd` downloader.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import quote, urlparse

from app.engine.errors import SourceError
from app.engine.models.files import OFFICIAL_REPO
from app.i18n import _

HF_DEFAULT = "https://huggingface.co"
HF_MIRROR = "https://hf-mirror.com"
MODELSCOPE = "https://www.modelscope.cn"
MODELSCOPE_REPO = "pzc163/chatTTS"
SOURCE_NAMES = ("huggingface", "mirror", "modelscope", "custom")


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
        if self.name == "modelscope":
            return (f"{self.endpoint}/api/v1/models/{self.repo}/repo?Revision={self.revision}"
                    f"&FilePath={quote(relpath)}")
        from huggingface_hub import hf_hub_url

        return hf_hub_url(self.repo, relpath, revision=self.revision, endpoint=self.endpoint)


def make_source(name: str = "huggingface", url: str | None = None) -> Source:
    if name == "huggingface":
        return Source("huggingface", (os.environ.get("HF_ENDPOINT") or HF_DEFAULT).rstrip("/"))
    if name == "mirror":
        return Source("mirror", (url or HF_MIRROR).rstrip("/"))
    if name == "modelscope":
        return Source("modelscope", (url or MODELSCOPE).rstrip("/"), repo=MODELSCOPE_REPO, revision="master")
    if name == "custom":
        if not url or not urlparse(url).scheme.startswith("http"):
            raise SourceError(_("A custom source needs a full http(s) address, such as {example}.").format(
                example="https://example.com"))
        return Source("custom", url.rstrip("/"))
    raise SourceError(_("Unknown source {name}; use one of: {names}.").format(
        name=repr(name), names=", ".join(SOURCE_NAMES)))
