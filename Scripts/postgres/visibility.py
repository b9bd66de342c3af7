#!/usr/bin/env python3
"""Cross-node visibility: from a write's acknowledgement on node A to its first appearance in a
search on node B, over N writes (p50 and p99 in ms).

    python3 Scripts/postgres/visibility.py PORT_A PORT_B [N]

Each write adds a fact with a unique word through A (POST /v1/facts/extract); B is then searched
for that word (POST /v1/facts/search, text mode) until it answers with the fact.
"""
import http.client
import json
import sys
import time
import uuid

port_a, port_b = int(sys.argv[1]), int(sys.argv[2])
count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
a = http.client.HTTPConnection("127.0.0.1", port_a)
b = http.client.HTTPConnection("127.0.0.1", port_b)
user = "visibility-" + uuid.uuid4().hex[:8]
headers = {"Content-Type": "application/json"}


def post(connection, path, body):
    connection.request("POST", path, json.dumps(body), headers)
    response = connection.getresponse()
    return response.status, response.read()


delays = []
for i in range(count):
    word = "zq" + uuid.uuid4().hex[:12]
    status, _ = post(a, "/v1/facts/extract", {
        "user_id": user, "conversation_id": "c",
        "extracted": [{"content": f"Fact {i} mentions {word}", "category": "visibility"}]})
    assert status == 201, status
    acknowledged = time.perf_counter()
    polls = 0
    while True:
        polls += 1
        status, body = post(b, "/v1/facts/search", {"user_id": user, "query": word, "mode": "text", "limit": 1})
        if status == 200 and word.encode() in body:
            break
        assert polls < 10_000, "never appeared"
    delays.append((time.perf_counter() - acknowledged) * 1000)

delays.sort()
p50 = delays[len(delays) // 2]
p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))]
print(f"{count} writes: visible on B after p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {delays[-1]:.2f} ms")
