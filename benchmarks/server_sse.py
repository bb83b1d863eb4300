"""The server under load: 20 SSE clients following 20 turns on 20 projects at once.

A `design-agent serve` process on a temp home; Claude is the fake CLI of
tests/fixtures streaming a recorded answer of 2,000 tokens (one delta line
each, FAKE_DELAY apart). Each client (a thread with http.client) follows its
turn's event stream to `end`. Printed, not asserted:

- events lost or out of order (ids must be 1..N, the text deltas must join
  into exactly the recorded answer);
- server-side event latency, p50/p95: from the moment the pipeline gave an
  event to the moment the server wrote it to the client's stream (both in
  the `: t=<sent> a=<appended>` comment before each event, monotonic ns);
  and the same to the moment the client read it;
- the server's resident memory (VmRSS, VmHWM from /proc/PID/status);
- time from starting `serve` to the first request served.

    python benchmarks/server_sse.py [--clients 20] [--tokens 2000] [--delay 0.001]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests")]

from fixtures.fakes import claude_run, install_fake  # noqa: E402
from fixtures.live_server import parse_sse  # noqa: E402

MESSAGE = "plan a usability test for the checkout"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--tokens", type=int, default=2000)
    parser.add_argument("--delay", type=float, default=0.001, help="seconds between tokens")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="design-agent-sse-") as folder:
        run(Path(folder), args.clients, args.tokens, args.delay)


def run(folder: Path, clients: int, tokens: int, delay: float) -> None:
    pieces = [f"tok{i} " for i in range(tokens)]
    record = claude_run(folder / "answer.json", *pieces)
    home = folder / "home"
    env = {
        **os.environ,
        "DESIGN_AGENT_HOME": str(home),
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_CLAUDE_BIN": str(install_fake(folder / "bin", "claude")),
        "DESIGN_AGENT_ENV_PASSTHROUGH": "FAKE_*",
        "FAKE_RECORDING": str(record),
        "FAKE_DELAY": str(delay),
    }
    started = time.monotonic()
    server = subprocess.Popen(
        [sys.executable, "-m", "design_agent", "serve"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        info, first_served = wait_served(home, started)
        print(f"serve start to first request served: {first_served * 1000:.0f} ms")
        measure(info, server.pid, clients, "".join(pieces))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def wait_served(home: Path, started: float) -> tuple[dict[str, Any], float]:
    """The server file once the server answers /api/v1/status, and how long that took."""
    deadline = started + 30
    while time.monotonic() < deadline:
        try:
            info = json.loads((home / "server.json").read_text())
            status, _ = call(info, "GET", "/api/v1/status")
            if status == 200:
                return info, time.monotonic() - started
        except (OSError, ValueError):
            pass
        time.sleep(0.005)
    raise SystemExit("the server did not answer within 30 s")


def call(info: dict[str, Any], method: str, path: str, body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", info["port"], timeout=60)
    try:
        headers = {"Authorization": f"Bearer {info['token']}", "Content-Type": "application/json"}
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def measure(info: dict[str, Any], pid: int, clients: int, answer: str) -> None:
    # Warm-up turn: the first one builds the catalogue cache and the matcher.
    call(info, "POST", "/api/v1/projects", {"name": "warm up"})
    _, body = call(info, "POST", "/api/v1/projects/warm-up/turns", {"message": MESSAGE})
    follow(info, body["turn_id"], {})
    turn_ids = []
    for number in range(clients):
        call(info, "POST", "/api/v1/projects", {"name": f"project {number}"})
    for number in range(clients):
        status, body = call(
            info, "POST", f"/api/v1/projects/project-{number}/turns", {"message": MESSAGE}
        )
        assert status == 202, body
        turn_ids.append(body["turn_id"])
    results: list[dict[str, Any]] = [{} for _ in turn_ids]
    threads = [
        threading.Thread(target=follow, args=(info, turn_id, result))
        for turn_id, result in zip(turn_ids, results, strict=True)
    ]
    begun, cpu = time.monotonic(), cpu_seconds(pid)
    for thread in threads:
        thread.start()
    rss = sample_rss(pid, threads)
    for thread in threads:
        thread.join(300)
    report(results, answer, time.monotonic() - begun, rss, pid)
    print(f"server CPU while streaming: {cpu_seconds(pid) - cpu:.2f} s")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the server process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def follow(info: dict[str, Any], turn_id: str, result: dict[str, Any]) -> None:
    """Read one turn's stream to `end`; keep ids, text, latencies (ns) and the end."""
    conn = http.client.HTTPConnection("127.0.0.1", info["port"], timeout=120)
    ids, texts, server_side, to_client = [], [], [], []
    end = None
    try:
        headers = {"Authorization": f"Bearer {info['token']}"}
        conn.request("GET", f"/api/v1/turns/{turn_id}/events", headers=headers)
        for message in parse_sse(conn.getresponse()):
            now = time.monotonic_ns()
            if message["event"] == "end":
                end = message["data"]
                break
            ids.append(int(message["id"]))
            stamps = dict(part.split("=") for part in message["comments"][0].split())
            server_side.append(int(stamps["t"]) - int(stamps["a"]))
            to_client.append(now - int(stamps["a"]))
            if message["event"] == "text":
                texts.append(message["data"]["text"])
    finally:
        conn.close()
    result.update(ids=ids, text="".join(texts), server=server_side, client=to_client, end=end)


def sample_rss(pid: int, threads: list[threading.Thread]) -> int:
    """The largest VmRSS (kB) seen while the clients run."""
    peak = 0
    while any(t.is_alive() for t in threads):
        peak = max(peak, proc_status(pid).get("VmRSS", 0))
        time.sleep(0.05)
    return peak


def proc_status(pid: int) -> dict[str, int]:
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, rest = line.partition(":")
        if rest.strip().endswith("kB"):
            values[name] = int(rest.split()[0])
    return values


def percentile(values: list[int], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] / 1e6


def report(results: list[dict[str, Any]], answer: str, seconds: float, rss: int, pid: int) -> None:
    lost = sum(1 for r in results if r["ids"] != list(range(1, len(r["ids"]) + 1)))
    wrong = sum(1 for r in results if answer not in r["text"] and r["text"] != answer)
    ended = [r["end"]["status"] if r["end"] else "no end" for r in results]
    server = [v for r in results for v in r["server"]]
    client = [v for r in results for v in r["client"]]
    events = sum(len(r["ids"]) for r in results)
    print(f"{len(results)} clients, {events} events in {seconds:.2f} s; ends: {set(ended)}")
    print(f"streams with lost or reordered events: {lost}; answers not intact: {wrong}")
    print(
        f"server-side event latency (appended -> written): p50 {percentile(server, 0.5):.2f} ms,"
        f" p95 {percentile(server, 0.95):.2f} ms"
    )
    print(
        f"appended -> read by the client: p50 {percentile(client, 0.5):.2f} ms,"
        f" p95 {percentile(client, 0.95):.2f} ms"
    )
    status = proc_status(pid)
    peak, now = status.get("VmHWM", 0) / 1024, status.get("VmRSS", 0) / 1024
    print(
        f"server RSS: {rss / 1024:.1f} MB while streaming (VmHWM {peak:.1f} MB, now {now:.1f} MB)"
    )
    print(f"events per stream (median): {statistics.median(len(r['ids']) for r in results)}")


if __name__ == "__main__":
    main()
