"""Writing output files as the C++ tools do: through the path.

An existing file is opened, truncated and written, so a symlink's target is
updated, a FIFO's reader gets the data, a device node stays a device node
and the file keeps its mode and links. A file that does not exist yet is
created by the tool and removed again if writing it fails (no partial file).
``-`` is standard output. The whole text is rendered before the file is
opened, so an error in the input never touches the output.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from typing import Union

from .errors import OutputError

#: The path that means standard input (for readers) or standard output.
STDIO = "-"


def _output_error(e: OSError, path: str) -> OutputError:
    if e.strerror:
        return OutputError(e.errno, e.strerror, path)
    return OutputError(f"{path}: {e}")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def write_output(path: str, data: Union[str, bytes]) -> None:
    """Writes ``data`` (text as UTF-8, newlines as given; lone surrogates from
    undecodable input bytes become those bytes again) to ``path`` ('-':
    standard output), through the path as described above.

    Raises:
      OutputError: naming ``path`` (a directory, no permission, a full disk, ...).
    """
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogateescape")
    if path == STDIO:
        try:
            sys.stdout.flush()
            stream = getattr(sys.stdout, "buffer", None)
            if stream is None:  # a text-only stream (a test's StringIO)
                sys.stdout.write(data.decode("utf-8", errors="surrogateescape"))
            else:
                stream.write(data)
                stream.flush()
        except OSError as e:
            raise _output_error(e, "<stdout>") from None
        return
    created = False
    try:
        try:
            # Only a file that is not there yet is created (and may be removed).
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            created = True
        except FileExistsError:
            if os.path.isdir(path):
                raise OutputError(errno.EISDIR, os.strerror(errno.EISDIR), path) from None
            fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    except OSError as e:
        if isinstance(e, OutputError):
            raise
        raise _output_error(e, path) from None
    try:
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
    except OSError as e:
        if created:
            try:
                if stat.S_ISREG(os.lstat(path).st_mode):
                    os.unlink(path)
            except OSError:
                pass
        raise _output_error(e, path) from None
