"""model_files: every model file is present and matches its checksum."""

from app.doctor.result import Verdict

ID, TITLE = "model_files", "Model files"
GET = ("Download the ChatTTS weights from https://huggingface.co/2Noise/ChatTTS (the asset/ folder) "
       "into the model folder, or choose a folder that has them (Model > Choose model folder).")


def check(s):
    v = Verdict(ID, TITLE)
    model = s.get("model")
    if model is None:
        return v.unreadable("the model folder")
    files = model.get("files") or {}
    expected = model.get("expected") or sorted(files)
    where = model.get("dir") or "the model folder"
    missing = [f for f in expected if f not in files]
    bad = [f for f, info in files.items() if info.get("sha256_ok") is False]
    if len(missing) == len(expected):
        return v.fail(f"No model in {where}.", fix=GET)
    if missing:
        return v.fail(f"{len(missing)} model file(s) are missing in {where}.",
                      details=", ".join(missing), fix=GET)
    if bad:
        return v.fail(f"{len(bad)} model file(s) in {where} are damaged (checksum mismatch).",
                      details=", ".join(bad), fix="Download these files again: " + GET)
    kind = model.get("kind") or "official"
    note = " It is a random-weight test model: it makes noise, not speech." if kind.startswith("random") else ""
    if any(info.get("sha256_ok") is None for info in files.values()):
        return v.ok(f"All {len(expected)} model files are present (checksums not checked in the quick run).{note}")
    return v.ok(f"All {len(expected)} model files are present and verified.{note}")
