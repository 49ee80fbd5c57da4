"""The Speech server dialog: start or stop the OpenAI-compatible API, its port and key, the
address other programs use and a ready curl line to copy."""

from __future__ import annotations

import secrets
import sys

from PySide6.QtCore import Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from app.ui.controllers.server import (
    ServerPhase,
    ServerProblem,
    ServerStatus,
    base_url,
    curl_line,
    powershell_line,
)
from app.ui.retranslate import Retranslating

PORTS = (1024, 65535)


class SpeechServerDialog(Retranslating, QDialog):
    def __init__(self, server, settings, parent=None):
        super().__init__(parent)
        self.setObjectName("speechServerDialog")
        self.server = server
        self.settings = settings
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.port = QSpinBox()
        self.port.setObjectName("serverPort")
        self.port.setRange(*PORTS)
        self.port.setValue(settings.server_port)
        self.network = QCheckBox()
        self.network.setObjectName("serverNetwork")
        self.network.setChecked(settings.server_network)
        self.key = QLineEdit(settings.server_key)
        self.key.setObjectName("serverKey")
        self.key.setEchoMode(QLineEdit.EchoMode.PasswordEchoOnEdit)
        self.new_key = QPushButton()
        self.new_key.setObjectName("serverNewKey")
        self.toggle = QPushButton()
        self.toggle.setObjectName("serverToggle")
        self.state = QLabel()
        self.state.setObjectName("serverState")
        self.state.setWordWrap(True)
        self.address = QLineEdit()
        self.address.setObjectName("serverAddress")
        self.address.setReadOnly(True)
        self.copy_address = QPushButton()
        self.curl = QLineEdit()
        self.curl.setObjectName("serverCurl")
        self.curl.setReadOnly(True)
        self.copy_curl = QPushButton()
        # Windows: the Command Prompt line above, and PowerShell's own (a curl line's quotes
        # do not survive PowerShell).
        self.powershell = QLineEdit()
        self.powershell.setObjectName("serverPowerShell")
        self.powershell.setReadOnly(True)
        self.copy_powershell = QPushButton()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)

        key_row = QHBoxLayout()
        key_row.addWidget(self.key, 1)
        key_row.addWidget(self.new_key)
        address_row = QHBoxLayout()
        address_row.addWidget(self.address, 1)
        address_row.addWidget(self.copy_address)
        curl_row = QHBoxLayout()
        curl_row.addWidget(self.curl, 1)
        curl_row.addWidget(self.copy_curl)
        powershell_row = QHBoxLayout()
        powershell_row.addWidget(self.powershell, 1)
        powershell_row.addWidget(self.copy_powershell)
        self.form = QFormLayout()
        self.labels = [QLabel() for _ in range(6)]
        rows = (self.port, self.network, key_row, address_row, curl_row, powershell_row)
        for label, field in zip(self.labels, rows):
            self.form.addRow(label, field)
        self.form.setRowVisible(5, sys.platform == "win32")
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(self.form)
        layout.addWidget(self.state)
        layout.addWidget(self.toggle)
        layout.addWidget(self.buttons)

        self.new_key.clicked.connect(self.generate_key)
        self.toggle.clicked.connect(self.start_or_stop)
        self.copy_address.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self.address.text())
        )
        self.copy_curl.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self.curl.text())
        )
        self.copy_powershell.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self.powershell.text())
        )
        self.buttons.rejected.connect(self.close)
        for edited in (self.port.valueChanged, self.network.toggled, self.key.textChanged):
            edited.connect(self._show_lines)
        server.stateChanged.connect(self.show_status)
        self.resize(620, 0)
        self.retranslate()

    def key_text(self) -> str:
        return self.key.text().strip()

    @Slot()
    def generate_key(self) -> None:
        self.key.setText(secrets.token_urlsafe(24))

    @Slot()
    def start_or_stop(self) -> None:
        if self.server.running:
            self.server.stop()
            return
        self.settings.server_port = self.port.value()
        self.settings.server_network = self.network.isChecked()
        self.settings.server_key = self.key_text()
        self.server.start(self.port.value(), self.key_text(), self.network.isChecked())

    @Slot()
    def _show_lines(self, *_args) -> None:
        status = self.server.status
        live = status.phase is not ServerPhase.STOPPED
        port, network = (
            (status.port, status.network) if live else (self.port.value(), self.network.isChecked())
        )
        self.address.setText(base_url(port, network))
        self.curl.setText(curl_line(port, network, self.key_text() or None))
        self.powershell.setText(powershell_line(port, network, self.key_text() or None))

    @Slot(object)
    def show_status(self, status: ServerStatus) -> None:
        stopped = status.phase is ServerPhase.STOPPED
        for editable in (self.port, self.network, self.key, self.new_key):
            editable.setEnabled(stopped)
        self.toggle.setEnabled(status.phase is not ServerPhase.STOPPING)
        self.toggle.setText(self.tr("Start the server") if stopped else self.tr("Stop the server"))
        self.state.setText(self.describe(status))
        self._show_lines()

    def describe(self, status: ServerStatus) -> str:
        problem = {
            ServerProblem.PORT_BUSY: self.tr(
                "Port %1 is in use by another program; choose another port."
            ).replace("%1", str(status.port)),
            ServerProblem.NO_PERMISSION: self.tr(
                "The system does not allow listening on port %1 (it may be "
                "reserved); choose another port."
            ).replace("%1", str(status.port)),
            ServerProblem.NEEDS_KEY: self.tr(
                "Other computers may use the server only with a key: type one or press New key."
            ),
            ServerProblem.FAILED: self.tr(
                "The server stopped unexpectedly; the log (Help > Open the log "
                "folder) has the details."
            ),
        }
        if status.problem is not None:
            return problem[status.problem]
        if status.phase is ServerPhase.STOPPED:
            return self.tr("The server is stopped.")
        if status.phase in (ServerPhase.STARTING, ServerPhase.STOPPING):
            return (
                self.tr("Starting…")
                if status.phase is ServerPhase.STARTING
                else self.tr("Stopping…")
            )
        if not status.model_ready:
            return self.tr(
                "Listening. Requests get 'model not ready' (503) until the model is loaded."
            )
        if status.makes_noise:
            return self.tr(
                "Listening, with a test model of random weights: it answers with noise, not speech."
            )
        if status.network:
            return self.tr("Listening for this computer and others on your network (with the key).")
        return self.tr("Listening for programs on this computer.")

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Speech server"))
        self.intro.setText(
            self.tr(
                "Programs that speak OpenAI's speech API (/v1/audio/speech) can use ChatTTS through this "
                "server, with the model loaded here. Playing text in this window goes first; their "
                "requests wait meanwhile."
            )
        )
        try_it = self.tr("Command Prompt") if sys.platform == "win32" else self.tr("Try it")
        labels = (
            self.tr("Port"),
            self.tr("Network"),
            self.tr("API key"),
            self.tr("Address"),
            try_it,
            self.tr("PowerShell"),
        )
        for label, text in zip(self.labels, labels):
            label.setText(text)
        self.network.setText(self.tr("Let other computers on my network use it (needs a key)"))
        self.key.setPlaceholderText(self.tr("optional on this computer alone"))
        self.new_key.setText(self.tr("New key"))
        self.copy_address.setText(self.tr("Copy"))
        self.copy_curl.setText(self.tr("Copy"))
        self.copy_powershell.setText(self.tr("Copy"))
        self.show_status(self.server.status)
