"""A damaged library is set aside under a dated name, the last good backup restored, the user told."""

import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing

import pytest

from app.core import sqlite_file
from app.core.errors import LibraryError
from app.library import Library, Voice, VoiceLibrary, recovery
from app.library.recovery import KEEP_BACKUPS, backups


def _damage(path):
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the header's tail and the schema page
    path.write_bytes(bytes(data))


def test_a_damaged_database_is_set_aside_and_the_backup_restored(tmp_path):
    lib = Library(tmp_path)
    VoiceLibrary(lib).save(Voice(name="kept", speaker="abc"))
    Library(tmp_path)  # a later start backs up the library with "kept"
    VoiceLibrary(lib).save(Voice(name="after the backup", speaker="def"))
    lib.rows("PRAGMA wal_checkpoint(TRUNCATE)")
    _damage(lib.path)

    reopened = Library(tmp_path)
    assert [n.kind for n in reopened.notices] == ["restored"]
    aside = next(tmp_path.glob("library.sqlite3.damaged-*"))
    assert str(aside) in reopened.notices[0].message
    assert [v.name for v in VoiceLibrary(reopened).list()] == ["kept"]
    assert aside.stat().st_size > 0  # the damaged file is kept for the user


def test_no_usable_backup_starts_a_new_library_and_says_so(tmp_path):
    (tmp_path / "library.sqlite3").write_bytes(b"this is not a database at all" * 200)
    lib = Library(tmp_path)
    assert [n.kind for n in lib.notices] == ["damaged_no_backup"]
    assert next(tmp_path.glob("library.sqlite3.damaged-*")).read_bytes().startswith(b"this is not")
    assert VoiceLibrary(lib).list() == []


def test_backups_rotate_and_only_ours_are_removed(tmp_path):
    mine = tmp_path / "backups" / "my notes.sqlite3"
    mine.parent.mkdir(parents=True)
    mine.write_text("user file")
    for _ in range(KEEP_BACKUPS + 3):
        Library(tmp_path)
    assert len(backups(tmp_path / "backups")) == KEEP_BACKUPS
    assert mine.read_text() == "user file"


def test_two_processes_writing_at_once_lose_no_row(tmp_path):
    script = textwrap.dedent(f"""
        import sys
        import numpy as np
        from app.library import HistoryStore, Library, PronunciationDictionary, Voice, VoiceLibrary
        from app.core import ModelKind
        from app.core.request import SynthesisRequest, SynthesisResult
        tag = sys.argv[1]
        lib = Library({str(tmp_path)!r})
        history, voices = HistoryStore(lib), VoiceLibrary(lib)
        audio = np.zeros(48, dtype=np.float32)
        for i in range(40):
            voices.save(Voice(name=f"{{tag}}-{{i}}", speaker="abc"))
            words = PronunciationDictionary(lib)
            words.set(f"{{tag}}{{i}}", "x")
            words.save()
            history.add(SynthesisRequest(f"{{tag}} {{i}}"), SynthesisResult(audio, 24000, "cpu", "", 1, 1, 0.1), ModelKind.RANDOM_WEIGHTS)
    """)
    procs = [
        subprocess.Popen([sys.executable, "-c", script, tag], stderr=subprocess.PIPE)
        for tag in "ab"
    ]
    errors = [p.communicate(timeout=300)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    lib = Library(tmp_path)
    assert len(VoiceLibrary(lib).list()) == 80
    from app.library import HistoryStore, PronunciationDictionary

    assert len(PronunciationDictionary(lib).entries) == 80
    assert sorted(e.text for e in HistoryStore(lib).entries()) == sorted(
        f"{t} {i}" for t in "ab" for i in range(40)
    )


def test_a_library_another_program_keeps_locked_is_not_taken_for_damaged(tmp_path, monkeypatch):
    """Locked past the timeout, the library cannot be opened, and says so; it is not set aside
    and replaced by its last backup (rows written since would have gone with it)."""
    Library(tmp_path)
    monkeypatch.setattr(recovery, "HEALTH_CHECK_TIMEOUT_S", 0.2)
    monkeypatch.setattr(sqlite_file, "BUSY_TIMEOUT_S", 0.2)
    with closing(
        sqlite3.connect(str(tmp_path / "library.sqlite3"), isolation_level=None)
    ) as holder:
        holder.execute("PRAGMA locking_mode=EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("CREATE TABLE held (x)")
        with pytest.raises(LibraryError, match="locked"):
            Library(tmp_path)
        holder.execute("ROLLBACK")
    assert not list(tmp_path.glob("*.damaged*"))
    assert Library(tmp_path).path.exists()


def _library_with_a_backed_up_voice(tmp_path):
    lib = Library(tmp_path)
    VoiceLibrary(lib).save(Voice(name="kept", speaker="abc"))
    Library(tmp_path)  # a later start backs it up with "kept"
    lib.rows("PRAGMA wal_checkpoint(TRUNCATE)")
    return lib


def test_a_zero_byte_library_with_backups_is_damage_and_the_backup_restored(tmp_path):
    """SQLite's quick_check says "ok" for an empty file: it was taken for a new library."""
    lib = _library_with_a_backed_up_voice(tmp_path)
    lib.path.write_bytes(b"")

    reopened = Library(tmp_path)
    assert [n.kind for n in reopened.notices] == ["empty_restored"]
    aside = next(tmp_path.glob("library.sqlite3.damaged-*"))
    assert aside.stat().st_size == 0
    assert str(aside) in reopened.notices[0].message and "backups" in reopened.notices[0].message
    assert [v.name for v in VoiceLibrary(reopened).list()] == ["kept"]


def test_a_missing_library_with_backups_is_restored_and_said(tmp_path):
    lib = _library_with_a_backed_up_voice(tmp_path)
    for name in ("library.sqlite3", "library.sqlite3-wal", "library.sqlite3-shm"):
        (tmp_path / name).unlink(missing_ok=True)

    reopened = Library(tmp_path)
    assert [n.kind for n in reopened.notices] == ["missing_restored"]
    assert "was missing" in reopened.notices[0].message
    assert [v.name for v in VoiceLibrary(reopened).list()] == ["kept"]
    assert lib.path.exists()


def test_a_missing_library_whose_backups_hold_nothing_is_a_quiet_new_start(tmp_path):
    Library(tmp_path)
    Library(tmp_path)
    (tmp_path / "library.sqlite3").unlink()
    assert Library(tmp_path).notices == []


def test_rotation_never_pushes_out_the_last_backup_that_holds_data(tmp_path):
    lib = _library_with_a_backed_up_voice(tmp_path)
    with lib.transaction() as con:  # the user empties the library on purpose...
        con.execute("DELETE FROM voices")
    for _ in range(KEEP_BACKUPS + 2):  # ...and starts several times: each backs up an empty one
        Library(tmp_path)
    kept = backups(tmp_path / "backups")
    assert len(kept) == KEEP_BACKUPS + 1
    assert [recovery.holds_data(p) for p in kept] == [False] * KEEP_BACKUPS + [True]
    lib.path.write_bytes(b"")  # and the data can still come back
    assert [v.name for v in VoiceLibrary(Library(tmp_path)).list()] == ["kept"]
