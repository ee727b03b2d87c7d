"""Writes queries/<collection>.json from the query lists below.

The queries were written by the evaluation's author from the documents alone, before any
run of the search engine, and are not to be changed after seeing results (see README.md).
Each query has one target page (a path below the collection's prefix); the script adds the
URLs that are the same page (aliases that redirect to it: equally correct) and, for a
collection with translations, the target's other-language copies (which must not rank
above it). Kinds: name (an identifier or title as typed), description (a short
description in the page's own words), word (one word), paraphrase (what the page does,
in other words than its title).
"""

from __future__ import annotations

import json
import sys

from collections_def import COLLECTIONS, HERE, aliases, check_queries, page_set, translations

N, D, W, P = "name", "description", "word", "paraphrase"

QUERIES: dict[str, list[tuple[str, str, str]]] = {
    # Development collection: the search author may tune on it.
    "python": [
        (N, "json", "library/json.html"),
        (N, "argparse", "library/argparse.html"),
        (N, "collections.OrderedDict", "library/collections.html"),
        (N, "subprocess.run", "library/subprocess.html"),
        (N, "str.join", "library/stdtypes.html"),
        (N, "The Python Tutorial", "tutorial/index.html"),
        (N, "functools.lru_cache", "library/functools.html"),
        (N, "asyncio.gather", "library/asyncio-task.html"),
        (N, "logging.basicConfig", "library/logging.html"),
        (D, "Parser for command-line options, arguments and sub-commands", "library/argparse.html"),
        (D, "Basic date and time types", "library/datetime.html"),
        (D, "Regular expression operations", "library/re.html"),
        (D, "Object-oriented filesystem paths", "library/pathlib.html"),
        (D, "Container datatypes", "library/collections.html"),
        (D, "Higher-order functions and operations on callable objects", "library/functools.html"),
        (D, "Data Classes", "library/dataclasses.html"),
        (D, "Generate pseudo-random numbers", "library/random.html"),
        (W, "itertools", "library/itertools.html"),
        (W, "unittest", "library/unittest.html"),
        (W, "sqlite3", "library/sqlite3.html"),
        (W, "glossary", "glossary.html"),
        (W, "venv", "library/venv.html"),
        (W, "threading", "library/threading.html"),
        (W, "pickle", "library/pickle.html"),
        (W, "sockets", "howto/sockets.html"),
        (P, "turn a list of lines into one string", "library/stdtypes.html"),
        (P, "run another program and capture its output", "library/subprocess.html"),
        (P, "remember results of expensive function calls", "library/functools.html"),
        (P, "read and write comma separated files", "library/csv.html"),
        (P, "copy a folder tree and delete directories", "library/shutil.html"),
        (P, "measure how long a small piece of code takes", "library/timeit.html"),
        (P, "compare two texts and show the differences", "library/difflib.html"),
        (P, "make a temporary file that disappears when closed", "library/tempfile.html"),
        (P, "spread work across several processes", "library/multiprocessing.html"),
        (P, "find files whose names match a wildcard pattern", "library/glob.html"),
    ],
    # Held out: a server's manual with translations.
    "apache": [
        (N, "mod_rewrite", "en/mod/mod_rewrite.html"),
        (N, "mod_ssl", "en/mod/mod_ssl.html"),
        (N, "ProxyPass", "en/mod/mod_proxy.html"),
        (N, "DocumentRoot", "en/mod/core.html"),
        (N, "mod_deflate", "en/mod/mod_deflate.html"),
        (N, "htpasswd", "en/programs/htpasswd.html"),
        (N, "apachectl", "en/programs/apachectl.html"),
        (N, "event MPM", "en/mod/event.html"),
        (N, "mod_headers", "en/mod/mod_headers.html"),
        (N, "Apache Virtual Host documentation", "en/vhosts/index.html"),
        (D, "Name-based Virtual Host Support", "en/vhosts/name-based.html"),
        (D, "Authentication and Authorization", "en/howto/auth.html"),
        (D, "Introduction to Server Side Includes", "en/howto/ssi.html"),
        (D, "Dynamic Shared Object (DSO) Support", "en/dso.html"),
        (D, "Log Files", "en/logs.html"),
        (D, "Security Tips", "en/misc/security_tips.html"),
        (D, "Content Negotiation", "en/content-negotiation.html"),
        (D, "Custom Error Responses", "en/custom-error.html"),
        (D, "Configuration Sections", "en/sections.html"),
        (D, "Redirecting and Remapping with mod_rewrite", "en/rewrite/remapping.html"),
        (W, "caching", "en/caching.html"),
        (W, "glossary", "en/glossary.html"),
        (W, "htaccess", "en/howto/htaccess.html"),
        (W, "CGI", "en/howto/cgi.html"),
        (W, "suEXEC", "en/suexec.html"),
        (W, "performance", "en/misc/perf-tuning.html"),
        (W, "expressions", "en/expr.html"),
        (W, "http2", "en/howto/http2.html"),
        (
            P,
            "automatically serve thousands of sites without a config block for each",
            "en/vhosts/mass.html",
        ),
        (P, "compress responses before sending them to the browser", "en/mod/mod_deflate.html"),
        (
            P,
            "let each user publish web pages from their home directory",
            "en/howto/public_html.html",
        ),
        (
            P,
            "put the web server in front of application servers and forward requests to them",
            "en/howto/reverse_proxy.html",
        ),
        (P, "encrypt traffic with certificates step by step", "en/ssl/ssl_howto.html"),
        (P, "stop the server without dropping current connections", "en/stopping.html"),
        (
            P,
            "write a record of every request to a file in a format I choose",
            "en/mod/mod_log_config.html",
        ),
        (P, "serve files from folders outside the document root", "en/urlmapping.html"),
    ],
    # Held out: a tool's command reference.
    "git": [
        (N, "git rebase", "git-rebase.html"),
        (N, "git cherry-pick", "git-cherry-pick.html"),
        (N, "git bisect", "git-bisect.html"),
        (N, "git stash", "git-stash.html"),
        (N, "git worktree", "git-worktree.html"),
        (N, "gitignore", "gitignore.html"),
        (N, "git config", "git-config.html"),
        (N, "git reflog", "git-reflog.html"),
        (D, "Record changes to the repository", "git-commit.html"),
        (D, "Download objects and refs from another repository", "git-fetch.html"),
        (D, "Show what revision and author last modified each line of a file", "git-blame.html"),
        (D, "Remove untracked files from the working tree", "git-clean.html"),
        (D, "Create an archive of files from a named tree", "git-archive.html"),
        (D, "Show the working tree status", "git-status.html"),
        (D, "Join two or more development histories together", "git-merge.html"),
        (D, "Defining attributes per path", "gitattributes.html"),
        (D, "A tutorial introduction to Git", "gittutorial.html"),
        (W, "glossary", "gitglossary.html"),
        (W, "hooks", "githooks.html"),
        (W, "submodules", "gitsubmodules.html"),
        (W, "workflows", "gitworkflows.html"),
        (W, "revisions", "gitrevisions.html"),
        (W, "credentials", "gitcredentials.html"),
        (W, "shortlog", "git-shortlog.html"),
        (P, "undo the last commit but keep my changes", "git-reset.html"),
        (P, "find which commit broke the build by halving the history", "git-bisect.html"),
        (P, "put my uncommitted changes aside for later", "git-stash.html"),
        (P, "copy a single commit from another branch onto mine", "git-cherry-pick.html"),
        (P, "check out several branches at once in different folders", "git-worktree.html"),
        (P, "see where my branch pointed before I reset it", "git-reflog.html"),
        (P, "make a patch series to send by email", "git-format-patch.html"),
        (P, "move my commits onto the latest upstream branch", "git-rebase.html"),
        (P, "search the files in my repository for a string", "git-grep.html"),
        (P, "name a commit after the closest tag", "git-describe.html"),
        (P, "files that git should not track", "gitignore.html"),
    ],
    # Held out: a C API reference and a hand-written documentation site.
    "sqlite": [
        (N, "sqlite3_prepare_v2", "c3ref/prepare.html"),
        (N, "sqlite3_open", "c3ref/open.html"),
        (N, "sqlite3_exec", "c3ref/exec.html"),
        (N, "sqlite3_busy_timeout", "c3ref/busy_timeout.html"),
        (N, "sqlite3_bind_int", "c3ref/bind_blob.html"),
        (N, "sqlite3_column_text", "c3ref/column_blob.html"),
        (N, "sqlite3_changes", "c3ref/changes.html"),
        (N, "PRAGMA journal_mode", "pragma.html"),
        (N, "WITHOUT ROWID", "withoutrowid.html"),
        (N, "sqlite3_last_insert_rowid", "c3ref/last_insert_rowid.html"),
        (D, "Write-Ahead Logging", "wal.html"),
        (D, "Destroy A Prepared Statement Object", "c3ref/finalize.html"),
        (D, "Evaluate An SQL Statement", "c3ref/step.html"),
        (D, "Closing A Database Connection", "c3ref/close.html"),
        (D, "Datatypes In SQLite", "datatype3.html"),
        (D, "Query Planning", "queryplanner.html"),
        (D, "The SQLite Query Optimizer Overview", "optoverview.html"),
        (D, "Appropriate Uses For SQLite", "whentouse.html"),
        (D, "Foreign Key Support", "foreignkeys.html"),
        (D, "Atomic Commit In SQLite", "atomiccommit.html"),
        (W, "autoincrement", "autoinc.html"),
        (W, "JSON", "json1.html"),
        (W, "FTS5", "fts5.html"),
        (W, "vacuum", "lang_vacuum.html"),
        (W, "upsert", "lang_upsert.html"),
        (W, "limits", "limits.html"),
        (W, "quirks", "quirks.html"),
        (
            P,
            "wait instead of failing when another connection holds a lock",
            "c3ref/busy_timeout.html",
        ),
        (P, "get the id of the row I just inserted", "c3ref/last_insert_rowid.html"),
        (P, "how many rows did my UPDATE touch", "c3ref/changes.html"),
        (P, "insert a row or update it if it already exists", "lang_upsert.html"),
        (P, "shrink the database file and give the free space back", "lang_vacuum.html"),
        (P, "attach a value to a ? placeholder in a compiled statement", "c3ref/bind_blob.html"),
        (P, "read a text value from the current result row", "c3ref/column_blob.html"),
        (P, "work with dates and times in SQL", "lang_datefunc.html"),
        (P, "copy a live database to another file while it is in use", "backup.html"),
        (P, "run SQL text and get each result row in a callback", "c3ref/exec.html"),
    ],
    # Held out: a JavaScript API reference whose all.html concatenates every page (all.html
    # is not an equally correct answer: the user wants the module's own page).
    "node": [
        (N, "fs.readFile", "fs.html"),
        (N, "child_process.spawn", "child_process.html"),
        (N, "EventEmitter", "events.html"),
        (N, "Buffer.from", "buffer.html"),
        (N, "path.join", "path.html"),
        (N, "http.createServer", "http.html"),
        (N, "util.promisify", "util.html"),
        (N, "process.nextTick", "process.html"),
        (N, "setTimeout", "timers.html"),
        (N, "crypto.createHash", "crypto.html"),
        (D, "implementation of UDP datagram sockets", "dgram.html"),
        (D, "enables name resolution", "dns.html"),
        (
            D,
            "compression functionality implemented using Gzip, Deflate/Inflate, and Brotli",
            "zlib.html",
        ),
        (D, "operating system-related utility methods and properties", "os.html"),
        (D, "utilities for parsing and formatting URL query strings", "querystring.html"),
        (D, "compiling and running code within V8 Virtual Machine contexts", "vm.html"),
        (D, "assertion functions for verifying invariants", "assert.html"),
        (D, "Performance measurement APIs", "perf_hooks.html"),
        (D, "Deprecated APIs", "deprecations.html"),
        (D, "Modules: ECMAScript modules", "esm.html"),
        (W, "cluster", "cluster.html"),
        (W, "REPL", "repl.html"),
        (W, "TLS", "tls.html"),
        (W, "WASI", "wasi.html"),
        (W, "punycode", "punycode.html"),
        (W, "errors", "errors.html"),
        (W, "debugger", "debugger.html"),
        (P, "run JavaScript in parallel on several threads", "worker_threads.html"),
        (P, "read input one line at a time from the terminal", "readline.html"),
        (P, "start a shell command and read what it prints", "child_process.html"),
        (P, "compute a SHA-256 digest of some data", "crypto.html"),
        (P, "find which address a domain name points to", "dns.html"),
        (P, "write unit tests and run them with the built-in runner", "test.html"),
        (P, "turn bytes into text without breaking multi-byte characters", "string_decoder.html"),
        (P, "call a function after a delay or repeatedly", "timers.html"),
        (P, "command-line flags of the node executable", "cli.html"),
        (P, "build a TCP server", "net.html"),
        (P, "how packages declare their entry points", "packages.html"),
        (P, "global variables available in every module", "globals.html"),
    ],
}


def main() -> int:
    bad = []
    for name, rows in QUERIES.items():
        coll = COLLECTIONS[name]
        pages = page_set(coll)
        out = []
        for kind, query, target in rows:
            out.append(
                {
                    "query": query,
                    "kind": kind,
                    "target": target,
                    "equivalent": aliases(coll, target),
                    "other_languages": translations(coll, target),
                }
            )
        path = HERE / "queries" / f"{name}.json"
        doc = {"collection": name, "role": coll.role, "queries": out}
        path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        bad += check_queries(coll, pages)
        kinds = {k: sum(1 for r in rows if r[0] == k) for k in (N, D, W, P)}
        print(f"{name}: {len(rows)} queries {kinds}, {len(pages)} pages")
    for b in bad:
        print("problem:", b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
