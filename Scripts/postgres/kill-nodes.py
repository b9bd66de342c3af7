#!/usr/bin/env python3
"""SIGKILL a `mnemo serve` node under a stream of writes, ROUNDS times, then count the
acknowledged writes that another node cannot find (the target is none).

    python3 Scripts/postgres/kill-nodes.py MNEMO_BINARY POSTGRES_URL [ROUNDS]
"""
import http.client
import json
import random
import signal
import subprocess
import sys
import threading
import time
import uuid

mnemo, url = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 20
user = "kill-" + uuid.uuid4().hex[:8]
headers = {"Content-Type": "application/json"}


def start(port):
    node = subprocess.Popen([mnemo, "serve", "--db", url, "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return node
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the node did not start")


acknowledged = []
for round_number in range(rounds):
    node = start(8095)
    stop = threading.Event()

    def stream():
        connection = http.client.HTTPConnection("127.0.0.1", 8095, timeout=10)
        i = 0
        while not stop.is_set():
            content = f"Round {round_number} write {i}"
            body = {"user_id": user, "conversation_id": "c",
                    "extracted": [{"content": content, "category": "kill"}]}
            try:
                connection.request("POST", "/v1/facts/extract", json.dumps(body), headers)
                response = connection.getresponse()
                response.read()
                if response.status == 201:
                    acknowledged.append(content)
            except (OSError, http.client.HTTPException):
                return
            i += 1

    writer = threading.Thread(target=stream)
    writer.start()
    time.sleep(random.uniform(0.3, 1.0))
    node.send_signal(signal.SIGKILL)
    node.wait()
    stop.set()
    writer.join()

reader = start(8096)
connection = http.client.HTTPConnection("127.0.0.1", 8096)
found = set()
offset = 0
while True:
    connection.request("GET", f"/v1/users/{user}/facts?limit=500&offset={offset}")
    facts = json.loads(connection.getresponse().read())["facts"]
    found.update(fact["content"] for fact in facts)
    if len(facts) < 500:
        break
    offset += 500
reader.send_signal(signal.SIGTERM)
reader.wait()
missing = [content for content in acknowledged if content not in found]
print(f"{rounds} SIGKILLs: {len(acknowledged)} writes acknowledged, {len(missing)} lost")
sys.exit(1 if missing else 0)
