"""Writes the scenario snapshots in tests/doctor/snapshots/ (run by hand after changing one).

Each scenario is a complete snapshot in the shared format: a healthy Windows machine with
an RTX 3060 (or a Linux one), changed in the few fields the scenario is about.

    python tests/doctor/build_snapshots.py
"""

import copy
import json
from pathlib import Path

OUT = Path(__file__).parent / "snapshots"
ARCH_CU128 = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]
ARCH_CU126 = ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]
SYS_PATH = r"C:\Windows\system32;C:\Windows;C:\Windows\System32\Wbem;C:\Windows\System32\WindowsPowerShell\v1.0\;C:\Program Files\Git\cmd"
USER_PATH = r"C:\Users\alice\AppData\Local\Microsoft\WindowsApps"
GFX = r"HKLM\SYSTEM\CurrentControlSet\Control\GraphicsDrivers"
USER_ENV = r"HKCU\Environment"
SYS_ENV = r"HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment"
FS = r"HKLM\SYSTEM\CurrentControlSet\Control\FileSystem"
MODEL_FILES = [
    "asset/Decoder.safetensors",
    "asset/DVAE.safetensors",
    "asset/Embed.safetensors",
    "asset/Vocos.safetensors",
    "asset/gpt/config.json",
    "asset/gpt/model.safetensors",
    "asset/tokenizer/special_tokens_map.json",
    "asset/tokenizer/tokenizer_config.json",
    "asset/tokenizer/tokenizer.json",
]
MODELS = r"C:\Users\alice\AppData\Local\ChatTTS Studio\models\ChatTTS"

WINDOWS_FINE = {
    "snapshot_version": 1,
    "os": {"system": "Windows", "release": "10", "version": "10.0.22631", "machine": "AMD64"},
    "python": {
        "version": "3.11.7",
        "bits": 64,
        "executable": r"C:\Program Files\ChatTTS Studio\chattts-studio.exe",
        "frozen": True,
    },
    "env": {
        "PATH": SYS_PATH + ";" + USER_PATH,
        "CUDA_PATH": None,
        "HF_ENDPOINT": None,
        "HF_HOME": None,
        "TEMP": r"C:\Users\alice\AppData\Local\Temp",
        "WSL_DISTRO_NAME": None,
    },
    "registry": {
        GFX: {"TdrDelay": 60, "TdrDdiDelay": 60},
        USER_ENV: {"Path": USER_PATH},
        SYS_ENV: {"Path": SYS_PATH},
        FS: {"LongPathsEnabled": 1},
    },
    "nvidia": {
        "driver_version": "572.61",
        "cuda_driver_version": 12080,
        "gpus": [
            {
                "name": "NVIDIA GeForce RTX 3060",
                "memory_total_mb": 12288,
                "memory_free_mb": 11000,
                "compute_capability": [8, 6],
                "driver_model": "WDDM",
            }
        ],
    },
    "torch": {
        "version": "2.14.1+cu128",
        "cuda": "12.8",
        "cudnn": 91000,
        "cuda_available": True,
        "arch_list": ARCH_CU128,
        "kernel_ok": True,
        "import_error": None,
    },
    "wsl": {"installed": False, "distros": [], "inside_wsl": False, "libcuda_paths": []},
    "dlls": {
        "vcruntime140.dll": True,
        "vcruntime140_1.dll": True,
        "msvcp140.dll": True,
        "vcruntime140_threads.dll": True,
        "msvcp140_atomic_wait.dll": True,
    },
    "paths": {
        "home": r"C:\Users\alice",
        "app": r"C:\Program Files\ChatTTS Studio",
        "models": MODELS,
        "temp": r"C:\Users\alice\AppData\Local\Temp",
    },
    "code_page": 936,
    "disk_free_bytes": {"models": 52_000_000_000},
    "model": {
        "dir": MODELS,
        "expected": MODEL_FILES,
        "kind": "official",
        "files": {f: {"size": 1000, "sha256_ok": True} for f in MODEL_FILES},
    },
    "network": {"hub_endpoint": "https://huggingface.co", "hub_reachable": True, "error": None},
    "audio": {
        "portaudio": True,
        "output_devices": ["Speakers (Realtek)"],
        "default_output": "Speakers (Realtek)",
    },
    "hotkeys": {
        "library": True,
        "error": None,
        "session": "windows",
        "hotkey": "Ctrl+Alt+R",
        "taken": False,
    },
    "env_block_bytes": 6000,
    "path_missing": [],
}


def scenario(name, change):
    snap = copy.deepcopy(WINDOWS_FINE)
    change(snap)
    (OUT / f"{name}.json").write_text(
        json.dumps(snap, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def cpu_torch(s):
    s["torch"].update(
        version="2.14.1",
        cuda=None,
        cudnn=None,
        cuda_available=False,
        arch_list=None,
        kernel_ok=None,
    )


def old_driver(s):
    s["nvidia"].update(driver_version="516.94", cuda_driver_version=11070)
    s["torch"].update(cuda_available=False, kernel_ok=None)


def minor_mismatch(s):
    s["nvidia"].update(driver_version="546.12", cuda_driver_version=12030)


def rtx50_cu126(s):
    s["nvidia"]["gpus"][0].update(
        name="NVIDIA GeForce RTX 5090",
        memory_total_mb=32607,
        memory_free_mb=30000,
        compute_capability=[12, 0],
    )
    s["torch"].update(
        version="2.6.0+cu126",
        cuda="12.6",
        arch_list=ARCH_CU126,
        kernel_ok=False,
        kernel_error="CUDA error: no kernel image is available for execution on the device",
    )


def tdr_default(s):
    s["registry"][GFX] = {}


def long_path_env(s):
    long_sys = ";".join(
        [SYS_PATH] + [rf"C:\Program Files\Vendor{i}\Some Long Tool Name\bin" for i in range(220)]
    )
    s["registry"][SYS_ENV]["Path"] = long_sys
    s["env"]["PATH"] = long_sys + ";" + USER_PATH


def two_cuda(s):
    cuda = r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA"
    s["env"]["PATH"] = rf"{cuda}\v11.8\bin;{cuda}\v12.4\bin;" + s["env"]["PATH"]
    s["env"]["CUDA_PATH"] = rf"{cuda}\v12.4"


def wsl_linux_driver(s):
    s["os"] = {
        "system": "Linux",
        "release": "5.15.153.1-microsoft-standard-WSL2",
        "version": "#1 SMP",
        "machine": "x86_64",
    }
    s["python"].update(executable="/home/alice/.venv/bin/python", frozen=False)
    s["env"] = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "CUDA_PATH": None,
        "HF_ENDPOINT": None,
        "HF_HOME": None,
        "TEMP": "/tmp",
        "WSL_DISTRO_NAME": "Ubuntu",
    }
    s["registry"] = None
    s["dlls"] = None
    s["code_page"] = None
    s["nvidia"]["gpus"][0]["driver_model"] = None
    s["wsl"] = {
        "installed": True,
        "distros": [],
        "inside_wsl": True,
        "libcuda_paths": [
            "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
            "/usr/lib/wsl/lib/libcuda.so.1",
        ],
    }
    s["torch"].update(cuda_available=False, kernel_ok=None)
    s["paths"] = {
        "home": "/home/alice",
        "app": "/home/alice/chattts-studio",
        "models": "/home/alice/models",
        "temp": "/tmp",
    }


def chinese_user(s):
    s["paths"].update(
        home=r"C:\Users\张伟",
        temp=r"C:\Users\张伟\AppData\Local\Temp",
        models=r"C:\Users\张伟\AppData\Local\ChatTTS Studio\models\ChatTTS",
    )
    s["env"]["TEMP"] = r"C:\Users\张伟\AppData\Local\Temp"
    s["code_page"] = 936


def no_vcruntime(s):
    s["dlls"]["vcruntime140_1.dll"] = False


def vcruntime_before_14_38(s):
    """A Visual C++ 2015-2022 redistributable older than 14.38: the base DLLs, no threads DLL
    (torch_cpu.dll imports it: `import torch` fails with WinError 126)."""
    s["dlls"]["vcruntime140_threads.dll"] = False


def torch_winerror126(s):
    s["torch"] = {
        "version": "2.4.0",
        "cuda": "12.1",
        "cudnn": None,
        "cuda_available": None,
        "arch_list": None,
        "kernel_ok": None,
        "import_error": "OSError: [WinError 126] The specified module could not be found. "
        r'Error loading "C:\Program Files\Python311\Lib\site-packages\torch\lib\fbgemm.dll" or one of its dependencies.',
    }


def no_gpu(s):
    s["nvidia"] = None
    cpu_torch(s)


def low_vram(s):
    s["nvidia"]["gpus"][0].update(
        name="NVIDIA GeForce GTX 1650",
        memory_total_mb=4096,
        memory_free_mb=1200,
        compute_capability=[7, 5],
    )


def hub_unreachable(s):
    s["network"] = {
        "hub_endpoint": "https://huggingface.co",
        "hub_reachable": False,
        "error": "ConnectTimeout: timed out",
    }
    s["model"]["files"] = {}


def linux_cpu(s):
    no_gpu(s)
    s["os"] = {"system": "Linux", "release": "6.8.0", "version": "#1 SMP", "machine": "x86_64"}
    s["env"] = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "CUDA_PATH": None,
        "HF_ENDPOINT": None,
        "HF_HOME": None,
        "TEMP": "/tmp",
        "WSL_DISTRO_NAME": None,
    }
    s["registry"] = s["dlls"] = s["code_page"] = None
    s["paths"] = {
        "home": "/home/bob",
        "app": "/opt/chattts-studio",
        "models": "/home/bob/models",
        "temp": "/tmp",
    }
    s["hotkeys"].update(session="x11")


def linux_wayland(s):
    linux_cpu(s)
    s["hotkeys"].update(
        library=False,
        session="wayland",
        taken=None,
        error="ImportError: this platform is not supported: failed to acquire X connection",
    )


def linux_hotkey_taken(s):
    linux_cpu(s)
    s["hotkeys"].update(taken=True)


def win_hotkey_library_missing(s):
    s["hotkeys"].update(
        library=False, taken=None, error="ModuleNotFoundError: No module named 'pynput'"
    )


def long_path_disabled(s):
    deep = r"C:\Users\alice\Documents\Projects\Audio Work\Text To Speech Experiments\ChatTTS Studio Models\Downloaded Versions\Official Release From Hugging Face\2Noise ChatTTS Weights Folder\model"
    s["registry"][FS] = {"LongPathsEnabled": 0}
    s["paths"]["models"] = deep


def gtx1080_cu128(s):
    s["nvidia"]["gpus"][0].update(
        name="NVIDIA GeForce GTX 1080",
        memory_total_mb=8192,
        memory_free_mb=7500,
        compute_capability=[6, 1],
    )
    s["torch"].update(kernel_ok=False, kernel_error="no kernel image is available")


def corrupt_model(s):
    s["model"]["files"]["asset/gpt/model.safetensors"]["sha256_ok"] = False


def unreadable(s):
    s["torch"] = None
    s["registry"] = None
    s["probe_errors"] = {
        "torch": "timed out after 60 s",
        "registry": "PermissionError: access denied",
    }


SCENARIOS = {
    "win_fine": lambda s: None,
    "win_cpu_torch_rtx": cpu_torch,
    "win_driver_too_old_major": old_driver,
    "win_driver_minor_mismatch": minor_mismatch,
    "win_rtx5090_cu126": rtx50_cu126,
    "win_tdr_default": tdr_default,
    "win_path_over_8191": long_path_env,
    "win_two_cuda_bins": two_cuda,
    "wsl_linux_driver_inside": wsl_linux_driver,
    "win_chinese_user_cp936": chinese_user,
    "win_missing_vcruntime": no_vcruntime,
    "win_vcruntime_before_14_38": vcruntime_before_14_38,
    "win_torch_winerror126": torch_winerror126,
    "win_no_gpu": no_gpu,
    "win_low_vram": low_vram,
    "win_hub_unreachable_no_model": hub_unreachable,
    "linux_cpu_only": linux_cpu,
    "linux_wayland_no_hotkeys": linux_wayland,
    "linux_hotkey_taken": linux_hotkey_taken,
    "win_hotkey_library_missing": win_hotkey_library_missing,
    "win_long_path_disabled": long_path_disabled,
    "win_gtx1080_cu128": gtx1080_cu128,
    "win_corrupt_model": corrupt_model,
    "win_probes_unreadable": unreadable,
}

if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    for name, change in SCENARIOS.items():
        scenario(name, change)
    print(f"wrote {len(SCENARIOS)} snapshots to {OUT}")
