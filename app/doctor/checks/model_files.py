"""model_files: every model file is present and matches its checksum."""

from app.core import ModelKind
from app.doctor.facts import OFFICIAL_URL
from app.doctor.result import Verdict
from app.i18n import N_, _, join_sentences, ngettext

ID, TITLE = "model_files", N_("Model files")


def get_model() -> str:
    return _(
        "Download the ChatTTS weights from {url} (the asset/ folder) into the model folder, or choose a "
        "folder that has them (Model > Choose model folder)."
    ).format(url=OFFICIAL_URL)


def check(s):
    v = Verdict(ID, TITLE)
    model = s.get("model")
    if model is None:
        return v.unreadable(_("the model folder"))
    files = model.get("files") or {}
    expected = model.get("expected") or sorted(files)
    where = model.get("dir") or _("the model folder")
    missing = [f for f in expected if f not in files]
    bad = [f for f, info in files.items() if info.get("sha256_ok") is False]
    if len(missing) == len(expected):
        return v.fail(_("No model in {folder}.").format(folder=where), fix=get_model())
    if missing:
        return v.fail(
            ngettext(
                "{count} model file is missing in {folder}.",
                "{count} model files are missing in {folder}.",
                len(missing),
            ).format(count=len(missing), folder=where),
            details=", ".join(missing),
            fix=get_model(),
        )
    if bad:
        return v.fail(
            ngettext(
                "{count} model file in {folder} is damaged (checksum mismatch).",
                "{count} model files in {folder} are damaged (checksum mismatch).",
                len(bad),
            ).format(count=len(bad), folder=where),
            details=", ".join(bad),
            fix=_("Download these files again: {how}").format(how=get_model()),
        )
    random_weights = model.get("kind") == ModelKind.RANDOM_WEIGHTS
    note = (
        _("It is a random-weight test model: it makes noise, not speech.") if random_weights else ""
    )
    if any(info.get("sha256_ok") is None for info in files.values()):
        return v.ok(
            join_sentences(
                [
                    _(
                        "All {count} model files are present (checksums not checked in the quick "
                        "run)."
                    ).format(count=len(expected)),
                    note,
                ]
            )
        )
    return v.ok(
        join_sentences(
            [
                _("All {count} model files are present and verified.").format(count=len(expected)),
                note,
            ]
        )
    )
