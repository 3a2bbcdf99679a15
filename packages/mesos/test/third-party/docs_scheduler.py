#!/usr/bin/env python3
"""A Mesos scheduler written from the Apache Mesos documentation alone
(docs/scheduler-http-api.md, docs/recordio.md, docs/endpoints: the agent's
/state and /files/read), with Python's standard library: nothing of the
project it is run against. Usage: docs_scheduler.py http://host:port

SUBSCRIBE, take the first offer, LAUNCH `echo hello`, ACKNOWLEDGE every
update that carries a uuid until TASK_FINISHED, then read the task's stdout
from its agent. Prints one JSON object with what it saw; exits 1 on failure.
"""
import http.client
import json
import queue
import sys
import threading
import urllib.parse
import urllib.request

master = urllib.parse.urlparse(sys.argv[1])
HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}


def read_record(stream):
    """RecordIO: the record's length in ASCII digits, a newline, then that many bytes."""
    digits = b""
    while True:
        byte = stream.read(1)
        if byte == b"":
            return None
        if byte == b"\n":
            break
        digits += byte
    return json.loads(stream.read(int(digits)))


def subscribe(events):
    conn = http.client.HTTPConnection(master.hostname, master.port, timeout=30)
    body = {
        "type": "SUBSCRIBE",
        "subscribe": {"framework_info": {"user": "docs", "name": "docs-example-framework"}},
    }
    conn.request("POST", "/api/v1/scheduler", json.dumps(body), HEADERS)
    response = conn.getresponse()
    if response.status != 200:
        raise SystemExit(f"SUBSCRIBE answered {response.status}")
    events.put(("stream-id", response.getheader("Mesos-Stream-Id")))

    def pump():
        while True:
            record = read_record(response)
            if record is None:
                return
            events.put(("event", record))

    threading.Thread(target=pump, daemon=True).start()


def call(stream_id, body):
    conn = http.client.HTTPConnection(master.hostname, master.port, timeout=30)
    conn.request("POST", "/api/v1/scheduler", json.dumps(body), {**HEADERS, "Mesos-Stream-Id": stream_id})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status


def main():
    events = queue.Queue()
    subscribe(events)
    _, stream_id = events.get(timeout=10)
    seen = {"event_types": [], "states": [], "acknowledged": 0}
    framework_id = offer = None
    task_id = "docs-task-1"
    while True:
        _, event = events.get(timeout=20)
        seen["event_types"].append(event["type"])
        if event["type"] == "SUBSCRIBED":
            framework_id = event["subscribed"]["framework_id"]
        elif event["type"] == "OFFERS" and offer is None:
            offer = event["offers"]["offers"][0]
            launch = {
                "framework_id": framework_id,
                "type": "ACCEPT",
                "accept": {
                    "offer_ids": [offer["id"]],
                    "operations": [{
                        "type": "LAUNCH",
                        "launch": {"task_infos": [{
                            "name": "docs-task",
                            "task_id": {"value": task_id},
                            "agent_id": offer["agent_id"],
                            "resources": [
                                {"name": "cpus", "type": "SCALAR", "scalar": {"value": 0.1}},
                                {"name": "mem", "type": "SCALAR", "scalar": {"value": 32}},
                            ],
                            "command": {"value": "echo hello"},
                        }]},
                    }],
                    "filters": {"refuse_seconds": 5.0},
                },
            }
            seen["accept_status"] = call(stream_id, launch)
        elif event["type"] == "UPDATE":
            status = event["update"]["status"]
            seen["states"].append(status["state"])
            if "uuid" in status:
                ack = {
                    "framework_id": framework_id,
                    "type": "ACKNOWLEDGE",
                    "acknowledge": {
                        "agent_id": status["agent_id"],
                        "task_id": status["task_id"],
                        "uuid": status["uuid"],
                    },
                }
                if call(stream_id, ack) == 202:
                    seen["acknowledged"] += 1
            if status["state"] in ("TASK_FINISHED", "TASK_FAILED", "TASK_ERROR", "TASK_LOST"):
                break

    # The agent's state endpoint names the executor's sandbox; /files/read serves its files.
    url = offer["url"]
    agent = f'{url["scheme"]}://{url["address"]["ip"]}:{url["address"]["port"]}'
    with urllib.request.urlopen(f'{agent}{url.get("path", "/slave(1)")}/state', timeout=10) as r:
        state = json.load(r)
    directory = None
    for fw in state["frameworks"] + state.get("completed_frameworks", []):
        if fw["id"] != framework_id["value"]:
            continue
        for executor in fw.get("executors", []) + fw.get("completed_executors", []):
            ids = [t["id"] for key in ("tasks", "completed_tasks") for t in executor.get(key, [])]
            if executor["id"] == task_id or task_id in ids:
                directory = executor["directory"]
    query = urllib.parse.urlencode({"path": f"{directory}/stdout", "offset": 0})
    with urllib.request.urlopen(f"{agent}/files/read?{query}", timeout=10) as r:
        seen["stdout"] = json.load(r)["data"]
    seen["framework_id"] = framework_id["value"]
    print(json.dumps(seen))


main()
