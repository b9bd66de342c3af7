#!/usr/bin/env python3
"""Drives `mnemo mcp` with the official Python MCP client (the `mcp` package on PyPI).

Usage: python3 check_mcp.py PATH/TO/mnemo

Starts the server on stdio over a scratch database, as an MCP host would, and checks every
tool and the topic-tree resource, and that a subscription to it is told when another process
writes the memory. Exits non-zero with a message on the first failure.
"""
import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

EXPECTED_TOOLS = {"search_memory", "memory_context", "remember_fact", "update_fact", "forget_fact", "forget",
                  "show_topic", "list_topics", "memory_stats"}


def field(value, snake, camel):
    """Reads a result field by its name in mcp 2.x (snake_case) or 1.x (camelCase)."""
    return getattr(value, snake) if hasattr(value, snake) else getattr(value, camel)


def check(condition, message):
    if not condition:
        raise SystemExit(f"check_mcp: FAILED: {message}")


async def call(session, name, arguments=None, expect_error=False):
    result = await session.call_tool(name, arguments or {})
    text = "".join(item.text for item in result.content if getattr(item, "type", "") == "text")
    is_error = bool(field(result, "is_error", "isError"))
    check(is_error == expect_error, f"{name} {arguments}: isError={is_error}: {text}")
    return text if expect_error else json.loads(text)


async def main(binary):
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "memory.sqlite")
        server = StdioServerParameters(command=binary, args=["mcp", "--db", database, "--namespace", "me"])
        tree_changed = asyncio.Event()

        async def on_message(message):
            # mcp 2.x hands over the notification itself; 1.x wraps it in a ServerNotification.
            notification = getattr(message, "root", message)
            if isinstance(notification, types.ResourceUpdatedNotification) and str(notification.params.uri) == "mnemo://topics":
                tree_changed.set()

        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write, message_handler=on_message) as session:
                init = await session.initialize()
                info = field(init, "server_info", "serverInfo")
                check(info.name == "mnemo", f"server name {info.name}")
                print(f"connected: {info.name} {info.version}, protocol {field(init, 'protocol_version', 'protocolVersion')}")

                tools = (await session.list_tools()).tools
                check({tool.name for tool in tools} == EXPECTED_TOOLS, f"tools {[t.name for t in tools]}")
                for tool in tools:
                    check(field(tool, "input_schema", "inputSchema").get("type") == "object" and len(tool.description or "") > 40,
                          f"{tool.name} lacks a schema or description")

                added = await call(session, "remember_fact", {
                    "content": "Prefers SwiftUI over UIKit", "topic": "Technology/iOS Development",
                    "type": "preference", "importance": "high", "source": "python-check"})
                check(added["outcome"] == "added", f"remember: {added}")
                fact_id = added["fact"]["id"]
                await call(session, "remember_fact", {"content": "Runs a marathon every spring", "topic": "Health & Fitness",
                                                      "type": "experience"})
                again = await call(session, "remember_fact", {"content": "prefers swiftui over uikit."})
                check(again["outcome"] == "unchanged" and again["fact"]["id"] == fact_id, f"dedupe: {again}")

                found = await call(session, "search_memory", {"query": "which UI framework do I like?", "limit": 3})
                check(found["results"] and found["results"][0]["id"] == fact_id, f"search: {found}")
                filtered = await call(session, "search_memory", {"query": "swiftui marathon", "types": ["experience"]})
                check([r["content"] for r in filtered["results"]] == ["Runs a marathon every spring"], f"filter: {filtered}")

                updated = await call(session, "update_fact", {"id": fact_id, "importance": "medium"})
                check(updated["importance"] == "medium", f"update: {updated}")

                topic = await call(session, "show_topic", {"path": "technology"})
                check(topic["subtopics"] == ["Technology/iOS Development"], f"show_topic: {topic}")
                tree = await call(session, "list_topics")
                check(sorted(node["path"] for node in tree) == ["Health & Fitness", "Technology"], f"list_topics: {tree}")
                stats = await call(session, "memory_stats")
                check(stats["facts"] == 2 and stats["active_facts"] == 2, f"stats: {stats}")

                forgotten = await call(session, "forget_fact", {"id": fact_id})
                check(forgotten["is_active"] is False, f"forget: {forgotten}")
                after = await call(session, "search_memory", {"query": "swiftui", "mode": "text"})
                check(after["results"] == [], f"forgotten fact still found: {after}")

                error = await call(session, "update_fact", {"id": 999999, "content": "x"}, expect_error=True)
                check("no fact with id 999999" in error, f"error text: {error}")

                resources = (await session.list_resources()).resources
                check([str(r.uri) for r in resources] == ["mnemo://topics"], f"resources: {resources}")
                contents = (await session.read_resource("mnemo://topics")).contents
                check("Technology/iOS Development" in contents[0].text, f"resource: {contents}")

                await session.subscribe_resource("mnemo://topics")
                facts = Path(folder) / "more.jsonl"
                facts.write_text('{"topic": "Music", "content": "Plays the cello in a community orchestra"}\n')
                written = subprocess.run([binary, "ingest", str(facts), "--db", database, "--namespace", "me"],
                                         capture_output=True, text=True)
                check(written.returncode == 0, f"ingest from another process: {written.stderr}")
                try:
                    await asyncio.wait_for(tree_changed.wait(), 10)
                except asyncio.TimeoutError:
                    check(False, "no notifications/resources/updated after another process wrote the memory")
                await session.unsubscribe_resource("mnemo://topics")
    print("check_mcp: every tool and the topic resource answered as expected; the subscription was notified")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    asyncio.run(main(sys.argv[1]))
