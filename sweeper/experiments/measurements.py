"""Files of measurements of this machine (the timed reproduction, the bench): plain JSON with the date, the
machine and the code's provenance, written atomically and read back with a check of their format."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ..machine import machine  # noqa: F401  (the one home of the machine's facts; measurements record them)


def write_record(path: Path, record: dict) -> None:
    """Write ``record`` as JSON to ``path`` atomically (a reader sees the old file or the new one, never half)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)


def write_record_or_rescue(path: Path, record: dict, what: str) -> None:
    """:func:`write_record`, and when ``path`` cannot be written after all (a full disk, a folder removed during the
    work), the record written to the temporary directory instead and an ``OSError`` that says where: what was
    computed is never lost to a failed write."""
    path = Path(path)
    try:
        write_record(path, record)
    except OSError as exc:
        rescue = Path(tempfile.gettempdir()) / f"sweeper-{what}-{os.getpid()}.json"
        try:
            write_record(rescue, record)
            kept = f"; the {what} was written to {rescue} instead"
        except OSError:
            kept = ""
        raise OSError(exc.errno, f"could not write the {what} to {path} ({exc.strerror or exc}){kept}") from None


def read_record(path: Path, fmt: int, fields: set, what: str, rerun: str) -> dict:
    """The JSON record in ``path``, checked: a dict of format ``fmt`` with every key of ``fields``; else a
    ``ValueError`` naming ``what`` the file should be and the command (``rerun``) that writes it."""
    if not path.is_file():
        raise ValueError(f"{path} does not exist: {rerun}")
    try:
        record = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path} cannot be read ({e}): {rerun}") from None
    if not isinstance(record, dict) or record.get("format") != fmt or not fields <= set(record):
        raise ValueError(f"{path} is not {what} of format {fmt}: {rerun}")
    return record
