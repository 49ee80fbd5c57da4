"""Model > Device: a device that cannot run is not offered (disabled, the doctor's reason beside
it), and a switch that fails goes back to the device that worked, says so, and is not saved.
Choosing the GPU on a machine without one used to unload the working model, disable Play, and
be saved, so the next start failed too."""

from app.core.errors import DeviceError
from app.synthesis.synthesizer import Synthesizer
from app.ui.controllers import ModelState
from app.ui.settings import Settings
from tests.ui.conftest import LOAD_TIMEOUT_MS
from tests.ui.test_doctor_ui import snapshot_probe

NO_GPU = "No NVIDIA GPU in this test."


def no_gpu_probe(device):
    return NO_GPU if device == "cuda" else None


def gpu_that_fails_to_load():
    """A synthesizer factory whose GPU load fails as a real one does (a DeviceError before any work)."""
    devices = []

    def factory(root, device, precision="auto"):
        devices.append(device)
        if device == "cuda":
            raise DeviceError("The GPU cannot be used: a CUDA kernel failed to run (test).")
        return Synthesizer(root, device="cpu")

    factory.devices = devices
    return factory


def _open_model_menu(window):
    window.menus.menus["model"].aboutToShow.emit()
    return window.menus.actions


def test_a_device_that_cannot_run_is_disabled_with_the_reason(make_window):
    window = make_window(device_probe=no_gpu_probe, synthesizer_factory=gpu_that_fails_to_load())
    actions = _open_model_menu(window)
    gpu = actions["device.cuda"]
    assert not gpu.isEnabled()
    assert NO_GPU in gpu.text() and gpu.toolTip() == NO_GPU
    assert actions["device.cpu"].isEnabled() and actions["device.auto"].isEnabled()
    assert actions["device.cpu"].text() == "Device: CPU"  # nothing beside a device that runs


def test_the_doctor_s_reason_disables_the_gpu_without_a_fake(make_window):
    """With no probe of its own the window asks the doctor's quick checks (here: a machine
    without an NVIDIA GPU)."""
    window = make_window(
        doctor_probe_factory=snapshot_probe("linux_cpu_only"),
        synthesizer_factory=gpu_that_fails_to_load(),
    )
    gpu = _open_model_menu(window)["device.cuda"]
    assert not gpu.isEnabled() and gpu.toolTip() == "No NVIDIA GPU was found."


def test_a_switch_that_fails_goes_back_to_the_device_that_worked_and_is_not_saved(
    qtbot, make_window, settings
):
    settings.device = "cpu"
    synth = gpu_that_fails_to_load()
    window = make_window(doctor_probe_factory=snapshot_probe("win_fine"), synthesizer_factory=synth)
    assert synth.devices == ["cpu"] and window.model.state is ModelState.READY
    assert _open_model_menu(window)["device.cuda"].isEnabled()  # the doctor found a working GPU

    window.menus.actions["device.cuda"].trigger()
    qtbot.waitUntil(
        lambda: synth.devices[-2:] == ["cuda", "cpu"] and window.model.state is ModelState.READY,
        timeout=LOAD_TIMEOUT_MS,
    )
    assert window.model.status.device == "cpu"
    assert window.play_button.isEnabled()
    text = window.model_banner.text()
    assert text.startswith(
        "The model stays on the CPU: the NVIDIA GPU cannot be used, and it was not "
        "saved as your choice."
    )
    assert "a CUDA kernel failed to run (test)" in text
    assert window.model_banner.button.text() == "Dismiss" and window.model_banner.button2.isHidden()
    assert settings.device == "cpu" and Settings().device == "cpu"
    assert _open_model_menu(window)["device.cpu"].isChecked()
    window.model_banner.button.click()
    assert "cannot be used" not in window.model_banner.text()  # what shows now is the test model's
    assert window.model.device_notice is None


def test_a_switch_that_works_is_saved(qtbot, make_window, settings):
    synth = gpu_that_fails_to_load()
    window = make_window(device_probe=no_gpu_probe, synthesizer_factory=synth)
    assert settings.device == "auto"
    window.menus.actions["device.cpu"].trigger()
    qtbot.waitUntil(
        lambda: synth.devices[-1] == "cpu" and window.model.state is ModelState.READY,
        timeout=LOAD_TIMEOUT_MS,
    )
    assert Settings().device == "cpu" and "cannot be used" not in window.model_banner.text()


def test_a_gpu_saved_earlier_on_a_machine_without_one_starts_on_the_cpu_and_says_why(
    make_window, settings
):
    settings.device = "cuda"
    synth = gpu_that_fails_to_load()
    window = make_window(device_probe=no_gpu_probe, synthesizer_factory=synth)
    assert synth.devices == ["cpu"] and window.model.state is ModelState.READY
    assert window.model_banner.text() == (
        f"The model runs on the CPU: your saved device, the NVIDIA GPU, cannot be used. {NO_GPU}"
    )


def test_a_refused_device_leaves_the_loaded_model_alone(make_window):
    synth = gpu_that_fails_to_load()
    window = make_window(device_probe=no_gpu_probe, synthesizer_factory=synth)
    loaded = list(synth.devices)
    window.model.set_device("cuda")  # a disabled entry, asked anyway (a shortcut, a script)
    assert synth.devices == loaded and window.model.state is ModelState.READY
    assert NO_GPU in window.model_banner.text()


def test_a_device_chosen_while_a_load_runs_is_judged_by_its_own_load(qtbot, make_window, settings):
    """The load already running ends well on the CPU; the GPU's own load then fails: the window
    goes back to the CPU and the GPU is not saved (it was, when the choice came mid-load)."""
    settings.device = "cpu"
    synth = gpu_that_fails_to_load()
    window = make_window(doctor_probe_factory=snapshot_probe("win_fine"), synthesizer_factory=synth)
    window.model.load()  # a load under way (as at start, or after a folder change)
    window.model.set_device("cuda")  # chosen before it ends
    qtbot.waitUntil(
        lambda: (
            synth.devices[-3:] == ["cpu", "cuda", "cpu"] and window.model.state is ModelState.READY
        ),
        timeout=LOAD_TIMEOUT_MS,
    )
    assert window.model.status.device == "cpu"
    assert settings.device == "cpu" and Settings().device == "cpu"
    assert "a CUDA kernel failed to run (test)" in window.model_banner.text()


def test_a_device_chosen_when_nothing_has_loaded_is_not_saved_if_it_fails(
    qtbot, make_window, settings
):
    """No device has worked yet (the first load failed): a GPU chosen then that fails too is said
    and not saved, so the next start does not try it again."""
    settings.device = "cpu"
    devices = []

    def nothing_loads(root, device, precision="auto"):
        devices.append(device)
        raise DeviceError(f"The {device} load failed (test).")

    window = make_window(
        doctor_probe_factory=snapshot_probe("win_fine"),
        synthesizer_factory=nothing_loads,
        wait_loaded=False,
    )
    qtbot.waitUntil(lambda: window.model.state is ModelState.FAILED, timeout=LOAD_TIMEOUT_MS)
    window.model.set_device("cuda")
    qtbot.waitUntil(
        lambda: window.model.device_notice is not None and window.model.state is ModelState.FAILED,
        timeout=LOAD_TIMEOUT_MS,
    )
    assert devices == ["cpu", "cuda"]
    assert settings.device == "cpu" and Settings().device == "cpu"
    assert window.model.device_notice is not None and window.model.device_notice.asked == "cuda"
