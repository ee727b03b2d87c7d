"""What the three harnesses share: the network namespace, the server, databases, the log."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
NETNS_FLAG = "REALWEB_BLIND_IN_NETNS"
PG_HOST = "/var/run/postgresql"


def enter_netns() -> None:
    """Re-run this script inside a loopback-only network namespace (once)."""
    if os.environ.get(NETNS_FLAG) == "1":
        return
    env = dict(os.environ, **{NETNS_FLAG: "1"})
    cmd = [
        "unshare",
        "-n",
        "sh",
        "-c",
        'ip link set lo up && exec "$@"',
        "sh",
        sys.executable,
        *sys.argv,
    ]
    if os.geteuid() != 0:
        cmd[1:2] = ["-rn"]
    try:
        os.execvpe(cmd[0], cmd, env)
    except OSError as exc:
        raise SystemExit(f"error: cannot enter a network namespace: {exc}") from None


def uptime() -> str:
    try:
        return "load " + " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "load ?"


def check_project(project: str) -> Path:
    root = Path(project).resolve()
    if not (root / ".venv" / "bin" / "scrapy").exists() or not (root / "scrapy.cfg").exists():
        raise SystemExit(
            f"error: {root} is not a project folder with .venv/bin/scrapy (run scripts/setup.sh "
            "there)"
        )
    return root


@dataclass
class Server:
    proc: subprocess.Popen
    ports: list[int]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.ports[0]}"

    def url_of(self, via: int) -> str:
        return f"http://127.0.0.1:{self.ports[via]}"

    def cpu(self) -> str:
        """The server's own CPU time (written when it stops): evidence it was not the bottleneck."""
        try:
            for line in self.log.with_suffix(".server.txt").read_text().splitlines():
                if line.startswith("SERVER-CPU"):
                    return line.removeprefix("SERVER-CPU ").strip()
        except OSError:
            pass
        return "?"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_server(
    web: str,
    log: Path,
    seed: int | None = None,
    latency: float = 0.0,
    ports: int = 1,
    skew: float | None = None,
) -> Server:
    cmd = [
        sys.executable,
        str(HERE / "server.py"),
        "--web",
        web,
        "--ports",
        str(ports),
        "--log",
        str(log),
    ]
    if seed is not None:
        cmd += ["--seed", str(seed)]
    if latency:
        cmd += ["--latency", str(latency)]
    if skew is not None:
        cmd += ["--skew", str(skew)]
    log.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=open(log.with_suffix(".server.txt"), "w"), text=True
    )
    line = proc.stdout.readline() if proc.stdout else ""
    if not line.startswith("READY"):
        proc.kill()
        raise SystemExit(
            f"error: the web server did not start (see {log.with_suffix('.server.txt')})"
        )
    return Server(proc, [int(p) for p in line.split()[1:]], log)


def proxy_env(server: Server, extra: dict[str, str] | None = None, via: int = 0) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("no_proxy", "all_proxy")}
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        env[name] = server.url_of(via)
    env.pop(NETNS_FLAG, None)
    env.pop("CRAWLER_DATABASE_URL", None)
    if extra:
        env.update(extra)
    return env


def psql(sql: str) -> None:
    subprocess.run(
        [
            "psql",
            "-h",
            PG_HOST,
            "-U",
            "postgres",
            "-d",
            "postgres",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "-c",
            sql,
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )


class Database:
    """A fresh PostgreSQL database through the unix socket, dropped at the end."""

    def __init__(self, prefix: str) -> None:
        self.name = f"{prefix}_{uuid.uuid4().hex[:10]}"
        psql(f'CREATE DATABASE "{self.name}"')

    @property
    def url(self) -> str:
        return f"postgresql:///{self.name}?host={PG_HOST}&user=postgres"

    def query(self, sql: str) -> str:
        out = subprocess.run(
            ["psql", "-h", PG_HOST, "-U", "postgres", "-d", self.name, "-At", "-c", sql],
            capture_output=True,
            text=True,
        )
        return out.stdout.strip()

    def drop(self) -> None:
        try:
            psql(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        except subprocess.CalledProcessError:
            pass


class BackendCPU:
    """CPU time of the PostgreSQL backends serving one database, from /proc: a backend's
    process title names its database. Sampled every ``interval`` seconds from a thread (a
    backend that exits between two samples loses at most that much); plain Scrapy has no
    database, so this is the part of our side's CPU that the process tree does not count."""

    def __init__(self, database: str, interval: float = 0.3) -> None:
        self._marker = f" {database} ".encode()
        self._interval = interval
        self._seen: dict[int, int] = {}
        self._tick = os.sysconf("SC_CLK_TCK")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                    if self._marker not in f.read():
                        continue
                with open(f"/proc/{entry.name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            self._seen[int(entry.name)] = int(fields[11]) + int(fields[12])

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(self._interval)

    def stop(self) -> float:
        """Seconds of CPU of every backend seen."""
        self._stop.set()
        self._thread.join()
        self._sample()
        return sum(self._seen.values()) / self._tick


@dataclass
class Request:
    start: float
    end: float
    host: str
    path: str
    status: int
    size: int
    ua: str
    via: int = 0


def read_log(path: Path) -> list[Request]:
    out = []
    if not path.exists():
        return out
    for line in path.read_text(errors="replace").splitlines():
        f = line.split("\t")
        if len(f) < 7:
            continue
        out.append(
            Request(
                float(f[0]),
                float(f[1]),
                f[2],
                f[3],
                int(f[4]),
                int(f[5]),
                f[6],
                int(f[7]) if len(f) > 7 else 0,
            )
        )
    out.sort(key=lambda r: r.start)
    return out


def run_logged(
    cmd: list[str], cwd: Path, env: dict[str, str], log: Path, timeout: float
) -> tuple[int, float, float]:
    """Run a command, output to log; returns (exit status, start time, end time)."""
    t0 = time.time()
    with log.open("w") as fh:
        proc = subprocess.Popen(
            cmd, cwd=cwd, env=env, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            rc = proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                rc = proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                rc = proc.wait()
            fh.write(f"\n[harness] killed after {timeout:.0f} s\n")
        except BaseException:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise
    return rc, t0, time.time()
