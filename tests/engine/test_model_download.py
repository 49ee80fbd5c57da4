"""Downloads from a local stand-in hub: resume, corruption, server down, cancel, disk space."""

import json
import shutil
import socket
from pathlib import Path

import pytest

from app.core.errors import DownloadCancelled, DownloadError, SourceError
from app.model.download import ModelDownloader
from app.model.download_progress import FileState
from app.model.files import (
    MODEL_FILES,
    PART_SUFFIX,
    PARTIAL_DIR,
    QUARANTINE_DIR,
    STUDIO_CONFIG_NAME,
)
from app.model.importer import find_model_root, import_model, remove_model
from app.model.sources import Source, make_source
from app.model.store import ModelStore
from tests.support.fake_hub import FakeHub


@pytest.fixture
def hashes(tiny_model):
    return json.loads((tiny_model / STUDIO_CONFIG_NAME).read_text())["sha256"]


@pytest.fixture
def hub(tiny_model):
    with FakeHub(tiny_model) as h:
        yield h


def downloader(target, hub, hashes, **kw):
    return ModelDownloader(
        target, Source("custom", hub.endpoint), expected=hashes, backoff_s=0.01, timeout_s=10, **kw
    )


def same_files(a: Path, b: Path) -> bool:
    return all((a / rel).read_bytes() == (b / rel).read_bytes() for rel in MODEL_FILES)


def test_full_download_with_progress(tmp_path, hub, hashes, tiny_model):
    seen = []
    progress = downloader(
        tmp_path / "m",
        hub,
        hashes,
        on_progress=lambda p: seen.append((p.done_bytes, p.total_bytes)),
    ).run()
    assert same_files(tmp_path / "m", tiny_model)
    assert all(f.state is FileState.OK and f.sha256_ok for f in progress.files)
    total = sum((tiny_model / rel).stat().st_size for rel in MODEL_FILES)
    assert seen[-1] == (total, total)
    assert not (tmp_path / "m" / PARTIAL_DIR).exists()


def test_dropped_connection_resumes_without_starting_over(tmp_path, hub, hashes, tiny_model):
    big = "asset/Embed.safetensors"
    size = (tiny_model / big).stat().st_size
    hub.drop_after[big] = size // 2
    downloader(tmp_path / "m", hub, hashes).run()
    assert same_files(tmp_path / "m", tiny_model)
    from app.model.download import CHUNK

    gets = [r for (method, rel, r) in hub.log if method == "GET" and rel == big]
    assert gets[0] is None and gets[1].startswith("bytes=")
    resumed_at = int(gets[1][6:-1])
    # Resumed near the break (a partly received block is asked for again), not from zero.
    assert size // 2 - 2 * CHUNK <= resumed_at <= size // 2


def test_resume_after_a_restart_uses_the_partial_file(tmp_path, hub, hashes, tiny_model):
    big = "asset/Embed.safetensors"
    part = tmp_path / "m" / PARTIAL_DIR / (big + PART_SUFFIX)
    part.parent.mkdir(parents=True)
    part.write_bytes((tiny_model / big).read_bytes()[:1000])
    downloader(tmp_path / "m", hub, hashes).run()
    assert ("GET", big, "bytes=1000-") in hub.log
    assert same_files(tmp_path / "m", tiny_model)


def test_corrupted_file_is_quarantined_and_fetched_again(tmp_path, hub, hashes, tiny_model):
    hub.corrupt_once.add("asset/Vocos.safetensors")
    progress = downloader(tmp_path / "m", hub, hashes).run()
    assert same_files(tmp_path / "m", tiny_model)
    quarantined = list((tmp_path / "m" / QUARANTINE_DIR).rglob("*"))
    assert any(p.name.startswith("Vocos.safetensors.") for p in quarantined)
    assert (
        next(f for f in progress.files if f.relpath == "asset/Vocos.safetensors").state
        is FileState.OK
    )


def test_server_down_names_the_host_and_the_choices(tmp_path, hashes):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    d = ModelDownloader(
        tmp_path / "m",
        Source("custom", f"http://127.0.0.1:{port}"),
        expected=hashes,
        retries=1,
        backoff_s=0.01,
        timeout_s=2,
    )
    with pytest.raises(DownloadError) as err:
        d.run()
    message = str(err.value)
    assert f"127.0.0.1:{port}" in message and "ModelScope" in message and "import" in message
    assert not any(p.is_file() for p in (tmp_path / "m").rglob("*") if PARTIAL_DIR not in p.parts)


def test_cancel_leaves_the_old_model_intact(tmp_path, hub, hashes, tiny_model, model_copy):
    # An older good model is in place except one file that needs fetching.
    (model_copy / "asset/Embed.safetensors").unlink()
    before = {
        rel: (model_copy / rel).read_bytes() for rel in MODEL_FILES if (model_copy / rel).exists()
    }
    d = downloader(model_copy, hub, hashes)
    d.on_progress = lambda p: d.cancel() if p.done_bytes > 0 else None
    with pytest.raises(DownloadCancelled):
        d.run()
    after = {
        rel: (model_copy / rel).read_bytes() for rel in MODEL_FILES if (model_copy / rel).exists()
    }
    assert after == before  # nothing replaced, nothing half-written in place
    assert not (model_copy / "asset/Embed.safetensors").exists()


def test_not_enough_disk_space_is_refused_before_starting(tmp_path, hub, hashes, monkeypatch):
    import app.model.download as md

    monkeypatch.setattr(
        md.shutil, "disk_usage", lambda p: shutil._ntuple_diskusage(10**9, 10**9, 1000)
    )
    with pytest.raises(DownloadError, match="Not enough disk space"):
        downloader(tmp_path / "m", hub, hashes).run()
    assert not [entry for entry in hub.log if entry[0] == "GET"]


def test_a_damaged_file_already_in_the_folder_is_found_by_hashing_and_fetched_again(
    hub, hashes, model_copy, tiny_model
):
    """Same size, one byte changed: only its hash can tell. It is fetched again; the rest stays."""
    from app.model.store import ModelStore

    damaged = model_copy / "asset/Decoder.safetensors"
    ModelStore(model_copy).verify()  # remembered as good ...
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0x01
    damaged.write_bytes(bytes(data))  # ... then damaged on disk
    progress = downloader(model_copy, hub, hashes).run()
    assert damaged.read_bytes() == (tiny_model / "asset/Decoder.safetensors").read_bytes()
    assert [rel for (method, rel, _r) in hub.log if method == "GET"] == [
        "asset/Decoder.safetensors"
    ]
    states = {f.relpath: f.state for f in progress.files}
    assert states.pop("asset/Decoder.safetensors") is FileState.OK
    assert set(states.values()) == {FileState.PRESENT}


def test_a_server_that_ignores_range_restarts_the_file_cleanly(tmp_path, hub, hashes, tiny_model):
    """The partial file is resumed with a Range request; this server answers 200 with the whole
    file, which must replace the partial bytes, not be appended to them."""
    big = "asset/Embed.safetensors"
    part = tmp_path / "m" / PARTIAL_DIR / (big + PART_SUFFIX)
    part.parent.mkdir(parents=True)
    part.write_bytes((tiny_model / big).read_bytes()[:1000])
    hub.ignore_range = True
    seen = []
    d = downloader(
        tmp_path / "m",
        hub,
        hashes,
        on_progress=lambda p: seen.append(next(f.done for f in p.files if f.relpath == big)),
    )
    d.run()
    assert same_files(tmp_path / "m", tiny_model)
    assert [r for (method, rel, r) in hub.log if method == "GET" and rel == big] == ["bytes=1000-"]
    assert not (tmp_path / "m" / QUARANTINE_DIR).exists()  # right the first time
    assert max(seen) == (tiny_model / big).stat().st_size  # progress did not count 1000 twice


def test_present_good_files_are_not_downloaded_again(hub, hashes, model_copy):
    downloader(model_copy, hub, hashes).run()
    assert not [entry for entry in hub.log if entry[0] in ("GET", "HEAD")]


def test_hf_endpoint_and_sources(monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", "https://hf.example.com/")
    src = make_source("huggingface")
    assert (
        src.file_url("asset/gpt/config.json")
        == "https://hf.example.com/2Noise/ChatTTS/resolve/main/asset/gpt/config.json"
    )
    assert make_source("mirror").host == "hf-mirror.com"
    assert "FilePath=asset/gpt/config.json" in make_source("modelscope").file_url(
        "asset/gpt/config.json"
    )

    with pytest.raises(SourceError):
        make_source("custom", "ftp://nope")


def test_import_official_layout_and_hf_cache(tmp_path, tiny_model):
    report = import_model(tiny_model, tmp_path / "copy")
    assert report.ok and same_files(tmp_path / "copy", tiny_model)
    # A Hugging Face cache: snapshots/<rev>/ holds symlinks into blobs/.
    cache = tmp_path / "hub" / "models--2Noise--ChatTTS"
    snap = cache / "snapshots" / "abc123"
    for rel in MODEL_FILES:
        blob = cache / "blobs" / rel.replace("/", "_")
        blob.parent.mkdir(parents=True, exist_ok=True)
        blob.write_bytes((tiny_model / rel).read_bytes())
        (snap / rel).parent.mkdir(parents=True, exist_ok=True)
        (snap / rel).symlink_to(blob)
    shutil.copy(tiny_model / STUDIO_CONFIG_NAME, snap / STUDIO_CONFIG_NAME)
    assert find_model_root(tmp_path / "hub") == snap
    report = import_model(cache, tmp_path / "from-cache", link=True)
    assert report.ok
    assert not (tmp_path / "from-cache" / "asset/Vocos.safetensors").is_symlink()


def test_import_refuses_incomplete_or_damaged_sources(tmp_path, model_copy):
    from app.core.errors import ModelCorruptError, ModelMissingError

    (model_copy / "asset/DVAE.safetensors").write_bytes(b"junk")
    with pytest.raises(ModelCorruptError, match="asset/DVAE.safetensors"):
        import_model(model_copy, tmp_path / "dest")
    assert not (tmp_path / "dest").exists() or not any((tmp_path / "dest").rglob("*.safetensors"))
    (model_copy / "asset/DVAE.safetensors").unlink()
    with pytest.raises(ModelMissingError, match="1 of 9"):
        import_model(model_copy, tmp_path / "dest")


def test_remove_deletes_only_model_files(model_copy):
    (model_copy / "notes.txt").write_text("mine")
    remove_model(model_copy)
    assert ModelStore(model_copy).missing() == list(MODEL_FILES)
    assert (model_copy / "notes.txt").read_text() == "mine"


def test_files_are_hashed_once_not_again_by_the_report(hub, hashes, model_copy, monkeypatch):
    import app.model.store as ms

    (model_copy / "asset/Vocos.safetensors").unlink()
    downloader(model_copy, hub, hashes).run()
    calls = []
    real = ms.file_sha256
    monkeypatch.setattr(ms, "file_sha256", lambda p: calls.append(p) or real(p))
    report = ModelStore(model_copy).verify()
    assert report.ok and calls == []
