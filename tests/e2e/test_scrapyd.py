"""Deploy the project to a real scrapyd with scrapyd-deploy and run `general` there."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from crawler.sandbox import SandboxWeb
from crawler.search.index import open_index
from crawler.storage.database import CrawlDatabase, EmbeddedPostgres
from tests.commands import PROJECT_DIR, free_port
from tests.waiting import wait_until

pytestmark = pytest.mark.slow


def _api(base: str, path: str, data: dict[str, str] | None = None) -> dict:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(f"{base}/{path}", data=body, timeout=30) as resp:
        return json.loads(resp.read())


WORDS = ("amber basil cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon "
         "meadow nectar opal prairie quartz raven saffron tundra umber valley willow xenon "
         "yarrow zephyr").split()


def _small_web() -> SandboxWeb:
    web = SandboxWeb()
    for i in range(12):
        # distinct text: the content-seen test would reject near-identical pages
        text = " ".join(random.Random(i).choices(WORDS, k=40))
        nxt = f'<a href="/p{(i + 1) % 12}.html">next</a> <a href="/p{(i * 5) % 12}.html">jump</a>'
        web.add_page(
            f"http://www.deploy.test/p{i}.html",
            f"<html><head><title>Page {i}</title></head><body><p>{text}</p>{nxt}</body></html>",
        )
    return web


def test_scrapyd_deploy_and_crawl(tmp_path: Path, sandbox, database_url, db):
    server = sandbox(_small_web())
    # scrapyd-deploy builds the egg in the project folder: work on a copy of the project.
    project = tmp_path / "project"
    shutil.copytree(
        PROJECT_DIR,
        project,
        ignore=shutil.ignore_patterns(".venv", ".git", ".crawl", "tests", "bench", "build",
                                      "*.egg-info", "__pycache__", ".pytest_cache"),
    )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cfg = (project / "scrapy.cfg").read_text().replace("http://127.0.0.1:6800/", base + "/")
    (project / "scrapy.cfg").write_text(cfg)

    home = tmp_path / "scrapyd"
    home.mkdir()
    (home / "scrapyd.conf").write_text(
        "[scrapyd]\n"
        f"bind_address = 127.0.0.1\nhttp_port = {port}\n"
        f"eggs_dir = {home / 'eggs'}\nlogs_dir = {home / 'logs'}\n"
        f"dbs_dir = {home / 'dbs'}\nitems_dir =\njobs_to_keep = 5\n"
        "max_proc = 1\npoll_interval = 0.5\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    scrapyd_env = {
        **env,
        "http_proxy": server.proxy_url,
        "https_proxy": server.proxy_url,
        "CRAWLER_DATABASE_URL": database_url,
    }
    bindir = Path(sys.executable).parent
    scrapyd = subprocess.Popen(
        [str(bindir / "scrapyd")], cwd=home, env=scrapyd_env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        wait_until(lambda: _scrapyd_ok(base), timeout=30, interval=0.2,
                   what=f"scrapyd to answer at {base}")

        deploy = subprocess.run(
            [str(bindir / "scrapyd-deploy"), "-v", "t1"], cwd=project, env=env,
            capture_output=True, text=True, timeout=180,
        )
        assert deploy.returncode == 0, deploy.stderr + deploy.stdout
        assert json.loads(deploy.stdout)["spiders"] >= 1
        assert "general" in _api(base, "listspiders.json?project=crawler")["spiders"]

        job = _api(base, "schedule.json", {
            "project": "crawler", "spider": "general",
            "seed_urls": "http://www.deploy.test/p0.html",
            "setting": "DOWNLOAD_DELAY=0",
        })
        assert job["status"] == "ok", job
        jobid = job["jobid"]
        wait_until(lambda: any(j["id"] == jobid for j in
                               _api(base, "listjobs.json?project=crawler")["finished"]),
                   timeout=120, interval=0.5, what=f"job {jobid} to finish",
                   details=lambda: _api(base, "listjobs.json?project=crawler"))
    finally:
        scrapyd.terminate()
        out, _ = scrapyd.communicate(timeout=30)

    urls = [r[0] for r in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s ORDER BY url", (jobid,))]
    assert urls == sorted(f"http://www.deploy.test/p{i}.html" for i in range(12)), (
        out[-3000:], _read_log(home, jobid))
    crawl = db.execute(
        "SELECT spider, finish_reason FROM crawls WHERE id = %s", (jobid,)
    ).fetchone()
    assert crawl == ("general", "finished")


def _scrapyd_ok(base: str) -> bool:
    try:
        return _api(base, "daemonstatus.json")["status"] == "ok"
    except OSError:  # not listening yet
        return False


def _read_log(home: Path, jobid: str) -> str:
    logs = list((home / "logs").rglob(f"{jobid}.log"))
    return logs[0].read_text()[-4000:] if logs else "(no job log)"


def readme_deploy_block() -> list[str]:
    """The lines of the README's deployment sequence (its first shell block)."""
    text = (PROJECT_DIR / "README.md").read_text()
    section = text.split("\n## Deploying to scrapyd\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "no shell block in the README's deployment section"
    return block[1].splitlines()


def _port_closed(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0



def test_readme_deployment_sequence_works_as_written(open_tmp_path: Path) -> None:
    lines = readme_deploy_block()
    # the set-up lines install into .venv: here the test's own environment stands in
    assert lines[:2] == ["scripts/setup.sh --deploy", ". .venv/bin/activate"]
    assert _port_closed(6800) and _port_closed(8899)
    project = open_tmp_path / "project"
    shutil.copytree(
        PROJECT_DIR, project,
        ignore=shutil.ignore_patterns(".venv", ".git", ".crawl", ".scrapyd", "tests", "bench",
                                      "build", "*.egg-info", "__pycache__", ".pytest_cache"),
    )
    bindir = Path(sys.executable).parent
    env = {k: v for k, v in os.environ.items()
           if not k.lower().endswith("_proxy")
           and k not in ("CRAWLER_DATABASE_URL", "SCRAPY_SETTINGS_MODULE", "PYTHONPATH")}
    env.update(PATH=f"{bindir}:{env['PATH']}", VIRTUAL_ENV=str(bindir.parent))
    script = "set -euo pipefail\n" + "\n".join(lines[2:]) + '\necho "job=$job"\n'
    try:
        done = subprocess.run(["bash", "-c", script], cwd=project, env=env,
                              capture_output=True, text=True, timeout=500)
    finally:
        wait_until(lambda: _port_closed(6800) and _port_closed(8899), timeout=30, interval=0.2,
                   what="scrapyd and the sandbox to stop")
    home = project / ".scrapyd"
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-3000:],
                                  (home / "scrapyd.log").read_text()[-3000:])
    job = re.search(r"^job=(\w+)$", done.stdout, re.M)[1]
    assert (home / "sandbox.txt").read_text().splitlines()[0] == "proxy http://127.0.0.1:8899"
    assert (home / "logs" / "crawler" / "general" / f"{job}.log").is_file()
    # the report of the crawl, from the data scrapyd's job left in .scrapyd/.crawl
    assert re.search(rf"(?i)\bcrawl {job}\b", done.stdout), done.stdout[-3000:]
    assert (home / ".crawl" / "pgdata" / "PG_VERSION").is_file()

    database = CrawlDatabase(url="", embedded=EmbeddedPostgres(home / ".crawl" / "pgdata"))
    database.prepare()
    try:
        with database.connect() as conn:
            hosts = [host for (host,) in conn.execute(
                "SELECT host FROM pages WHERE crawl_id = %s", (job,))]
            finish = conn.execute("SELECT spider, finish_reason FROM crawls WHERE id = %s",
                                  (job,)).fetchone()
    finally:
        database.close()
    assert finish == ("general", "closespider_pagecount")
    # CLOSESPIDER_PAGECOUNT=50 counts responses (robots.txt, duplicates too), not pages
    assert 25 <= len(hosts) <= 50 + 16 and all(host.endswith(".test") for host in hosts)
    indexed = open_index(home / ".crawl" / "index", create=False)
    try:
        assert indexed.doc_count() == len(hosts)
    finally:
        indexed.close()
