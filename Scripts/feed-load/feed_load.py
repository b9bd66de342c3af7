#!/usr/bin/env python3
"""Load on the change feed of `mnemo serve`: many Server-Sent Events clients while writes stream in.

Measures, against servers already running on loopback:
  - node memory per idle client (RSS of --server-pid before and after the clients connect);
  - from a write's acknowledgement (the writer has read its 201) to its event at every client,
    p50 and p99 over every (probe, client) pair; an event that arrives before the writer read
    its answer counts as 0 ms;
  - write throughput (sequential POST /v1/facts/extract of one fact) without the clients, with
    them, and without them again once they left, and the node's CPU time per write; the ratio is
    the writes with the clients over the mean of the writes before and after them. The writer runs in a process of its own and the clients
    only drain their streams meanwhile (one thread of `epoll` and `recv`), so that neither the
    clients' parsing nor the writer's turn in their event loop is counted as the node's cost
    (they still share the machine; the clients' CPU time per write is reported beside).
Writes go to --write-port and clients follow --read-port: two nodes of one PostgreSQL store
measure the cross-node path.

Usage: feed_load.py --read-port 8081 [--write-port 8082] --token TOKEN --user USER
                    [--clients 1000] [--probes 200] [--server-pid PID] [--throughput-seconds 10]
Prints one JSON object.
"""
import argparse, asyncio, concurrent.futures, http.client, json, os, re, select, statistics, threading, time, uuid

# A probe's id is in its content and its source: near-duplicate probes are merged by the
# server, and the survivor's event then names the new probe among its sources.
PROBE = re.compile(r"probe[- ]([0-9a-f]{32})")


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """The user and system CPU time the process has used."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    def __init__(self):
        self.ready = asyncio.Event()
        self.seen = {}  # probe id -> monotonic time the event arrived
        self.status = None
        self.transport = None

    async def follow(self, port, token):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        writer.write(
            f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        self.transport = writer.transport
        try:
            status_line = await reader.readline()
            self.status = int(status_line.split()[1])
            while await reader.readline() not in (b"\r\n", b""):
                pass
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"event: ready"):
                    self.ready.set()
                elif line.startswith(b"data: "):
                    now = time.monotonic()
                    for probe in PROBE.findall(line.decode("utf-8", "replace")):
                        self.seen.setdefault(probe, now)
        finally:
            writer.close()


async def post(port, token, user, body):
    """One HTTP/1.1 request on a fresh connection; returns the status."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode()
    writer.write(
        f"POST /v1/facts/extract HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    await reader.read()
    writer.close()
    return status


async def write_probe(port, token, user):
    probe = uuid.uuid4().hex
    status = await post(port, token, user, {
        "user_id": user, "conversation_id": f"probe-{probe}",
        "extracted": [{"content": f"feed probe {probe}", "category": "load"}]})
    assert status == 201, status
    return probe, time.monotonic()


def sequential_writes(port, token, user, seconds):
    """Writes one probe after another for `seconds`, in a process of its own; returns how many."""
    count, start = 0, time.monotonic()
    while time.monotonic() - start < seconds:
        body = json.dumps({
            "user_id": user, "conversation_id": f"load-{uuid.uuid4().hex}",
            "extracted": [{"content": f"feed load {uuid.uuid4().hex}", "category": "load"}]})
        connection = http.client.HTTPConnection("127.0.0.1", port)
        connection.request("POST", "/v1/facts/extract", body, {
            "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        assert response.status == 201, response.status
        connection.close()
        count += 1
    return count, time.monotonic() - start


class Drain:
    """Reads the clients' sockets and drops the bytes, in a thread of plain `epoll` and `recv`,
    while the writes are counted: asyncio's stream machinery cost some 40 µs per socket read,
    which on a machine shared with the node measured the loader rather than the node."""

    def __init__(self, clients):
        self.stopped = threading.Event()
        self.poll = select.epoll()
        for client in clients:
            client.transport.pause_reading()
            self.poll.register(client.transport.get_extra_info("socket").fileno(), select.EPOLLIN)
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stopped.is_set():
            for fd, _ in self.poll.poll(0.1):
                try:
                    if not os.read(fd, 1 << 16):
                        self.poll.unregister(fd)
                except BlockingIOError:
                    pass

    def stop(self):
        self.stopped.set()
        self.thread.join()


async def throughput(port, token, user, seconds, server_pid):
    """Writes per second, the node's CPU milliseconds per write (when its pid is known) and the
    clients' (this process's) CPU milliseconds per write."""
    cpu = cpu_seconds(server_pid) if server_pid else None
    clients_cpu = time.process_time()
    with concurrent.futures.ProcessPoolExecutor(1) as pool:
        count, elapsed = await asyncio.get_running_loop().run_in_executor(
            pool, sequential_writes, port, token, user, seconds)
    cpu_ms = round((cpu_seconds(server_pid) - cpu) * 1000 / count, 2) if server_pid else None
    clients_ms = round((time.process_time() - clients_cpu) * 1000 / count, 2)
    return round(count / elapsed, 1), cpu_ms, clients_ms


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--read-port", type=int, required=True)
    parser.add_argument("--write-port", type=int)
    parser.add_argument("--token", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--probes", type=int, default=200)
    parser.add_argument("--server-pid", type=int)
    parser.add_argument("--throughput-seconds", type=float, default=10)
    args = parser.parse_args()
    write_port = args.write_port or args.read_port
    report = {"clients": args.clients, "probes": args.probes}

    if args.throughput_seconds > 0:
        report["writes_per_second_without_clients"], report["node_cpu_ms_per_write_without_clients"], _ = (
            await throughput(write_port, args.token, args.user, args.throughput_seconds, args.server_pid))

    before = rss_kb(args.server_pid) if args.server_pid else None
    clients = [Client() for _ in range(args.clients)]
    tasks = [asyncio.create_task(c.follow(args.read_port, args.token)) for c in clients]
    await asyncio.wait_for(asyncio.gather(*(c.ready.wait() for c in clients)), 120)
    await asyncio.sleep(2)
    if before is not None:
        after = rss_kb(args.server_pid)
        report["rss_kb_before"], report["rss_kb_with_clients"] = before, after
        report["kb_per_idle_client"] = round((after - before) / args.clients, 1)

    acknowledged = {}
    for _ in range(args.probes):
        probe, at = await write_probe(write_port, args.token, args.user)
        acknowledged[probe] = at
        await asyncio.sleep(0.02)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(len(c.seen) < args.probes for c in clients):
        await asyncio.sleep(0.1)
    latencies = [max(0.0, (c.seen[p] - at) * 1000) for c in clients for p, at in acknowledged.items() if p in c.seen]
    missing = args.probes * args.clients - len(latencies)
    report["events_missing"] = missing
    report["latency_ms"] = {
        "p50": round(percentile(latencies, 0.5), 2), "p99": round(percentile(latencies, 0.99), 2),
        "max": round(max(latencies), 2), "mean": round(statistics.fmean(latencies), 2)}

    if args.throughput_seconds > 0:
        drain = Drain(clients)
        (report["writes_per_second_with_clients"], report["node_cpu_ms_per_write_with_clients"],
         report["clients_cpu_ms_per_write"]) = (
            await throughput(write_port, args.token, args.user, args.throughput_seconds, args.server_pid))
        drain.stop()
    for client in clients:
        client.transport.close()
    for task in tasks:
        task.cancel()
    if args.throughput_seconds > 0:
        # Once more without the clients, so that the ratio compares the writes with the clients
        # against those on either side of them: the machine's drift over the run cancels out.
        await asyncio.sleep(1)
        await write_probe(write_port, args.token, args.user)  # ends the streams whose clients left
        await asyncio.sleep(2)
        report["writes_per_second_without_clients_after"], report["node_cpu_ms_per_write_without_clients_after"], _ = (
            await throughput(write_port, args.token, args.user, args.throughput_seconds, args.server_pid))
        without = statistics.fmean([
            report["writes_per_second_without_clients"], report["writes_per_second_without_clients_after"]])
        report["throughput_ratio"] = round(report["writes_per_second_with_clients"] / without, 3)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
