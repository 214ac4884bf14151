"""Model and settings: choose the embedded model or any GGUF file, download from the catalog,
and set threads, context, GPU layers, temperature and the program limits.

`SettingsDialog.result_settings()` gives the chosen `Settings` after the dialog was accepted.
Downloads run on the dialog's own background helper, never on the UI thread.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.settings import Settings
from app.store.speeds import Speeds, speed_text
from app.ui.background import Background, Report
from app.ui.plain import Label, heading, tip
from models import catalog
from models.discovery import discover
from models.embedded import embedded_path
from models.threads import automatic_threads
from models.types import ModelError
from sandbox.platforms import default_backend

# models.gguf_info (numpy, gguf) and models.download (huggingface_hub) are imported where used:
# loading them at start-up would slow the window's first appearance by a third of a second.

_EMBEDDED = ""  # the list item's data for the embedded default model


@dataclass(frozen=True)
class DownloadProgress:
    done: int  # bytes
    total: int


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, speeds: Speeds, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Model and settings")
        self._settings = settings
        self._speeds = speeds
        self._cancel_download = threading.Event()
        self._downloads = Background(self)

        self._build_models(settings)
        self._build_form(settings)
        self.open_button.clicked.connect(self._on_open_clicked)
        self.models.currentItemChanged.connect(self._on_models_current_item_changed)
        self.download_button.clicked.connect(self._on_download_clicked)
        self.cancel_download_button.clicked.connect(self._cancel_download.set)
        self._on_models_current_item_changed(self.models.currentItem())

    def _build_models(self, settings: Settings) -> None:
        self.models = QListWidget()
        self._add_model(f"Embedded: {catalog.load().default.title} (default)", _EMBEDDED)
        built_in = embedded_path().resolve()
        for found in discover():
            if found.path.resolve() == built_in:
                continue  # the embedded model, once assembled, is the entry above: listed once
            self._add_model(f"{found.path.name} — {found.source}, {found.size_bytes / 2**30:.1f} GiB", str(found.path))
        if settings.model_path and self._find(settings.model_path) is None:
            self._add_model(Path(settings.model_path).name, settings.model_path)
        current = self._find(settings.model_path or _EMBEDDED)
        if current is not None:
            self.models.setCurrentItem(current)
        self.open_button = QPushButton("Open GGUF file…")
        self.model_info = Label("")
        self.model_info.setWordWrap(True)

        self.catalog = QComboBox()
        # A long entry must not set the dialog's width: at 150 % it ran off a 1366-pixel screen.
        self.catalog.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.catalog.setMinimumContentsLength(30)
        models = catalog.load()
        for entry in models.downloads:
            speed = speed_text(entry.file_name, entry.approx_size_gb * 1e9, self._speeds, models)
            self.catalog.addItem(
                f"{entry.title} — {entry.approx_size_gb:g} GB download, "
                f"needs {entry.ram_gb:g} GB of memory, {speed}, {entry.license}",
                entry.id,
            )
            self.catalog.setItemData(self.catalog.count() - 1, tip(entry.good_for), Qt.ItemDataRole.ToolTipRole)
        self.download_button = QPushButton("Download")
        self.cancel_download_button = QPushButton("Cancel download")
        self.cancel_download_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setVisible(False)  # an empty box until a download reports its progress

    def _build_form(self, settings: Settings) -> None:
        self.threads = _spin(
            0, 256, settings.n_threads or 0, special=f"automatic ({automatic_threads()}: one per core)"
        )
        self.n_ctx = _spin(256, 131072, settings.n_ctx, step=1024)
        self.gpu_layers = _spin(-1, 999, settings.n_gpu_layers)
        self.gpu_layers.setToolTip("-1 offloads every layer (needs a GPU build of llama.cpp)")
        self.temperature = QDoubleSpinBox(minimum=0.0, maximum=2.0, singleStep=0.1, value=settings.temperature)
        self.time_s = QDoubleSpinBox(minimum=0.1, maximum=600.0, singleStep=1.0, value=settings.time_s, suffix=" s")
        self.memory_mb = _spin(64, 65536, settings.memory_mb, step=64)
        self.memory_mb.setSuffix(" MB")
        self.backend = QLineEdit(settings.backend_url or "")
        self.backend.setPlaceholderText("empty: run the model on this computer")
        self.backend.setToolTip("An OpenAI-compatible server: llama.cpp, vLLM, Ollama, LM Studio")
        self.backend_warning = Label("")
        self.backend_warning.setWordWrap(True)
        self.sandbox = QComboBox()
        automatic = "WebAssembly" if default_backend() == "wasm" else "native"
        for text, choice in ((f"Automatic ({automatic} on this computer)", "auto"),
                             ("Native: the operating system's own layers (Linux)", "native"),
                             ("WebAssembly: the same sandbox on every computer", "wasm")):  # fmt: skip
            self.sandbox.addItem(text, choice)
        self.sandbox.setCurrentIndex(max(0, self.sandbox.findData(settings.sandbox)))
        self.sandbox.setToolTip("Where the model's programs run. The WebAssembly sandbox compiles once (minutes).")
        self.backend.textChanged.connect(self._on_backend_text_changed)
        self._on_backend_text_changed(self.backend.text())

        form = QFormLayout()
        rows = (("CPU threads", self.threads), ("Context size (tokens)", self.n_ctx), ("GPU layers", self.gpu_layers),
                ("Temperature", self.temperature), ("Program time limit", self.time_s),
                ("Program memory limit", self.memory_mb), ("Sandbox", self.sandbox),
                ("Server (optional)", self.backend), ("", self.backend_warning))  # fmt: skip
        for label, widget in rows:
            form.addRow(label, widget)
        # GPU layers mean nothing to a llama.cpp built for the CPU (the default build): shown only where they work.
        form.setRowVisible(self.gpu_layers, _gpu_build())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(heading("Model"))
        layout.addWidget(self.models)
        layout.addWidget(self.open_button)
        layout.addWidget(self.model_info)
        layout.addWidget(heading("Download a recommended model"))
        layout.addWidget(self.catalog)
        row = QHBoxLayout()
        row.addWidget(self.download_button)
        row.addWidget(self.cancel_download_button)
        layout.addLayout(row)
        layout.addWidget(self.progress)
        layout.addLayout(form)
        layout.addWidget(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

    def result_settings(self) -> Settings:
        item = self.models.currentItem()
        path = str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else _EMBEDDED
        return Settings(
            model_path=path or None,
            n_threads=self.threads.value() or None,
            n_ctx=self.n_ctx.value(),
            n_gpu_layers=self.gpu_layers.value(),
            temperature=round(self.temperature.value(), 2),
            time_s=self.time_s.value(),
            memory_mb=self.memory_mb.value(),
            backend_url=self.backend.text().strip() or None,
            sandbox=str(self.sandbox.currentData()),
        )

    def accept(self) -> None:
        try:
            self.result_settings()
        except ValueError as exc:  # only the server address can be invalid: the other fields are bounded
            self.backend_warning.setText(f"{str(exc).capitalize()}.")
            self.backend.setFocus()
            return
        super().accept()

    def _on_backend_text_changed(self, text: str) -> None:
        from models.remote import privacy_warning

        url = text.strip()
        if not url:
            self.backend_warning.setText("")
        elif not url.startswith(("http://", "https://")):
            self.backend_warning.setText("The address must start with http:// or https://")
        else:
            warning = privacy_warning(url)
            self.backend_warning.setText(f"Warning: {warning}." if warning else "This computer: nothing leaves it.")

    def add_model_file(self, path: Path) -> bool:
        """Inspect a GGUF file and select it; False (and the reason shown) if it is unusable."""
        from models.gguf_info import inspect

        try:
            info = inspect(path)
        except ModelError as exc:
            self.model_info.setText(f"Cannot use this file: {exc}")
            return False
        item = self._find(str(path)) or self._add_model(f"{path.name} — {info.description}", str(path))
        self.models.setCurrentItem(item)
        return True

    def done(self, result: int) -> None:
        self._cancel_download.set()
        self._downloads.shutdown()
        super().done(result)

    def _add_model(self, text: str, data: str) -> QListWidgetItem:
        item = QListWidgetItem(text)
        item.setData(Qt.ItemDataRole.UserRole, data)
        self.models.addItem(item)
        return item

    def _find(self, data: str) -> QListWidgetItem | None:
        for row in range(self.models.count()):
            item = self.models.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == data:
                return item
        return None

    def _on_open_clicked(self) -> None:
        name, _filter = QFileDialog.getOpenFileName(self, "Open a GGUF model", str(Path.home()), "GGUF models (*.gguf)")
        if name:
            self.add_model_file(Path(name))

    def _on_models_current_item_changed(self, item: QListWidgetItem | None, _previous: object = None) -> None:
        path = str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else _EMBEDDED
        models = catalog.load()
        if not path:
            entry = models.default
            speed = speed_text(entry.file_name, entry.size_bytes, self._speeds, models)
            self.model_info.setText(
                f"{entry.title}, {entry.license}: {entry.good_for}. Needs {entry.ram_gb:g} GB of memory; {speed}."
            )
            return
        from models.gguf_info import inspect

        try:
            size = Path(path).stat().st_size
            speed = speed_text(Path(path).name, size, self._speeds, models)
            self.model_info.setText(f"{inspect(path).description}; {speed}.")
        except (ModelError, OSError) as exc:  # a file named in the settings may be gone
            self.model_info.setText(f"Cannot use this file: {exc}")

    def _on_download_clicked(self) -> None:
        entry = next(d for d in catalog.load().downloads if d.id == self.catalog.currentData())
        self._cancel_download.clear()
        self.download_button.setEnabled(False)
        self.cancel_download_button.setEnabled(True)
        self.model_info.setText(f"Downloading {entry.file_name}…")

        def job(report: Report) -> Path:
            from models.download import download

            return download(
                entry.repo,
                entry.file_name,
                sha256=entry.sha256,
                progress=lambda done, total: report(DownloadProgress(done, total)),
                cancel=self._cancel_download,
            )

        self._downloads.submit(
            job, on_success=self._on_download_succeeded, on_failure=self._on_download_failed,
            on_progress=self._on_download_progress, name="download",
        )  # fmt: skip

    def _on_download_progress(self, payload: object) -> None:
        if isinstance(payload, DownloadProgress):
            self.progress.setVisible(True)
            self.progress.setMaximum(max(payload.total // 1024, 1))
            self.progress.setValue(payload.done // 1024)

    def _on_download_succeeded(self, path: Path) -> None:
        self._download_ended()
        self.add_model_file(path)

    def _on_download_failed(self, error: Exception) -> None:
        self._download_ended()
        if _offline(error):
            self.model_info.setText(
                "You are offline — the download needs a network; the built-in model works without one."
            )
            return
        self.model_info.setText(f"Download stopped: {error or type(error).__name__}")

    def _download_ended(self) -> None:
        self.progress.setVisible(False)
        self.download_button.setEnabled(True)
        self.cancel_download_button.setEnabled(False)


def _gpu_build() -> bool:
    try:
        from models.local import gpu_offload_supported

        return gpu_offload_supported()
    except Exception:  # no llama.cpp here at all: nothing to offload either
        return False


def _offline(error: BaseException) -> bool:
    """Whether a download failed for want of a network (the error or anything it was raised from)."""
    import socket
    import urllib.error

    seen: BaseException | None = error
    for _ in range(10):  # the chain of causes, bounded
        if seen is None:
            return False
        if isinstance(seen, ConnectionError | TimeoutError | socket.gaierror | urllib.error.URLError):
            return True
        name = type(seen).__name__
        if name in ("ConnectError", "ConnectTimeout", "LocalEntryNotFoundError", "OfflineModeIsEnabled"):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _spin(low: int, high: int, value: int, *, step: int = 1, special: str = "") -> QSpinBox:
    box = QSpinBox(minimum=low, maximum=high, singleStep=step)
    box.setValue(value)
    if special:
        box.setSpecialValueText(special)  # shown for the minimum
    return box
