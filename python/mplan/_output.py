"""Writing output files whole or not at all (no partial file on error)."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from typing import Iterator

from .errors import OutputError


@contextlib.contextmanager
def replacing(path: str) -> Iterator[str]:
    """Yields a new temporary path in the directory of ``path``; when the
    block succeeds the temporary file replaces ``path`` (one rename), else it
    is removed and ``path`` is left as it was.

    Raises:
      OutputError: the file cannot be created or renamed (naming ``path``).
    """
    if os.path.isdir(path):
        raise OutputError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    directory = os.path.dirname(os.path.abspath(path))
    prefix = os.path.join(directory, "." + os.path.basename(path)[:200])
    while True:
        tmp = f"{prefix}.{secrets.token_hex(4)}.tmp"
        try:
            # 0o666 minus the umask, like open(path, "w") would give.
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            break
        except FileExistsError:
            continue
        except OSError as e:
            raise _output_error(e, path) from None
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError) and not isinstance(e, OutputError):
            raise _output_error(e, path) from None
        raise


def _output_error(e: OSError, path: str) -> OutputError:
    if e.strerror:
        return OutputError(e.errno, e.strerror, path)
    return OutputError(f"{path}: {e}")


def write_atomically(path: str, text: str) -> None:
    """Writes ``text`` (UTF-8, newlines as given; lone surrogates from
    undecodable input bytes become those bytes again) to ``path`` whole or not
    at all.

    Raises:
      OutputError: naming ``path``.
    """
    with replacing(path) as tmp:
        with open(tmp, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
            f.write(text)
