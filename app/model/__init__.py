"""The model: its folders (where they live, what is in them, fetching, importing, checking) and
its runtime, the parts built from those files by our own code (runtime/).

- dims.py, schemas.py: ModelDims, the model's sizes, read from the folder by one reader
- config.py:     ChatTTS's Config for the reference loads of the tests and `--decode upstream`
- files.py, sources.py, download.py, importer.py, store.py: the folder and how it is filled
                 (a download's progress: download_progress.py; its failures in words:
                 download_failures.py)
- runtime/:      ModelParts (tokenizer, speaker, embeddings, GPT, mel decoder, vocoder) and the
                 load's failures as the user's sentence
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.lazy_face import lazy_face

if TYPE_CHECKING:
    from app.model.config import chattts_config
    from app.model.dims import ModelDims
    from app.model.download import ModelDownloader
    from app.model.download_progress import FileState
    from app.model.files import (
        MODEL_FILES,
        OFFICIAL_DOWNLOAD_GB,
        OFFICIAL_MODEL_BYTES,
        STUDIO_CONFIG_NAME,
    )
    from app.model.importer import import_model, remove_model
    from app.model.runtime.failures import load_failures
    from app.model.runtime.parts import ModelParts, load_parts, read_llama
    from app.model.runtime.zero_init import zero_init
    from app.model.schemas import read_model_dims
    from app.model.sources import (
        DEFAULT_SOURCE,
        HF_DEFAULT,
        HF_MIRROR,
        OFFICIAL_URL,
        SOURCE_NAMES,
        SourceName,
        make_source,
    )
    from app.model.store import VERIFY_COMMAND, ModelStore, file_sha256

__all__ = [
    "DEFAULT_SOURCE",
    "HF_DEFAULT",
    "HF_MIRROR",
    "MODEL_FILES",
    "OFFICIAL_DOWNLOAD_GB",
    "OFFICIAL_MODEL_BYTES",
    "OFFICIAL_URL",
    "SOURCE_NAMES",
    "STUDIO_CONFIG_NAME",
    "VERIFY_COMMAND",
    "FileState",
    "ModelDims",
    "ModelDownloader",
    "ModelParts",
    "ModelStore",
    "SourceName",
    "chattts_config",
    "file_sha256",
    "import_model",
    "load_failures",
    "load_parts",
    "make_source",
    "read_llama",
    "read_model_dims",
    "remove_model",
    "zero_init",
]

# Each name's module loads when the name is first read (tests/checks/test_package_faces.py).
__getattr__ = lazy_face(
    __name__,
    {
        "DEFAULT_SOURCE": "app.model.sources",
        "FileState": "app.model.download_progress",
        "HF_DEFAULT": "app.model.sources",
        "HF_MIRROR": "app.model.sources",
        "MODEL_FILES": "app.model.files",
        "ModelDims": "app.model.dims",
        "ModelDownloader": "app.model.download",
        "ModelParts": "app.model.runtime.parts",
        "ModelStore": "app.model.store",
        "OFFICIAL_DOWNLOAD_GB": "app.model.files",
        "OFFICIAL_MODEL_BYTES": "app.model.files",
        "OFFICIAL_URL": "app.model.sources",
        "SOURCE_NAMES": "app.model.sources",
        "STUDIO_CONFIG_NAME": "app.model.files",
        "SourceName": "app.model.sources",
        "VERIFY_COMMAND": "app.model.store",
        "chattts_config": "app.model.config",
        "file_sha256": "app.model.store",
        "import_model": "app.model.importer",
        "load_failures": "app.model.runtime.failures",
        "load_parts": "app.model.runtime.parts",
        "make_source": "app.model.sources",
        "read_llama": "app.model.runtime.parts",
        "read_model_dims": "app.model.schemas",
        "remove_model": "app.model.importer",
        "zero_init": "app.model.runtime.zero_init",
    },
)
