"""One window per data folder: a second start brings the first window to the front and exits.

Two windows on one data folder would each load the model (a second copy of it in memory) and
write the same file of unsaved work (`AppPaths.recovery`), so one window's work could overwrite
the other's. The first window listens on a local socket named after the folder; a later start
that can connect to it asks it to come forward, says so and ends.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QWidget

_WAIT_MS = 1_000


def server_name(data: Path) -> str:
    """The socket's name for the data folder `data` (the same folder, the same name)."""
    return "pal-studio-" + hashlib.sha256(str(data.resolve()).encode()).hexdigest()[:16]


def handed_over(name: str) -> bool:
    """Whether a window already listens on `name`; it has been asked to come to the front."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(_WAIT_MS):
        return False
    socket.write(b"front\n")
    socket.waitForBytesWritten(_WAIT_MS)
    socket.disconnectFromServer()
    return True


class FirstWindow(QObject):
    """Listens on `name` for later starts and brings `window` (its parent) to the front for each;
    what they send is not read."""

    def __init__(self, name: str, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)  # this user's starts only
        self.server.newConnection.connect(self._answer)
        if not self.server.listen(name):  # a socket left behind by a window that crashed
            QLocalServer.removeServer(name)
            self.server.listen(name)

    def _answer(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            socket.abort()
            socket.deleteLater()
        self._window.showNormal()
        self._window.raise_()
        self._window.activateWindow()
