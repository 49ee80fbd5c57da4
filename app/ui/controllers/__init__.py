"""The window's controllers: plain QObjects, one per concern, that hold state and say what
changed through signals. Widgets get the controllers they need as constructor arguments and
never reach into each other; the words the user reads are made by the widgets."""

from app.ui.controllers.doctor import DoctorController
from app.ui.controllers.history import HistoryController
from app.ui.controllers.model import ModelController, ModelState
from app.ui.controllers.speech import NotReady, SpeechController

__all__ = [
    "DoctorController",
    "HistoryController",
    "ModelController",
    "ModelState",
    "NotReady",
    "SpeechController",
]
