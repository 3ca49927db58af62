"""Exceptions raised by mplan.

Every error mplan raises derives from :class:`mplan.Error`; the native module
raises these classes too, so ``except mplan.Error`` catches everything.
"""

from __future__ import annotations

from typing import Any, List, Sequence


class Error(Exception):
    """Base class of every mplan error."""


class CsvError(Error, ValueError):
    """Malformed MiniMalloc CSV input; the message names the line."""


class PlanError(Error, ValueError):
    """Invalid planning input or options: a value that is not an integer in
    the signed 64-bit range (the message names the buffer's index, id and
    field), a bad buffer, an unknown strategy, ..."""


class InvalidPlanError(Error):
    """A plan failed validation (overlap, misalignment, out of the arena)."""


class ReportError(Error, ValueError):
    """A JSON plan report or CSV plan that cannot be read for drawing."""


class OutputError(Error, OSError):
    """An output file could not be written (also an :class:`OSError`, with
    ``errno``, ``strerror`` and ``filename``); nothing was written."""

    def __str__(self) -> str:
        if self.filename is not None and self.strerror:
            return f"{self.filename}: {self.strerror}"
        return super().__str__()


class MLIRError(Error):
    """Parsing MLIR text or running a pass pipeline failed.

    ``diagnostics`` holds every diagnostic the run produced (errors, and the
    warnings, remarks and notes around them), each with ``severity``,
    ``file``, ``line``, ``column``, ``location`` and ``message``.
    """

    def __init__(self, message: str, diagnostics: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.diagnostics: List[Any] = list(diagnostics)

    @property
    def errors(self) -> List[Any]:
        """Only the diagnostics of severity ``error``."""
        return [d for d in self.diagnostics if d.severity == "error"]
